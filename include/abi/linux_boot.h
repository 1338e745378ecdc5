/* SPDX-License-Identifier: MIT */
/*
 * Linux's x86 boot protocol as a loader sees it (Documentation/arch/x86/
 * boot.rst and zero-page.rst; arch/x86/include/uapi/asm/bootparam.h,
 * setup_data.h, e820.h; arch/x86/include/asm/sev.h for the CC blob):
 * the zero page (struct boot_params, 4 KiB) by byte offset, because the
 * setup header inside it is unaligned, and the small packed records a
 * loader writes: e820 entries, a setup_data node, the SEV CC blob.
 */
#ifndef ABI_LINUX_BOOT_H
#define ABI_LINUX_BOOT_H

#include <stdint.h>

/* boot_params (zero-page.rst), byte offsets. */
#define LINUX_BP_SIZE 0x1000u
#define LINUX_BP_ACPI_RSDP_ADDR 0x070u	  /* u64 */
#define LINUX_BP_EXT_RAMDISK_IMAGE 0x0C0u /* u32: bits [63:32] */
#define LINUX_BP_EXT_RAMDISK_SIZE 0x0C4u  /* u32 */
#define LINUX_BP_EXT_CMD_LINE_PTR 0x0C8u  /* u32 */
#define LINUX_BP_CC_BLOB_ADDRESS 0x13Cu	  /* u32: the decompressor's */
#define LINUX_BP_E820_ENTRIES 0x1E8u	  /* u8 */
#define LINUX_BP_SENTINEL 0x1EFu	  /* u8: must stay 0 */
#define LINUX_BP_HDR 0x1F1u		  /* the setup header */
#define LINUX_BP_E820_TABLE 0x2D0u	  /* struct linux_e820_entry[128] */
#define LINUX_E820_MAX 128u

/* The setup header (boot.rst "The real-mode kernel header"), at its
 * offsets in the bzImage file and in boot_params alike. */
#define LINUX_HDR_SETUP_SECTS 0x1F1u	  /* u8; 0 means 4 */
#define LINUX_HDR_SYSSIZE 0x1F4u	  /* u32, 16-byte units */
#define LINUX_HDR_BOOT_FLAG 0x1FEu	  /* u16 0xAA55 */
#define LINUX_HDR_JUMP 0x200u		  /* u16: EB, header end - 0x202 */
#define LINUX_HDR_HEADER 0x202u		  /* u32 "HdrS" */
#define LINUX_HDR_VERSION 0x206u	  /* u16 */
#define LINUX_HDR_KERNEL_VERSION 0x20Eu	  /* u16: string at +0x200 */
#define LINUX_HDR_TYPE_OF_LOADER 0x210u	  /* u8 */
#define LINUX_HDR_LOADFLAGS 0x211u	  /* u8 */
#define LINUX_HDR_RAMDISK_IMAGE 0x218u	  /* u32 */
#define LINUX_HDR_RAMDISK_SIZE 0x21Cu	  /* u32 */
#define LINUX_HDR_HEAP_END_PTR 0x224u	  /* u16 */
#define LINUX_HDR_EXT_LOADER_VER 0x226u	  /* u8 */
#define LINUX_HDR_EXT_LOADER_TYPE 0x227u  /* u8 */
#define LINUX_HDR_CMD_LINE_PTR 0x228u	  /* u32 */
#define LINUX_HDR_INITRD_ADDR_MAX 0x22Cu  /* u32 */
#define LINUX_HDR_KERNEL_ALIGNMENT 0x230u /* u32 */
#define LINUX_HDR_RELOCATABLE 0x234u	  /* u8 */
#define LINUX_HDR_XLOADFLAGS 0x236u	  /* u16 */
#define LINUX_HDR_CMDLINE_SIZE 0x238u	  /* u32, without the NUL */
#define LINUX_HDR_HARDWARE_SUBARCH 0x23Cu /* u32 */
#define LINUX_HDR_PAYLOAD_OFFSET 0x248u	  /* u32, in the protected part */
#define LINUX_HDR_PAYLOAD_LENGTH 0x24Cu	  /* u32 */
#define LINUX_HDR_SETUP_DATA 0x250u	  /* u64 */
#define LINUX_HDR_PREF_ADDRESS 0x258u	  /* u64 */
#define LINUX_HDR_INIT_SIZE 0x260u	  /* u32 */
/* The last field a version 2.12 header has (init_size ends here). */
#define LINUX_HDR_MIN_END 0x264u

