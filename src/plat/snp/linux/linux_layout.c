/* SPDX-License-Identifier: MIT */
/*
 * The measured Linux layout (csvsm-igvm --linux) checked before the SVSM
 * acts on it: the boot parameters and the setup header copy are the
 * image author's, so trusted as content, but every GPA and size is
 * bounded before the loader writes, validates or grants anything, so a
 * broken image fails with its reason instead of writing where it should
 * not (the SVSM region above all).
 */
#include "svsm/check.h"
#include "svsm/le.h"
#include "svsm/std.h"

#include "abi/snp.h"

#include "../vc.h"
#include "linux_boot.h"

#define PAGE SNP_PAGE_SIZE
#define GIB4 0x100000000ull

static bool below_4g(uint64_t base, uint64_t size)
{
	return base < GIB4 && size <= GIB4 - base;
}

static bool overlaps(uint64_t a, uint64_t as, uint64_t b, uint64_t bs)
{
	return a < b + bs && b < a + as;
}

/* A loader page: page aligned, inside the loader's pages. */
static bool loader_page(const struct csvsm_boot_params *p, uint64_t gpa)
{
	return gpa % PAGE == 0 && gpa >= p->linux_loader_gpa &&
	       gpa - p->linux_loader_gpa < p->linux_loader_size;
}

uint64_t linux_kernel_extent(const struct csvsm_boot_params *p)
{
	return p->linux_entry == CSVSM_LINUX_ENTRY_STARTUP_64
		       ? p->linux_kernel_span
		       : p->linux_kernel_size;
}

/*
 * The entry the image names: the bzImage's 64-bit entry (its
 * decompressor), or the kernel proper's startup_64 inside the loaded
 * kernel's bytes (measured), the kernel 2 MiB aligned (startup_64 runs
 * wherever its load offset is a multiple of 2 MiB, head64.c) and its
 * span covering what was loaded.
 */
static const char *entry_check(const struct csvsm_boot_params *p)
{
	if (p->linux_reserved != 0) {
		return "Linux: reserved boot parameters are not zero";
	}
	switch (p->linux_entry) {
	case CSVSM_LINUX_ENTRY_DECOMPRESSOR:
		if (p->linux_kernel_span != 0 ||
		    p->guest_entry_rip !=
			    p->linux_kernel_gpa + LINUX_ENTRY64_OFFSET) {
			return "Linux: the entry is not the kernel's 64-bit "
			       "entry";
		}
		return NULL;
	case CSVSM_LINUX_ENTRY_STARTUP_64:
		if (p->linux_kernel_gpa % SNP_PAGE_SIZE_2M != 0 ||
		    p->linux_kernel_span % PAGE != 0 ||
		    p->linux_kernel_span < p->linux_kernel_size ||
		    !below_4g(p->linux_kernel_gpa, p->linux_kernel_span)) {
			return "Linux: the kernel proper is not 2 MiB aligned "
			       "or its span does not cover it below 4 GiB";
		}
		if (p->guest_entry_rip < p->linux_kernel_gpa ||
		    p->guest_entry_rip - p->linux_kernel_gpa >=
			    p->linux_kernel_size) {
			return "Linux: the entry is not inside the loaded "
			       "kernel";
		}
		return NULL;
	default:
		return "Linux: an unknown Linux entry";
	}
}

const char *linux_layout_check(const struct csvsm_boot_params *p)
{
	const uint64_t sb = p->svsm_base, ss = p->svsm_size;
	const uint64_t pages[] = {
		p->linux_setup_hdr_gpa,	   p->linux_cmdline_gpa,
		p->linux_zero_page_gpa,	   p->linux_setup_data_gpa,
		p->linux_gdt_gpa,	   p->guest_secrets_gpa,
		p->guest_cpuid_gpa,	   p->guest_caa_gpa,
		p->guest_cr3 & (GIB4 - 1), p->linux_pml5_gpa,
	};
	/* The PML5 is optional: 0 leaves it out. */
	const unsigned count = ARRAY_SIZE(pages) - (p->linux_pml5_gpa == 0);
	const char *why;
	unsigned i, j;

	if (p->linux_loader_size == 0 || p->linux_loader_gpa % PAGE != 0 ||
	    p->linux_loader_size % PAGE != 0 ||
	    !below_4g(p->linux_loader_gpa, p->linux_loader_size) ||
	    p->linux_acpi_size == 0 || p->linux_acpi_gpa % PAGE != 0 ||
	    p->linux_acpi_size % PAGE != 0 ||
	    !below_4g(p->linux_acpi_gpa, p->linux_acpi_size)) {
		return "Linux: the loader's pages or ACPI region are not whole "
		       "pages below 4 GiB";
	}
	if (p->linux_kernel_size == 0 || p->linux_kernel_gpa % PAGE != 0 ||
	    !below_4g(p->linux_kernel_gpa, p->linux_kernel_size) ||
	    (p->linux_initrd_size != 0 &&
	     (p->linux_initrd_gpa % PAGE != 0 ||
	      !below_4g(p->linux_initrd_gpa, p->linux_initrd_size)))) {
		return "Linux: the kernel or initrd is not page aligned below "
		       "4 GiB";
	}
	why = entry_check(p);
	if (why != NULL) {
		return why;
	}
	if (p->guest_firmware_size != 0) {
		return "Linux: a firmware volume besides the kernel";
	}
	if (p->linux_cmdline_size == 0 || p->linux_cmdline_size > PAGE) {
		return "Linux: the command line is not within one page";
	}
	for (i = 0; i < count; i++) {
		if (!loader_page(p, pages[i])) {
			return "Linux: a loader page outside the loader's "
			       "pages";
		}
		for (j = 0; j < i; j++) {
			if (pages[i] == pages[j]) {
				return "Linux: two loader pages coincide";
			}
		}
	}
	/* The regions: disjoint, none in the SVSM region. */
	{
		const uint64_t r[4][2] = {
			{p->linux_loader_gpa, p->linux_loader_size},
			{p->linux_acpi_gpa, p->linux_acpi_size},
			{p->linux_kernel_gpa, linux_kernel_extent(p)},
			{p->linux_initrd_gpa, p->linux_initrd_size},
		};

		for (i = 0; i < 4; i++) {
			if (r[i][1] != 0 &&
			    overlaps(r[i][0], r[i][1], sb, ss)) {
				return "Linux: a region inside the SVSM region";
			}
			for (j = 0; j < i; j++) {
				if (r[i][1] != 0 && r[j][1] != 0 &&
				    overlaps(r[i][0], r[i][1], r[j][0],
					     r[j][1])) {
					return "Linux: two regions overlap";
				}
			}
		}
	}
	return NULL;
}

