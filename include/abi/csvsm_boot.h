/* SPDX-License-Identifier: MIT */
/*
 * csvsm's own boot parameter page in an IGVM image (tools/igvm): where the
 * loader put the SVSM's pages and where the guest (OVMF) wants its
 * secrets page, CPUID page and Calling Area. It is page data, so it is
 * part of the launch measurement: the SVSM may trust it, unlike the
 * loader-written memory map (an unmeasured parameter area).
 */
#ifndef ABI_CSVSM_BOOT_H
#define ABI_CSVSM_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "abi/igvm.h"

#define CSVSM_BOOT_MAGIC 0x4D565343u /* "CSVM" */
#define CSVSM_BOOT_VERSION 3u

struct csvsm_boot_params {
	uint32_t magic;
	uint32_t version;
	uint64_t svsm_base, svsm_size; /* the SVSM region */
	uint64_t psp_secrets_gpa;      /* the PSP's, VMPL0 only */
	uint64_t svsm_cpuid_gpa;       /* the SVSM's CPUID page */
	uint64_t memory_map_gpa;       /* the loader's map (unmeasured) */
	uint64_t vp_count_gpa;	       /* the loader's VP count (unmeasured) */
	uint64_t svsm_shared_gpa;      /* CSVSM_SHARED_PAGES, made shared */
	uint64_t svsm_heap_gpa;	       /* heap from here to the region's end */
	uint64_t svsm_entry_rip;       /* where the SVSM's CPUs start */
	uint64_t guest_secrets_gpa;    /* 0: none (no firmware) */
	uint64_t guest_cpuid_gpa;      /* 0: none */
	uint64_t guest_caa_gpa;	       /* 0: the firmware names none */
	uint64_t guest_firmware_base, guest_firmware_size; /* OVMF */
	uint64_t guest_entry_rip;    /* OVMF: 0xFFF0 with CS base 0xFFFF0000 */
	uint64_t guest_sev_features; /* of the guest's VMSAs */
	uint32_t guest_vmpl;
	uint32_t guest_entry_mode; /* CSVSM_GUEST_ENTRY_* */
	uint64_t guest_cr3;	   /* KERNEL, LINUX: its tables */
	/* CSVSM_GUEST_ENTRY_LINUX (docs/linux.md): the measured inputs,
	 * and the pages the SVSM writes before the guest's first
	 * instruction. Sizes in bytes; all below 4 GiB. */
	uint64_t linux_setup_hdr_gpa; /* the setup header, at its offsets */
	uint64_t linux_kernel_gpa;    /* the protected-mode part, loaded;
				       * STARTUP_64: vmlinux's segments */
	uint64_t linux_kernel_size;   /* as in the file (init_size: more) */
	uint64_t linux_initrd_gpa, linux_initrd_size;	/* size 0: none */
	uint64_t linux_cmdline_gpa, linux_cmdline_size; /* with its NUL */
	uint64_t linux_zero_page_gpa;  /* boot_params: the SVSM builds it */
	uint64_t linux_setup_data_gpa; /* SETUP_CC_BLOB node and CC blob */
	uint64_t linux_gdt_gpa;	       /* __BOOT_CS 0x10, __BOOT_DS 0x18 */
	/* The loader's pages (all of the above but kernel and initrd, and
	 * the guest's secrets page, CPUID page, CA and page tables): e820
	 * reserved. */
	uint64_t linux_loader_gpa, linux_loader_size;
	uint64_t linux_acpi_gpa, linux_acpi_size; /* e820 ACPI */
	/* A PML5 over guest_cr3's PML4: the entry is in 5-level paging
	 * when the guest's CPUID page has LA57 and the command line no
	 * "no5lvl" (else the decompressor switches modes in 32-bit code,
	 * where it cannot take a #VC). 0: always 4-level. */
	uint64_t linux_pml5_gpa;
	/* Which entry (CSVSM_LINUX_ENTRY_*). Appended in version 3: an
	 * image written before these fields has zeros here, which is the
	 * decompressor entry, and a firmware that predates them refuses a
	 * startup_64 image (its entry is not the kernel + 0x200). */
	uint32_t linux_entry;
	uint32_t linux_reserved; /* 0 */
	/* STARTUP_64: the bytes from linux_kernel_gpa the kernel occupies
	 * (its first segment's start to its last segment's memory end),
	 * all e820 RAM; linux_kernel_size of them are the loaded image.
	 * DECOMPRESSOR: 0. */
	uint64_t linux_kernel_span;
};
_Static_assert(sizeof(struct csvsm_boot_params) == 0x120, "boot params");
_Static_assert(offsetof(struct csvsm_boot_params, linux_entry) == 0x110,
	       "fields appended: version 3's offsets unchanged");

/*
 * How the guest starts. FIRMWARE: OVMF at its reset vector; the launched
 * range (guest_firmware_*) is its volume, whose SEV metadata names the
 * rest. KERNEL: a kernel without firmware, in 64-bit mode on its own
 * page tables (guest_cr3, in the launched range) at guest_entry_rip, with
 * RDI = its secrets page (whose SVSM fields give its Calling Area) and
 * RSI = the CPU count; the launched range is its image and tables.
 * LINUX: a bzImage the SVSM loads (docs/linux.md): it builds boot_params
 * at linux_zero_page_gpa, validates and grants every e820 RAM page, and
 * starts the kernel on the tables at guest_cr3 with RSI = boot_params
 * at guest_entry_rip: the bzImage's 64-bit entry (linux_kernel_gpa +
 * 0x200, its decompressor) or, with CSVSM_LINUX_ENTRY_STARTUP_64, the
 * kernel proper's startup_64 inside the image csvsm-igvm decompressed
 * and loaded from the bzImage's payload (vmlinux's PT_LOAD segments at
 * their p_paddr offsets from linux_kernel_gpa, gaps zero), as the EFI
 * stub enters it.
 */
#define CSVSM_GUEST_ENTRY_FIRMWARE 0u
#define CSVSM_GUEST_ENTRY_KERNEL 1u
#define CSVSM_GUEST_ENTRY_LINUX 2u

/* linux_entry: where Linux starts (docs/linux.md). */
#define CSVSM_LINUX_ENTRY_DECOMPRESSOR 0u
#define CSVSM_LINUX_ENTRY_STARTUP_64 1u

/* The boot CPU's GHCB, its #HV doorbell page, then the guest-request
 * pages: request, response, four pages of certificates (what Linux's
 * 16 KiB buffer holds). Each other CPU gets its own GHCB and doorbell
 * page from the heap. */
#define CSVSM_SHARED_PAGES 8u

/* The loader's memory map entries: struct igvm_memory_map_entry
 * (abi/igvm.h), written into a parameter area: unmeasured. */

#endif /* ABI_CSVSM_BOOT_H */
