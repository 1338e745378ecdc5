/* SPDX-License-Identifier: MIT */
/*
 * csvsm-igvm --linux: where a bzImage, its initrd and command line go in
 * the image (linux_image.h). The bzImage is read strictly
 * (src/lib/bzimage.c, the parser the firmware runs again on the copy);
 * every refusal says what is wrong in words a user can act on.
 */
#include "linux_image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/linux_boot.h"
#include "abi/snp.h"

#include "../common/file_io.h"

#define PAGE SNP_PAGE_SIZE
#define MAX_FILE (512u << 20)
#define SPAN_2M 0x200000ull
#define GIB4 0x100000000ull
/* Linux runs at VMPL1 under an SVSM from v6.11 (docs/linux.md). */
#define SVSM_MAJOR 6u
#define SVSM_MINOR 11u

static char why_buf[160];

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* The GDT of boot.rst's 64-bit protocol: __BOOT_CS (0x10) a 64-bit code
 * segment, __BOOT_DS (0x18) a flat data segment. */
static void build_gdt(uint8_t *gdt)
{
	static const uint64_t code64 = 0x00AF9B000000FFFFull;
	static const uint64_t data = 0x00CF93000000FFFFull;

	memset(gdt, 0, PAGE);
	memcpy(gdt + LINUX_BOOT_CS, &code64, sizeof(code64));
	memcpy(gdt + LINUX_BOOT_DS, &data, sizeof(data));
}

static const char *check_release(const uint8_t *bz, size_t bz_len,
				 struct linux_image *li)
{
	const char *why =
		bzimage_release(bz, bz_len, &li->hdr, &li->major, &li->minor);

	if (why != NULL) {
		(void)snprintf(why_buf, sizeof(why_buf),
			       "%s: cannot tell whether it runs under an SVSM "
			       "(v6.11 or later)",
			       why);
		return why_buf;
	}
	if (li->major < SVSM_MAJOR ||
	    (li->major == SVSM_MAJOR && li->minor < SVSM_MINOR)) {
		(void)snprintf(why_buf, sizeof(why_buf),
			       "Linux %u.%u is older than 6.11: it cannot run "
			       "at VMPL1 under an SVSM",
			       li->major, li->minor);
		return why_buf;
	}
	return NULL;
}

bool linux_entry_parse(const char *name, unsigned *entry)
{
	if (strcmp(name, "decompressor") == 0) {
		*entry = CSVSM_LINUX_ENTRY_DECOMPRESSOR;
		return true;
	}
	if (strcmp(name, "startup_64") == 0) {
		*entry = CSVSM_LINUX_ENTRY_STARTUP_64;
		return true;
	}
	return false;
}

void linux_image_release(struct linux_image *li)
{
	vmlinux_image_free(&li->vmlinux);
	li->kernel = NULL;
	li->kernel_len = 0;
}

/*
 * The kernel proper, decompressed and loaded (vmlinux.h), in place of
 * the protected-mode part: startup_64 needs its load offset from
 * p_paddr a multiple of 2 MiB (head64.c), which a 2 MiB aligned load
 * address and a 2 MiB aligned first segment give.
 */
static const char *load_vmlinux(const uint8_t *bz, size_t bz_len,
				struct linux_image *li)
{
	const char *why = vmlinux_load(bz, bz_len, &li->hdr, &li->vmlinux);

	if (why != NULL) {
		(void)snprintf(why_buf, sizeof(why_buf),
			       "--linux-entry startup_64: %s", why);
		return why_buf;
	}
	li->kernel = li->vmlinux.bytes;
	li->kernel_len = li->vmlinux.len;
	return NULL;
}

const char *linux_image_prepare(const uint8_t *bz, size_t bz_len,
				size_t initrd_len, const char *cmdline,
				uint64_t svsm_base, uint64_t svsm_end,
				unsigned cbit, unsigned entry,
				struct linux_image *li,
				struct csvsm_boot_params *params)
{
	const struct bzimage_hdr *h = &li->hdr;
	size_t cmd_len = strlen(cmdline);
	uint64_t load, init_end, initrd = 0, limit, span;
	const char *why;

