/* SPDX-License-Identifier: MIT */
/*
 * The snp firmware as Linux's loader (CSVSM_GUEST_ENTRY_LINUX,
 * docs/linux.md): the measured layout's checks (linux_layout.c), the
 * e820 table from the host's map (linux_e820.c), the zero page and CC
 * blob (linux_zero_page.c), and the load itself (linux_boot.c). The
 * builders are pure: unit-tested and fuzzed hosted.
 */
#ifndef SNP_LINUX_BOOT_H
#define SNP_LINUX_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "svsm/addr.h"
#include "svsm/bzimage.h"
#include "svsm/memmap.h"

#include "abi/csvsm_boot.h"
#include "abi/linux_boot.h"

/** A range the loader keeps from Linux's RAM, with its e820 type. */
struct linux_hole {
	uint64_t base, size;
	uint32_t type; /* LINUX_E820_RESERVED or LINUX_E820_ACPI */
};

/**
 * Linux's e820 table (@out, at most @max entries, *@count) from the RAM
 * ranges of the host's map (@ram, @n; hostile: sorted and disjoint is
 * checked again) and the loader's holes (@holes, @nholes, sorted by
 * base, disjoint, each inside one RAM range). RAM is the host's RAM
 * minus every hole; each hole is an entry of its own type; entries are
 * sorted, disjoint, and adjacent RAM is merged. NULL, or why the map
 * cannot hold the layout.
 */
const char *linux_e820_build(const struct mem_range *ram, unsigned n,
			     const struct linux_hole *holes, unsigned nholes,
			     struct linux_e820_entry *out, unsigned max,
			     unsigned *count);

/** [@base, @base + @size) lies in one RAM entry of @e (@n entries). */
bool linux_e820_is_ram(const struct linux_e820_entry *e, unsigned n,
		       uint64_t base, uint64_t size);

/**
 * The measured Linux layout of @p against the SVSM region and itself:
 * every loader page page-aligned inside the loader's pages, those, the
 * ACPI region, kernel (its extent, linux_kernel_extent) and initrd below
 * 4 GiB, disjoint and outside the SVSM region, the page tables in the
 * loader's pages; the entry at the kernel + 0x200 (the decompressor),
 * or with CSVSM_LINUX_ENTRY_STARTUP_64 inside the loaded kernel, which
 * is 2 MiB aligned and within its span. NULL or what is wrong.
 */
const char *linux_layout_check(const struct csvsm_boot_params *p);

/**
 * The bytes from linux_kernel_gpa the layout gives the kernel: the
 * loaded bytes (the decompressor's init_size comes from the header), or
 * the kernel proper's span (CSVSM_LINUX_ENTRY_STARTUP_64).
 */
uint64_t linux_kernel_extent(const struct csvsm_boot_params *p);

/**
 * Whether the loader page @gpa is one Linux takes as RAM, as boot loaders
 * place it (GRUB, QEMU's direct boot): the zero page and the command
 * line (Linux copies both before it allocates memory) and the setup_data
 * page (Linux reserves every setup_data node itself, and before v6.15
 * maps a setup_data node outside RAM shared: reading it takes a #VC that
 * KVM refuses as MMIO to guest RAM). The other loader pages (the GDT,
 * the header copy, the secrets page, CPUID page, Calling Area and page
 * tables) stay e820-reserved. For a layout linux_layout_check() passed.
 */
bool linux_loader_page_is_ram(const struct csvsm_boot_params *p, uint64_t gpa);

/* Three RAM pages cut the loader's region into at most four runs. */
#define LINUX_LOADER_HOLES_MAX 4u

/**
 * The loader's reserved pages as holes into @out (room for
 * LINUX_LOADER_HOLES_MAX), sorted, each a maximal run: their number.
 * For a layout linux_layout_check() passed.
 */
unsigned linux_loader_holes(const struct csvsm_boot_params *p,
			    struct linux_hole *out);

/**
 * The kernel's setup header (@setup_hdr, the measured copy, 4 KiB)
 * against the layout in @p: a usable header (bzimage_parse), the kernel
 * at its alignment (at pref_address if not relocatable), the command
 * line within cmdline_size, the initrd below initrd_addr_max. NULL or
 * the refusal, for a log line.
 */