bool linux_loader_page_is_ram(const struct csvsm_boot_params *p, uint64_t gpa)
{
	return gpa == p->linux_zero_page_gpa ||
	       gpa == p->linux_setup_data_gpa || gpa == p->linux_cmdline_gpa;
}

unsigned linux_loader_holes(const struct csvsm_boot_params *p,
			    struct linux_hole *out)
{
	uint64_t gpa, end = p->linux_loader_gpa + p->linux_loader_size;
	unsigned n = 0;

	for (gpa = p->linux_loader_gpa; gpa < end; gpa += PAGE) {
		if (linux_loader_page_is_ram(p, gpa)) {
			continue;
		}
		if (n != 0 && out[n - 1].base + out[n - 1].size == gpa) {
			out[n - 1].size += PAGE;
			continue;
		}
		/* Three RAM pages cut the region into at most four runs. */
		CHECK(n < LINUX_LOADER_HOLES_MAX);
		out[n++] = (struct linux_hole){gpa, PAGE, LINUX_E820_RESERVED};
	}
	return n;
}

const char *linux_kernel_check(const struct csvsm_boot_params *p,
			       const uint8_t *setup_hdr, struct bzimage_hdr *h)
{
	const char *why = bzimage_parse(setup_hdr, PAGE, h);
	uint64_t init_end;

	if (why != NULL) {
		return why;
	}
	if (p->linux_kernel_gpa % h->kernel_alignment != 0) {
		return "the kernel is not at its kernel_alignment";
	}
	if (p->linux_kernel_gpa < h->pref_address ||
	    (h->relocatable == 0 && p->linux_kernel_gpa != h->pref_address)) {
		return "the kernel is below pref_address, or moved though "
		       "not relocatable";
	}
	init_end = p->linux_kernel_gpa + h->init_size;
	if (p->linux_initrd_size != 0 &&
	    (p->linux_initrd_gpa < init_end ||
	     p->linux_initrd_gpa + p->linux_initrd_size - 1 >
		     h->initrd_addr_max)) {
		return "the initrd is inside init_size or above "
		       "initrd_addr_max";
	}
	if (p->linux_cmdline_size > (uint64_t)h->cmdline_size + 1) {
		return "the command line is longer than cmdline_size";
	}
	return NULL;
}

#define CPUID_LEAF7_ECX_LA57 (1u << 16)

/* @word as a whole word of the command line (@s, @len bytes). */
static bool has_word(const uint8_t *s, size_t len, const char *word,
		     size_t wlen)
{
	size_t i;

	for (i = 0; i + wlen <= len && s[i] != 0; i++) {
		bool start = i == 0 || s[i - 1] == ' ';
		bool end = i + wlen == len || s[i + wlen] == ' ' ||
			   s[i + wlen] == 0;

		if (start && end && memcmp(s + i, word, wlen) == 0) {
			return true;
		}
	}
	return false;
}

bool linux_wants_la57(const struct snp_cpuid_table *t, const uint8_t *cmdline,
		      size_t len)
{
	struct cpuid_regs r;

	if (!snp_cpuid_table_ok(t) || !snp_cpuid_lookup(t, 7, 0, &r) ||
	    (r.ecx & CPUID_LEAF7_ECX_LA57) == 0) {
		return false;
	}
	return !has_word(cmdline, len, "no5lvl", 6);
}