	memset(&li->vmlinux, 0, sizeof(li->vmlinux));
	if (entry != CSVSM_LINUX_ENTRY_DECOMPRESSOR &&
	    entry != CSVSM_LINUX_ENTRY_STARTUP_64) {
		return "an unknown Linux entry";
	}
	why = bzimage_parse(bz, bz_len, &li->hdr);
	if (why != NULL) {
		return why;
	}
	why = check_release(bz, bz_len, li);
	if (why != NULL) {
		return why;
	}
	if (bz_len <= h->setup_size) {
		return "no protected-mode kernel after the setup sectors";
	}
	li->kernel = bz + h->setup_size;
	li->kernel_len = bz_len - h->setup_size;
	if ((uint64_t)h->syssize * 16 > li->kernel_len + 15) {
		return "truncated: syssize says the kernel is longer than the "
		       "file";
	}
	if (entry == CSVSM_LINUX_ENTRY_STARTUP_64) {
		why = load_vmlinux(bz, bz_len, li);
		if (why != NULL) {
			return why;
		}
	}
	/* The memory the kernel occupies from its load address: init_size
	 * for the decompressor, at least the segments' span for the
	 * kernel proper. */
	span = h->init_size;
	if (li->vmlinux.span > span) {
		span = li->vmlinux.span;
	}
	if (cmd_len > h->cmdline_size || cmd_len >= PAGE) {
		(void)snprintf(why_buf, sizeof(why_buf),
			       "the command line (%zu bytes) is longer than "
			       "the kernel takes (cmdline_size %u)",
			       cmd_len, h->cmdline_size);
		return why_buf;
	}
	/* Never below pref_address: a relocatable kernel still
	 * decompresses there if loaded lower (LOAD_PHYSICAL_ADDR). */
	load = h->pref_address;
	if (load < svsm_end && svsm_base < load + span) {
		if (h->relocatable == 0) {
			return "not relocatable, and its preferred address "
			       "is inside the SVSM region";
		}
		load = align_up(svsm_end, h->kernel_alignment);
	}
	if (load < LINUX_ACPI_GPA + LINUX_ACPI_SIZE) {
		return "its preferred address is inside the ACPI region "
		       "below 1.25 MiB";
	}
	if (entry == CSVSM_LINUX_ENTRY_STARTUP_64 &&
	    (load % SPAN_2M != 0 ||
	     (h->relocatable == 0 && load != li->vmlinux.base))) {
		return "--linux-entry startup_64: the load address is not 2 "
		       "MiB "
		       "aligned, or not the segments' own though the kernel "
		       "is not relocatable";
	}
	init_end = align_up(load + span, PAGE);
	if (load + li->kernel_len > init_end) {
		init_end = align_up(load + li->kernel_len, PAGE);
	}
	limit = LINUX_LAYOUT_LIMIT;
	if (initrd_len != 0) {
		initrd = align_up(init_end, SPAN_2M);
		if (h->initrd_addr_max < limit) {
			limit = (uint64_t)h->initrd_addr_max + 1;
		}
		if (initrd + initrd_len > limit) {
			return "the kernel and initrd are too large for the "
			       "layout (they must end below 2 GiB and the "
			       "kernel's initrd_addr_max)";
		}
	}
	if (init_end > LINUX_LAYOUT_LIMIT) {
		return "the kernel is too large for the layout (init_size "
		       "must end below 2 GiB)";
	}
	memset(li->setup_hdr, 0, sizeof(li->setup_hdr));
	memcpy(li->setup_hdr + LINUX_BP_HDR, bz + LINUX_BP_HDR,
	       h->hdr_end - LINUX_BP_HDR);
	memset(li->cmdline, 0, sizeof(li->cmdline));
	memcpy(li->cmdline, cmdline, cmd_len);
	build_gdt(li->gdt);
	if (!identity_pt_build(&li->pt, LINUX_LOADER_GPA + LINUX_P_PT * PAGE, 0,
			       GIB4, cbit) ||
	    li->pt.used != LINUX_PT_PAGES) {
		return "page tables";
	}
#define AT(p) (LINUX_LOADER_GPA + (uint64_t)(p)*PAGE)
	params->guest_entry_mode = CSVSM_GUEST_ENTRY_LINUX;
	params->guest_entry_rip = load + LINUX_ENTRY64_OFFSET;
	if (entry == CSVSM_LINUX_ENTRY_STARTUP_64) {
		params->linux_entry = CSVSM_LINUX_ENTRY_STARTUP_64;
		params->linux_kernel_span = li->vmlinux.span;
		params->guest_entry_rip = load + li->vmlinux.entry;
	}
	params->guest_cr3 = AT(LINUX_P_PT) | (1ull << cbit);
	params->guest_secrets_gpa = AT(LINUX_P_SECRETS);
	params->guest_cpuid_gpa = AT(LINUX_P_CPUID);
	params->guest_caa_gpa = AT(LINUX_P_CAA);
	params->guest_firmware_base = 0;
	params->guest_firmware_size = 0;
	params->linux_setup_hdr_gpa = AT(LINUX_P_SETUP_HDR);
	params->linux_kernel_gpa = load;
	params->linux_kernel_size = li->kernel_len;
	params->linux_initrd_gpa = initrd;
	params->linux_initrd_size = initrd_len;
	params->linux_cmdline_gpa = AT(LINUX_P_CMDLINE);
	params->linux_cmdline_size = cmd_len + 1;
	params->linux_zero_page_gpa = AT(LINUX_P_ZERO_PAGE);
	params->linux_setup_data_gpa = AT(LINUX_P_SETUP_DATA);
	params->linux_gdt_gpa = AT(LINUX_P_GDT);
	params->linux_loader_gpa = AT(0);
	params->linux_loader_size = LINUX_LOADER_PAGES * PAGE;
	params->linux_pml5_gpa = AT(LINUX_P_PML5);
	params->linux_acpi_gpa = LINUX_ACPI_GPA;
	params->linux_acpi_size = LINUX_ACPI_SIZE;
#undef AT
	return NULL;
}

