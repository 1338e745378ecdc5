/* SPDX-License-Identifier: MIT */
/*
 * The guest's fw_cfg device (ports 0x510/0x511, DMA at 0x514/0x518), as
 * KVM+QEMU present it to an SNP guest, owned by the hypervisor. QEMU's
 * own fw_cfg also carries the machine's inputs (opt/csvsm/igvm,
 * opt/csvsm/hv, emu.elf's -kernel keys and boot ROM, the machine's
 * etc/e820), so the guest never reaches it directly: it sees
 *   - keys 0x00 (signature), 0x01 (ID: ports and DMA), 0x05 (CPUs);
 *   - the file directory (0x19): QEMU's files minus the machine's own and
 *     minus etc/e820, plus a synthetic etc/e820 of the guest's RAM;
 *   - the kernel keys of QEMU's x86 -kernel/-initrd/-append, served from
 *     the host's files opt/csvsm/guest/{kernel,initrd,cmdline}: setup
 *     0x16-0x18, kernel 0x07/0x08/0x11, initrd 0x0A/0x0B/0x12, command
 *     line 0x13-0x15 (with its NUL), the bytes unmodified;
 *   - every other key reads as zeros, as QEMU's absent items do.
 * Pass-through files are read from QEMU's item at the guest's offset, a
 * window at a time (never a whole file in the machine's memory). DMA
 * reads and writes only guest pages the RMP says are shared, under the
 * RMP lock for the whole transfer. docs/emu.md, "The guest's fw_cfg".
 *
 * The second half is the pure part (hv_fwcfg_view.c): what the guest's
 * items are, computed from QEMU's bytes with no machine state, so that
 * test/unit/emu_hv_devices_test.c runs it hosted.
 */
#ifndef MACHINE_HV_FWCFG_H
#define MACHINE_HV_FWCFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HV_FWCFG_PORT_SEL 0x510u
#define HV_FWCFG_PORT_DATA 0x511u
#define HV_FWCFG_PORT_DMA_HI 0x514u
#define HV_FWCFG_PORT_DMA_LO 0x518u
#define HV_FWCFG_PORT_LAST 0x51Bu

/** Read QEMU's directory and the guest kernel's header (before any vCPU
 * runs, after the machine's own fw_cfg reads). */
void hv_fwcfg_init(void);
/** Whether @port belongs to the guest's fw_cfg (0x510-0x51B). */
bool hv_fwcfg_port(uint16_t port);
/** A port access of @size bytes by any vCPU at any VMPL. */
void hv_fwcfg_io(uint16_t port, unsigned size, bool in, uint32_t *val);

/* ---- The guest's view, pure ---- */

#define HV_FWCFG_NAME_MAX 56u

/* A directory entry, as QEMU lays it out (size and key big-endian). */
struct hv_fwcfg_file {
	uint32_t size_be;
	uint16_t key_be;
	uint16_t reserved;
	char name[HV_FWCFG_NAME_MAX];
};

/* QEMU's x86 Linux loader's keys, little-endian values. */
struct hv_fwcfg_linux {
	uint32_t setup_size, kernel_size, initrd_size, cmdline_size;
	uint32_t setup_addr, kernel_addr, initrd_addr, cmdline_addr;
};

/* One e820 entry as etc/e820 carries it: u64 addr, u64 len, u32 type,
 * packed, little-endian. */
#define HV_FWCFG_E820_ENTRY 20u
#define HV_FWCFG_E820_RAM 1u

/** Whether the guest must not see QEMU's file @name (NUL-terminated
 * within HV_FWCFG_NAME_MAX bytes, else hidden): the machine's inputs
 * (opt/csvsm/igvm, opt/csvsm/hv, opt/csvsm/guest/...), its boot ROMs
 * (genroms/...), and QEMU's etc/e820 (the machine's RAM). */
bool hv_fwcfg_hidden(const char *name);

/**
 * The guest's directory: QEMU's @n entries @in without the hidden ones,
 * @extra's @n_extra entries inserted in name order (QEMU sorts by name),
 * into @out (room for @cap). Returns the count. An entry of QEMU whose
 * key is one of @extra's is dropped.
 */
uint32_t hv_fwcfg_dir(const struct hv_fwcfg_file *in, uint32_t n,
		      const struct hv_fwcfg_file *extra, uint32_t n_extra,
		      struct hv_fwcfg_file *out, uint32_t cap);