const char *linux_kernel_check(const struct csvsm_boot_params *p,
			       const uint8_t *setup_hdr, struct bzimage_hdr *h);

struct snp_cpuid_table;
/**
 * Whether Linux's decompressor will want 5-level paging: the guest's
 * CPUID page (@t, PSP-checked) reports LA57 (leaf 7 ECX[16]) and the
 * command line (@cmdline, @len bytes, NUL-terminated or not) has no
 * "no5lvl" word. The entry must then already be in 5-level paging.
 */
bool linux_wants_la57(const struct snp_cpuid_table *t, const uint8_t *cmdline,
		      size_t len);

struct linux_zero_page_in {
	const uint8_t *setup_hdr; /* the measured copy, 4 KiB */
	const struct bzimage_hdr *hdr;
	uint64_t cmdline_gpa;
	uint64_t initrd_gpa, initrd_size;
	uint64_t setup_data_gpa;
	uint64_t acpi_rsdp; /* 0: none */
	const struct linux_e820_entry *e820;
	unsigned e820_count; /* at most LINUX_E820_MAX */
};

/**
 * boot_params (@bp, 4 KiB) as boot.rst's 64-bit protocol has a loader
 * build it: zeroed, the setup header copied, type_of_loader 0xFF,
 * LOADED_HIGH, no heap, the command line, initrd (with the ext_ high
 * halves), setup_data list, ACPI RSDP and e820 table.
 */
void linux_zero_page_build(uint8_t *bp, const struct linux_zero_page_in *in);

/**
 * The setup_data page (@page, 4 KiB, at @page_gpa below 4 GiB): one
 * SETUP_CC_BLOB node whose data is the address of the CC blob after it,
 * which names the secrets page and the CPUID page.
 */
void linux_setup_data_build(uint8_t *page, uint64_t page_gpa,
			    uint64_t secrets_gpa, uint64_t cpuid_gpa);

/**
 * Chain the TCG log node after the SETUP_CC_BLOB node in the setup_data
 * page (@page from linux_setup_data_build, at @page_gpa): the node at
 * LINUX_SETUP_LOG_OFFSET, type LINUX_SETUP_CSVSM_TCG_LOG, its data the
 * @log_len bytes (at most LINUX_SETUP_LOG_MAX) already written after it.
 */
void linux_setup_data_chain_log(uint8_t *page, uint64_t page_gpa,
				uint32_t log_len);

/**
 * Measured boot (linux_measure.c, docs/vtpm.md): with the vTPM serving,
 * extend PCR 9 with the kernel's loaded bytes (the bzImage's protected-
 * mode part, or the kernel proper with CSVSM_LINUX_ENTRY_STARTUP_64)
 * and the initrd, PCR 8 with the command
 * line, GRUB's way, and write the TCG2 log to @log (@cap bytes). Returns
 * the log's length, 0 if there is no vTPM (nothing measured). A command
 * line too long for the log is refused (TERM_CSVSM_BAD_BOOT_INFO); a vTPM
 * that fails its own extend is a broken invariant (panic): the guest
 * never runs unmeasured.
 */
size_t snp_linux_measure(const struct csvsm_boot_params *p, uint8_t *log,
			 size_t cap);

/**
 * After svsm_init(): load Linux as @p says on the host's RAM (@ram, @n):
 * check the kernel's header, build the e820 table, validate every e820
 * RAM page and the ACPI region, load ACPI, measure the kernel, initrd and
 * command line (snp_linux_measure), write setup_data (the CC blob, the
 * event log) and the zero page, grant it all to the guest's VMPL; switch
 * the boot VMSA (@boot_vmsa, not yet running) to 5-level paging if Linux
 * will want it (linux_wants_la57). A hypervisor lie terminates
 * (TERM_CSVSM_LINUX_MEMORY_MAP), a kernel that cannot run refuses with
 * its reason (TERM_CSVSM_BAD_BOOT_INFO).
 */
void snp_linux_load(const struct csvsm_boot_params *p,
		    const struct mem_range *ram, unsigned n, gpa_t boot_vmsa);

#endif /* SNP_LINUX_BOOT_H */