/* @len bytes of @data as pages from @gpa, the last one zero-padded. */
static void add_bytes(struct igvm_builder *b, uint64_t gpa, const uint8_t *data,
		      size_t len, uint32_t *zero_rel, int *have_zero)
{
	static uint8_t pg[PAGE];
	size_t off;

	for (off = 0; off < len; off += PAGE) {
		size_t n = len - off < PAGE ? len - off : PAGE;

		memset(pg, 0, sizeof(pg));
		memcpy(pg, data + off, n);
		igvm_add_page(b, gpa + off, pg, IGVM_PAGE_DATA_NORMAL, zero_rel,
			      have_zero);
	}
}

void linux_image_add(struct igvm_builder *b, const struct linux_image *li,
		     const uint8_t *initrd, size_t initrd_len,
		     const struct csvsm_boot_params *params, uint32_t *zero_rel,
		     int *have_zero)
{
	unsigned i;

	add_bytes(b, params->linux_kernel_gpa, li->kernel, li->kernel_len,
		  zero_rel, have_zero);
	if (initrd_len != 0) {
		add_bytes(b, params->linux_initrd_gpa, initrd, initrd_len,
			  zero_rel, have_zero);
	}
	/* Written by the SVSM at boot: zero pages here. */
	igvm_add_page(b, params->linux_zero_page_gpa, NULL,
		      IGVM_PAGE_DATA_NORMAL, NULL, NULL);
	igvm_add_page(b, params->linux_setup_data_gpa, NULL,
		      IGVM_PAGE_DATA_NORMAL, NULL, NULL);
	igvm_add_page(b, params->linux_cmdline_gpa, li->cmdline,
		      IGVM_PAGE_DATA_NORMAL, zero_rel, have_zero);
	igvm_add_page(b, params->linux_gdt_gpa, li->gdt, IGVM_PAGE_DATA_NORMAL,
		      zero_rel, have_zero);
	igvm_add_page(b, params->linux_setup_hdr_gpa, li->setup_hdr,
		      IGVM_PAGE_DATA_NORMAL, zero_rel, have_zero);
	igvm_add_page(b, params->guest_secrets_gpa, NULL, IGVM_PAGE_DATA_NORMAL,
		      NULL, NULL);
	igvm_add_page(b, params->guest_cpuid_gpa, NULL, IGVM_PAGE_DATA_CPUID,
		      NULL, NULL);
	igvm_add_page(b, params->guest_caa_gpa, NULL, IGVM_PAGE_DATA_NORMAL,
		      NULL, NULL);
	{
		/* PML5[0]: the PML4, present, writable, private. */
		static uint8_t pml5[PAGE];
		uint64_t e = params->guest_cr3 | 0x3;

		memset(pml5, 0, sizeof(pml5));
		memcpy(pml5, &e, sizeof(e));
		igvm_add_page(b, params->linux_pml5_gpa, pml5,
			      IGVM_PAGE_DATA_NORMAL, zero_rel, have_zero);
	}
	for (i = 0; i < li->pt.used; i++) {
		igvm_add_page(b, li->pt.gpa + i * PAGE,
			      (const uint8_t *)li->pt.pages[i],
			      IGVM_PAGE_DATA_NORMAL, zero_rel, have_zero);
	}
}

