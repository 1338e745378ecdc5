/* SPDX-License-Identifier: MIT */
/*
 * What a loader writes for Linux's 64-bit boot protocol: boot_params
 * (Documentation/arch/x86/boot.rst, zero-page.rst) and the setup_data
 * node that carries the SEV-SNP CC blob (asm/sev.h: the decompressor
 * clears boot_params.cc_blob_address and finds the blob only through
 * SETUP_CC_BLOB). Pure: the inputs were checked by the caller.
 */
#include "svsm/check.h"
#include "svsm/le.h"
#include "svsm/std.h"

#include "abi/snp.h"

#include "linux_boot.h"

#define PAGE SNP_PAGE_SIZE
#define GIB4 0x100000000ull
/* The blob sits after the node and its u32, 8-byte aligned. */
#define CC_BLOB_OFFSET 0x20u

void linux_zero_page_build(uint8_t *bp, const struct linux_zero_page_in *in)
{
	uint8_t flags;
	unsigned i;

	CHECK(in->hdr->hdr_end > LINUX_BP_HDR &&
	      in->hdr->hdr_end <= LINUX_BP_E820_TABLE &&
	      in->e820_count <= LINUX_E820_MAX && in->cmdline_gpa < GIB4 &&
	      in->setup_data_gpa != 0);
	memset(bp, 0, PAGE);
	/* The header as the kernel has it, from 0x1F1 to its end. */
	memcpy(bp + LINUX_BP_HDR, in->setup_hdr + LINUX_BP_HDR,
	       in->hdr->hdr_end - LINUX_BP_HDR);
	bp[LINUX_HDR_TYPE_OF_LOADER] = LINUX_LOADER_TYPE_UNDEFINED;
	/* Loaded high; no real-mode heap (the setup code never ran);
	 * KASLR_FLAG and the rest are the decompressor's. */
	flags = bp[LINUX_HDR_LOADFLAGS];
	flags = (uint8_t)((flags | LINUX_LOADFLAGS_LOADED_HIGH) &
			  ~LINUX_LOADFLAGS_CAN_USE_HEAP);
	bp[LINUX_HDR_LOADFLAGS] = flags;
	le_put16(bp + LINUX_HDR_HEAP_END_PTR, 0);
	le_put32(bp + LINUX_HDR_CMD_LINE_PTR, (uint32_t)in->cmdline_gpa);
	le_put32(bp + LINUX_BP_EXT_CMD_LINE_PTR, 0);
	le_put32(bp + LINUX_HDR_RAMDISK_IMAGE, (uint32_t)in->initrd_gpa);
	le_put32(bp + LINUX_HDR_RAMDISK_SIZE, (uint32_t)in->initrd_size);
	le_put32(bp + LINUX_BP_EXT_RAMDISK_IMAGE,
		 (uint32_t)(in->initrd_gpa >> 32));
	le_put32(bp + LINUX_BP_EXT_RAMDISK_SIZE,
		 (uint32_t)(in->initrd_size >> 32));
	/* PC: hardware_subarch 0 (the kernel's own header says so). */
	le_put32(bp + LINUX_HDR_HARDWARE_SUBARCH, 0);
	le_put64(bp + LINUX_HDR_SETUP_DATA, in->setup_data_gpa);
	le_put64(bp + LINUX_BP_ACPI_RSDP_ADDR, in->acpi_rsdp);
	bp[LINUX_BP_E820_ENTRIES] = (uint8_t)in->e820_count;
	for (i = 0; i < in->e820_count; i++) {
		memcpy(bp + LINUX_BP_E820_TABLE +
			       i * sizeof(struct linux_e820_entry),
		       &in->e820[i], sizeof(struct linux_e820_entry));
	}
	/* sentinel stays 0: else sanitize_boot_params() wipes the above. */
	CHECK(bp[LINUX_BP_SENTINEL] == 0);
}

void linux_setup_data_build(uint8_t *page, uint64_t page_gpa,
			    uint64_t secrets_gpa, uint64_t cpuid_gpa)
{
	/* The node's data runs to the blob's end: Linux reserves every
	 * setup_data node's data, so the blob stays its own on the RAM
	 * page (the u32 is all Linux reads of cc_setup_data). */
	struct linux_setup_data node = {.next = 0,
					.type = LINUX_SETUP_CC_BLOB,
					.len = CC_BLOB_OFFSET -
					       sizeof(struct linux_setup_data) +
					       sizeof(struct linux_cc_blob)};
	struct linux_cc_blob blob = {.magic = LINUX_CC_BLOB_MAGIC,
				     .version = 0,
				     .secrets_phys = secrets_gpa,
				     .secrets_len = PAGE,
				     .cpuid_phys = cpuid_gpa,
				     .cpuid_len = PAGE};

	/* cc_setup_data holds a u32: the blob must lie below 4 GiB. */
	CHECK(page_gpa < GIB4 - PAGE && page_gpa % PAGE == 0);
	memset(page, 0, PAGE);
	memcpy(page, &node, sizeof(node));
	le_put32(page + sizeof(node), (uint32_t)(page_gpa + CC_BLOB_OFFSET));
	memcpy(page + CC_BLOB_OFFSET, &blob, sizeof(blob));
}

void linux_setup_data_chain_log(uint8_t *page, uint64_t page_gpa,
				uint32_t log_len)
{
	struct linux_setup_data node = {
		.next = 0, .type = LINUX_SETUP_CSVSM_TCG_LOG, .len = log_len};

	/* The CC blob node stays first; its data ends before the log's. */
	CHECK(log_len <= LINUX_SETUP_LOG_MAX &&
	      CC_BLOB_OFFSET + sizeof(struct linux_cc_blob) <=
		      LINUX_SETUP_LOG_OFFSET &&
	      le_get32(page + 8) == LINUX_SETUP_CC_BLOB);
	memcpy(page + LINUX_SETUP_LOG_OFFSET, &node, sizeof(node));
	le_put64(page, page_gpa + LINUX_SETUP_LOG_OFFSET);
}
