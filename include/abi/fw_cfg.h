/* SPDX-License-Identifier: MIT */
/*
 * QEMU's firmware configuration device on x86 (QEMU docs/specs/fw_cfg.rst):
 * its I/O ports, the fixed keys csvsm reads, the file directory's entry
 * and the DMA interface's descriptor. Shared by the SVSM's ACPI loader
 * (src/plat/snp/linux/snp_acpi.c), the test guests and the machines that
 * serve it. A 16-bit write of a key to the selector port selects that
 * item and rewinds it; byte reads from the data port return its next
 * bytes. The fixed items are little-endian; the file directory and the
 * DMA descriptor are big-endian.
 */
#ifndef ABI_FW_CFG_H
#define ABI_FW_CFG_H

#include <stddef.h>
#include <stdint.h>

#define FW_CFG_PORT_SEL 0x510u	/* 16-bit write: select a key */
#define FW_CFG_PORT_DATA 0x511u /* 8-bit read: the item's next byte */
#define FW_CFG_PORT_DMA 0x514u	/* DMA address: high 32 bits, 0x518 low */

/* Keys (fw_cfg.rst, "Selector Register Behavior" and the items below). */
#define FW_CFG_SIGNATURE 0x0000u /* "QEMU" */
#define FW_CFG_ID 0x0001u	 /* le32 feature bits: FW_CFG_ID_* */
#define FW_CFG_NB_CPUS 0x0005u	 /* le16 */
/* The file directory: a be32 count, then one struct fw_cfg_file each. */
#define FW_CFG_FILE_DIR 0x0019u

#define FW_CFG_ID_TRADITIONAL 0x1u /* the port interface */
#define FW_CFG_ID_DMA 0x2u	   /* the DMA interface */

#define FW_CFG_MAX_FILE_PATH 56u

/* One entry of the file directory (FW_CFG_FILE_DIR). */
struct fw_cfg_file {
	uint32_t size;	 /* big-endian: the file's bytes */
	uint16_t select; /* big-endian: its key */
	uint16_t reserved;
	char name[FW_CFG_MAX_FILE_PATH]; /* NUL-terminated, if it fits */
};

_Static_assert(sizeof(struct fw_cfg_file) == 64,
	       "fw_cfg.rst: a FWCfgFile is 64 bytes");
_Static_assert(offsetof(struct fw_cfg_file, select) == 4,
	       "fw_cfg.rst: FWCfgFile.select");
_Static_assert(offsetof(struct fw_cfg_file, name) == 8,
	       "fw_cfg.rst: FWCfgFile.name");

/* The DMA interface's descriptor (FWCfgDmaAccess), 16-byte aligned. */
struct fw_cfg_dma_access {
	uint32_t control; /* big-endian: FW_CFG_DMA_* and the key [31:16] */
	uint32_t length;  /* big-endian */
	uint64_t address; /* big-endian */
};

_Static_assert(sizeof(struct fw_cfg_dma_access) == 16,
	       "fw_cfg.rst: a FWCfgDmaAccess is 16 bytes");

#define FW_CFG_DMA_ERROR 0x01u
#define FW_CFG_DMA_READ 0x02u
#define FW_CFG_DMA_SKIP 0x04u
#define FW_CFG_DMA_SELECT 0x08u
#define FW_CFG_DMA_WRITE 0x10u

#endif /* ABI_FW_CFG_H */