const char *linux_initrd_check(const uint8_t *buf, size_t len)
{
	static const struct {
		const char *magic;
		size_t len;
	} known[] = {
		{"070701", 6},
		{"070702", 6},
		{"\x1f\x8b", 2},
		{"\x1f\x9e", 2}, /* gzip */
		{"BZh", 3},
		{"\xfd"
		 "7zXZ",
		 5},
		{"\x5d\x00\x00", 3},	 /* lzma */
		{"\x02\x21\x4c\x18", 4}, /* lz4 legacy */
		{"\x28\xb5\x2f\xfd", 4}, /* zstd */
	};
	size_t i;

	if (len == 0) {
		return "empty";
	}
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (len >= known[i].len &&
		    memcmp(buf, known[i].magic, known[i].len) == 0) {
			return NULL;
		}
	}
	return "neither a cpio archive nor a compressed one Linux unpacks "
	       "(gzip, bzip2, xz, lzma, lz4, zstd)";
}

/*
 * --linux: the bzImage, initrd and command line (linux_image.c), refused
 * with a message naming the file and the reason.
 */
bool linux_image_build(struct igvm_builder *b, const struct linux_args *a,
		       unsigned cbit, uint64_t svsm_base, uint64_t svsm_end,
		       struct csvsm_boot_params *params, uint32_t *zero_rel,
		       int *have_zero)
{
	static struct linux_image li;
	size_t bz_len = 0, initrd_len = 0;
	uint8_t *bz = tool_read_file(a->bz, MAX_FILE, &bz_len);
	uint8_t *initrd = NULL;
	const char *why;

	if (bz == NULL) {
		fprintf(stderr, "csvsm-igvm: cannot read the kernel %s\n",
			a->bz);
		return false;
	}
	if (a->initrd != NULL) {
		initrd = tool_read_file(a->initrd, MAX_FILE, &initrd_len);
		if (initrd == NULL) {
			fprintf(stderr,
				"csvsm-igvm: cannot read the initrd %s\n",
				a->initrd);
			free(bz);
			return false;
		}
		why = linux_initrd_check(initrd, initrd_len);
		if (why != NULL) {
			fprintf(stderr, "csvsm-igvm: initrd %s: %s\n",
				a->initrd, why);
			free(bz);
			free(initrd);
			return false;
		}
	}
	why = linux_image_prepare(
		bz, bz_len, initrd_len, a->cmdline != NULL ? a->cmdline : "",
		svsm_base, svsm_end, cbit, a->entry, &li, params);
	if (why != NULL) {
		fprintf(stderr, "csvsm-igvm: kernel %s: %s\n", a->bz, why);
		linux_image_release(&li);
		free(bz);
		free(initrd);
		return false;
	}
	linux_image_add(b, &li, initrd, initrd_len, params, zero_rel,
			have_zero);
	linux_image_release(&li);
	free(bz);
	free(initrd);
	return true;
}

void linux_image_describe(const struct csvsm_boot_params *params)
{
	printf("; Linux 0x%llx+0x%llx entry 0x%llx, initrd "
	       "0x%llx+0x%llx, loader pages 0x%llx+0x%llx, ACPI "
	       "0x%llx+0x%llx",
	       (unsigned long long)params->linux_kernel_gpa,
	       (unsigned long long)params->linux_kernel_size,
	       (unsigned long long)params->guest_entry_rip,
	       (unsigned long long)params->linux_initrd_gpa,
	       (unsigned long long)params->linux_initrd_size,
	       (unsigned long long)params->linux_loader_gpa,
	       (unsigned long long)params->linux_loader_size,
	       (unsigned long long)params->linux_acpi_gpa,
	       (unsigned long long)params->linux_acpi_size);
	if (params->linux_entry == CSVSM_LINUX_ENTRY_STARTUP_64) {
		printf(" (startup_64: the kernel proper, span 0x%llx)",
		       (unsigned long long)params->linux_kernel_span);
	}
}