/* Where RAM above the low limit starts (guest_mem.h's GUEST_MEM_HIGH). */
#define HV_FWCFG_RAM_HIGH 0x100000000ull
/** etc/e820 for @ram_size bytes of guest RAM from 0 and @high_size from
 * 4 GiB (0: none) into @buf (room for
 * @cap bytes): its size, 0 if it does not fit. */
size_t hv_fwcfg_e820(uint64_t ram_size, uint64_t high_size, uint8_t *buf,
		     size_t cap);

/**
 * The loader keys for a bzImage of @kernel_size bytes whose first
 * @hdr_len bytes are @hdr, an initrd of @initrd_size bytes (0: none), a
 * command line of @cmdline_len bytes without its NUL, and @ram_size bytes
 * of guest RAM below 4 GiB. NULL, or why the kernel is not presented
 * (then *@out is all zeros): no boot flag 0xAA55 or "HdrS", protocol
 * before 2.00, a setup (setup_sects + 1 sectors, 0 meaning 4) not
 * shorter than the file, a file over 4 GiB. The addresses are QEMU's for
 * such a kernel (informative: OVMF loads by the sizes and data).
 */
const char *hv_fwcfg_linux(const uint8_t *hdr, size_t hdr_len,
			   uint64_t kernel_size, uint64_t initrd_size,
			   uint64_t cmdline_len, uint64_t ram_size,
			   struct hv_fwcfg_linux *out);
/* The header bytes hv_fwcfg_linux needs at most. */
#define HV_FWCFG_LINUX_HDR 0x240u

/**
 * An access of @want bytes at offset @off of an item of @len bytes, as
 * QEMU's fw_cfg moves its offset: *@avail of them are the item's (the
 * rest read as zeros); returns the new offset (unchanged once at or past
 * the end).
 */
uint32_t hv_fwcfg_advance(uint32_t len, uint32_t off, uint32_t want,
			  uint32_t *avail);

/* A DMA access (QEMU's FWCfgDmaAccess, 16 bytes big-endian at the
 * address the guest writes to 0x514/0x518) and its control bits. */
#define HV_FWCFG_DMA_SIZE 16u
#define HV_FWCFG_PAGE 0x1000ull
#define HV_FWCFG_DMA_ERROR 0x01u
#define HV_FWCFG_DMA_READ 0x02u
#define HV_FWCFG_DMA_SKIP 0x04u
#define HV_FWCFG_DMA_SELECT 0x08u
#define HV_FWCFG_DMA_WRITE 0x10u
struct hv_fwcfg_dma {
	uint32_t control; /* [31:16] the key to select, [4:0] the bits */
	uint32_t length;
	uint64_t address;
};

/** The access whose guest bytes are @raw, in host order. */
struct hv_fwcfg_dma hv_fwcfg_dma_decode(const uint8_t raw[HV_FWCFG_DMA_SIZE]);

/* What an access does once its SELECT is done, as QEMU's
 * fw_cfg_dma_transfer: nothing, fail (a WRITE: every item is read-only),
 * or fill its buffer: @avail bytes of the item, then zeros. */
enum hv_fwcfg_dma_op {
	HV_FWCFG_DMA_OP_NONE,
	HV_FWCFG_DMA_OP_FAIL,
	HV_FWCFG_DMA_OP_FILL,
};
struct hv_fwcfg_dma_plan {
	enum hv_fwcfg_dma_op op;
	uint32_t avail;	   /* FILL: the item's bytes, <= length */
	uint32_t next_off; /* the item's offset after it */
};

/**
 * Access @a on the selected item (@valid: one exists; @len bytes; at
 * offset @off): READ over WRITE over SKIP, as QEMU; none of them or a
 * length of 0 does nothing. A SKIP, a WRITE and a READ that succeeds move
 * the offset to next_off; a READ whose buffer is refused leaves it.
 */
struct hv_fwcfg_dma_plan hv_fwcfg_dma_plan(const struct hv_fwcfg_dma *a,
					   bool valid, uint32_t len,
					   uint32_t off);

/** The 4 KiB pages [*@first, + *@count pages) that [@gpa, @gpa + @len)
 * touches; false if the range is empty, wraps, or has a bit of @c_mask
 * (the C-bit: DMA is to shared memory). */
bool hv_fwcfg_dma_pages(uint64_t gpa, uint64_t len, uint64_t c_mask,
			uint64_t *first, uint64_t *count);

#endif /* MACHINE_HV_FWCFG_H */