#define LINUX_BOOT_FLAG 0xAA55u
#define LINUX_HDRS_MAGIC 0x53726448u /* "HdrS" */
/* 2.12: xloadflags, and with it the 64-bit entry point. */
#define LINUX_HDR_VERSION_MIN 0x020Cu
#define LINUX_LOADFLAGS_LOADED_HIGH 0x01u
#define LINUX_LOADFLAGS_CAN_USE_HEAP 0x80u
#define LINUX_XLF_KERNEL_64 0x0001u
#define LINUX_XLF_CAN_BE_LOADED_ABOVE_4G 0x0002u
/* type_of_loader 0xFF: "undefined", as boot.rst allows. */
#define LINUX_LOADER_TYPE_UNDEFINED 0xFFu
/* The 64-bit entry: load address + 0x200 ("ABI so immutable"). */
#define LINUX_ENTRY64_OFFSET 0x200u
/* __BOOT_CS and __BOOT_DS of the 64-bit protocol. */
#define LINUX_BOOT_CS 0x10u
#define LINUX_BOOT_DS 0x18u

/* e820 types (arch/x86/include/asm/e820/types.h). */
#define LINUX_E820_RAM 1u
#define LINUX_E820_RESERVED 2u
#define LINUX_E820_ACPI 3u

struct linux_e820_entry {
	uint64_t addr;
	uint64_t size;
	uint32_t type;
} __attribute__((packed));
_Static_assert(sizeof(struct linux_e820_entry) == 20, "boot_e820_entry");
_Static_assert(LINUX_BP_E820_TABLE + LINUX_E820_MAX *
					     sizeof(struct linux_e820_entry) ==
		       0xCD0,
	       "zero-page.rst: e820_table ends at 0xCD0");

/* setup_data (uapi/asm/setup_data.h): a node of the list that
 * boot_params.hdr.setup_data heads. */
#define LINUX_SETUP_CC_BLOB 7u
struct linux_setup_data {
	uint64_t next;
	uint32_t type;
	uint32_t len; /* of the data that follows */
} __attribute__((packed));
_Static_assert(sizeof(struct linux_setup_data) == 16, "setup_data");

/* csvsm's own setup_data type (docs/vtpm.md, "The event log"): the node's
 * data is the TCG2 crypto-agile event log of what the SVSM measured as
 * Linux's loader. Far above Linux's enum (1 to 10 so far) and without
 * SETUP_INDIRECT (bit 31): Linux reserves the node like every other
 * (memblock_x86_reserve_range_setup_data), ignores its contents and shows
 * it as /sys/kernel/boot_params/setup_data/N/{type,data}. The value is
 * "CSVL" read as big-endian ASCII. The node sits in the setup_data page
 * at LINUX_SETUP_LOG_OFFSET, chained after the SETUP_CC_BLOB node, so
 * the log has LINUX_SETUP_LOG_MAX bytes. */
#define LINUX_SETUP_CSVSM_TCG_LOG 0x4353564Cu
#define LINUX_SETUP_LOG_OFFSET 0x100u
#define LINUX_SETUP_LOG_MAX (4096u - LINUX_SETUP_LOG_OFFSET - 16u)

/* struct cc_blob_sev_info (asm/sev.h): the SEV-SNP secrets and CPUID
 * pages, which Linux finds through a SETUP_CC_BLOB node whose data is
 * the blob's u32 address (so the blob lies below 4 GiB). */
#define LINUX_CC_BLOB_MAGIC 0x45444d41u /* "AMDE" */
struct linux_cc_blob {
	uint32_t magic;
	uint16_t version;
	uint16_t reserved;
	uint64_t secrets_phys;
	uint32_t secrets_len; /* exactly 4096 */
	uint32_t rsvd1;
	uint64_t cpuid_phys;
	uint32_t cpuid_len; /* at least 4096 */
	uint32_t rsvd2;
} __attribute__((packed));
_Static_assert(sizeof(struct linux_cc_blob) == 0x28, "cc_blob_sev_info");

#endif /* ABI_LINUX_BOOT_H */
