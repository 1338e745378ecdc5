/* SPDX-License-Identifier: MIT */
/*
 * csvsm-igvm: build, dump and measure IGVM images for SEV-SNP hosts
 * (QEMU 10+ with -object igvm-cfg).
 *   csvsm-igvm build --svsm ELF [--ovmf FILE | --kernel ELF |
 *                    --linux BZIMAGE [--initrd FILE] [--cmdline STRING]
 *                    [--linux-entry decompressor|startup_64]]
 *                    [--policy HEX] [--svsm-size BYTES] [--c-bit N] -o OUT
 *   csvsm-igvm dump FILE       every structure, page counts, measurement
 *   csvsm-igvm measure FILE [--vcpus N --vcpu-sig HEX]
 *                              the SEV-SNP launch digest (MEASUREMENT)
 *                              a QEMU+KVM host launching FILE with -smp N
 *                              and that CPU model computes (one vCPU:
 *                              the signature does not matter)
 *   csvsm-igvm pcrs IMAGE      the PCR 8 and 9 values it boots Linux to
 *                              (or --linux/--initrd/--cmdline files)
 *   csvsm-igvm copy IN OUT     parse and write again (round trip)
 * The image: the SVSM's ELF segments (build/snp/csvsm-snp.elf), then its
 * secrets page, CPUID page, a memory-map parameter page, csvsm's boot
 * parameters (abi/csvsm_boot.h), a VP-count parameter page and the boot
 * page tables (the SVSM region identity-
 * mapped with 2 MiB private pages: the C-bit is --c-bit, 51 on every
 * SNP part so far; the SVSM refuses to run if the CPUID page disagrees).
 * The boot CPU's VMPL0 VMSA (a VP_CONTEXT at 0xFFFFFFFFF000, as QEMU
 * requires) starts it in 64-bit mode on those tables at the ELF entry,
 * RSI = the boot parameters. OVMF, if given, ends at 4 GiB as the
 * reset vector requires, and its SEV metadata is honoured: its SEC memory
 * as zero pages (pre-validated), its CPUID page, and zero pages where it
 * wants its secrets page and Calling Area, which the SVSM fills.
 * --linux: a bzImage, initrd and command line as measured pages the
 * SVSM loads Linux from (linux_image.h, docs/linux.md); --linux-entry
 * startup_64 carries the kernel proper instead of the bzImage's
 * protected-mode part, decompressed here (vmlinux.h), and starts it at
 * startup_64 as the EFI stub does.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/ovmf.h"
#include "svsm/svsm_vmsa.h"

#include "abi/csvsm_boot.h"
#include "abi/snp.h"

#include "model/psp_launch.h"

#include "../common/file_io.h"
#include "../common/hex.h"
#include "elf_segments.h"
#include "fv_check.h"
#include "identity_pt.h"
#include "igvm.h"
#include "igvm_write.h"
#include "linux_image.h"
#include "page_set.h"
#include "pcrs.h"

#define DEFAULT_POLICY 0x30000ull /* SMT allowed, bit 17 (must be one) */
#define MAX_FILE (512u << 20)
#define GIB4 0x100000000ull
/* The SVSM region: its image, its pages, then heap it validates itself. */
#define DEFAULT_SVSM_SIZE (16ull << 20)
#define DEFAULT_C_BIT 51u
#define SPAN_2M 0x200000ull
#define SPAN_1G 0x40000000ull

/* The pages after the image, in this order. */
enum {
	L_SECRETS,
	L_CPUID,
	L_MEMORY_MAP,
	L_PARAMS,
	L_VP_COUNT,
	L_PML4,
	L_PDPT,
	L_PD,
	L_SHARED, /* CSVSM_SHARED_PAGES, then the heap */
};

/* 16 MiB, or up to the lowest OVMF section above the SVSM if that is
 * less (2 MiB pages): OVMF's pages are the guest's, never the SVSM's. */
static uint64_t default_svsm_size(uint64_t base, const uint8_t *fw, size_t len)
{
	uint64_t limit = base + DEFAULT_SVSM_SIZE;
	struct ovmf_info info;
	unsigned i;

	if (fw != NULL && ovmf_parse(fw, len, &info) == NULL) {
		for (i = 0; i < info.count; i++) {
			if (info.section[i].base > base &&
			    info.section[i].base < limit) {
				limit = info.section[i].base;
			}
		}
	}
	return (limit - base) & ~(uint64_t)(0x200000 - 1);
}

/* OVMF's SEV metadata: SEC memory, its secrets and CA pages and its
 * kernel hashes page as zero (private, pre-validated) pages, its CPUID
 * page host-filled. */
static bool add_ovmf_sections(struct igvm_builder *b, const uint8_t *fw,
			      size_t len, struct csvsm_boot_params *params,
			      uint64_t svsm_base, uint64_t svsm_end)
{
	struct ovmf_info info;
	const char *why = ovmf_parse(fw, len, &info);
	unsigned i;

	if (why != NULL) {
		fprintf(stderr, "csvsm-igvm: OVMF: %s\n", why);
		return false;
	}
	/* The SVSM Calling Area section (edk2 stable202405 and later) is
	 * how OVMF says it runs under an SVSM: one without it validates
	 * memory with PVALIDATE itself, which faults at VMPL1. */
	if (!info.has_caa) {
		fprintf(stderr,
			"csvsm-igvm: OVMF: no SVSM Calling Area section in its "
			"SEV metadata: this OVMF has no SVSM support (edk2 "
			"stable202405 or later is needed)\n");
		return false;
	}
	for (i = 0; i < info.count; i++) {
		const struct ovmf_section *s = &info.section[i];
		uint64_t s_end = s->base + (uint64_t)s->size;
		uint64_t off;

		if (s->base >= GIB4 - len) {
			fprintf(stderr, "csvsm-igvm: OVMF: a section inside "
					"the firmware volume\n");
			return false;
		}
		if (s->base < svsm_end && svsm_base < s_end) {
			fprintf(stderr,
				"csvsm-igvm: OVMF wants 0x%x-0x%llx, inside "
				"the "
				"SVSM region 0x%llx-0x%llx (--svsm-size)\n",
				s->base, (unsigned long long)s_end,
				(unsigned long long)svsm_base,
				(unsigned long long)svsm_end);
			return false;
		}
		/* No file data: zero pages, or the host's CPUID table. The
		 * kernel hashes page (OVMF 2026.08 has one) too is a zero page,
		 * as QEMU launches it without kernel-hashes=on: csvsm measures
		 * no fw_cfg kernel, the firmware does (docs/uefi.md). */
		for (off = 0; off < s->size; off += IGVM_PAGE) {
			igvm_add_page(b, s->base + off, NULL,
				      s->type == OVMF_SECTION_CPUID
					      ? IGVM_PAGE_DATA_CPUID
					      : IGVM_PAGE_DATA_NORMAL,
				      NULL, NULL);
		}
	}
	params->guest_secrets_gpa = info.has_secrets ? info.secrets_gpa : 0;
	params->guest_cpuid_gpa = info.has_cpuid ? info.cpuid_gpa : 0;
	params->guest_caa_gpa = info.has_caa ? info.caa_gpa : 0;
	params->guest_firmware_base = GIB4 - len;
	params->guest_firmware_size = len;
	params->guest_entry_rip = 0xFFF0; /* CS base 0xFFFF0000: 4G - 16 */
	return true;
}

/*
 * Every page of [@lo, @hi): the ELF's bytes where a segment has them,
 * zeros elsewhere (a gap is launched too: the SVSM grants a launched
 * range only if all of it was launched).
 */
static void add_elf_pages(struct igvm_builder *b, const struct elf_segment *seg,
			  unsigned nseg, uint64_t lo, uint64_t hi,
			  uint32_t *zero_rel, int *have_zero)
{
	static uint8_t pg[IGVM_PAGE];
	uint64_t gpa;
	unsigned i;

	for (gpa = lo; gpa < hi; gpa += IGVM_PAGE) {
		memset(pg, 0, sizeof(pg));
		for (i = 0; i < nseg; i++) {
			uint64_t s = seg[i].paddr, e = s + seg[i].filesz;
			uint64_t from = gpa > s ? gpa : s;
			uint64_t to = gpa + IGVM_PAGE < e ? gpa + IGVM_PAGE : e;

			if (from < to) {
				memcpy(pg + (from - gpa),
				       seg[i].data + (from - s), to - from);
			}
		}
		igvm_add_page(b, gpa, pg, IGVM_PAGE_DATA_NORMAL, zero_rel,
			      have_zero);
	}
}

/* The page-aligned span of @seg's memory images. */
static void elf_span(const struct elf_segment *seg, unsigned nseg, uint64_t *lo,
		     uint64_t *hi)
{
	unsigned i;

	*lo = ~0ull;
	*hi = 0;
	for (i = 0; i < nseg; i++) {
		if (seg[i].paddr < *lo) {
			*lo = seg[i].paddr;
		}
		if (seg[i].paddr + seg[i].memsz > *hi) {
			*hi = seg[i].paddr + seg[i].memsz;
		}
	}
	*lo &= ~(uint64_t)(IGVM_PAGE - 1);
	*hi = (*hi + IGVM_PAGE - 1) & ~(uint64_t)(IGVM_PAGE - 1);
}

/* After a kernel's image: its page tables (PML4, PDPT, four PDs: the low
 * 4 GiB identity-mapped with 2 MiB private pages), then its secrets page
 * and Calling Area (zero pages). */
#define KERNEL_PT_PAGES 6u

/*
 * --kernel: a 64-bit ELF the SVSM starts without firmware
 * (CSVSM_GUEST_ENTRY_KERNEL, abi/csvsm_boot.h), below 4 GiB and outside
 * the SVSM region. The launched range is its image and page tables.
 */
static bool add_kernel(struct igvm_builder *b, const char *path, unsigned cbit,
		       uint64_t svsm_base, uint64_t svsm_end,
		       struct csvsm_boot_params *params, uint32_t *zero_rel,
		       int *have_zero)
{
	struct elf_segment seg[16];
	unsigned nseg = 0, i;
	uint64_t entry = 0, lo = 0, hi = 0;
	size_t len = 0;
	uint8_t *img = tool_read_file(path, MAX_FILE, &len);
	static struct identity_pt pt;
	const char *why;

	if (img == NULL) {
		fprintf(stderr, "csvsm-igvm: cannot read %s\n", path);
		return false;
	}
	why = elf_segments(img, len, seg, 16, &nseg, &entry);
	if (why == NULL && nseg == 0) {
		why = "no loadable segments";
	}
	if (why == NULL) {
		elf_span(seg, nseg, &lo, &hi);
		if (hi + (KERNEL_PT_PAGES + 2) * IGVM_PAGE > GIB4 ||
		    (lo < svsm_end &&
		     svsm_base < hi + (KERNEL_PT_PAGES + 2) * IGVM_PAGE) ||
		    entry < lo || entry >= hi) {
			why = "not below 4 GiB outside the SVSM region, or its "
			      "entry outside its image";
		}
	}
	if (why != NULL) {
		fprintf(stderr, "csvsm-igvm: %s: %s\n", path, why);
		free(img);
		return false;
	}
	if (!identity_pt_build(&pt, hi, 0, GIB4, cbit) ||
	    pt.used != KERNEL_PT_PAGES) {
		fprintf(stderr, "csvsm-igvm: %s: page tables\n", path);
		free(img);
		return false;
	}
	add_elf_pages(b, seg, nseg, lo, hi, zero_rel, have_zero);
	for (i = 0; i < KERNEL_PT_PAGES; i++) {
		igvm_add_page(b, hi + i * IGVM_PAGE,
			      (const uint8_t *)pt.pages[i],
			      IGVM_PAGE_DATA_NORMAL, zero_rel, have_zero);
	}
	igvm_add_page(b, hi + KERNEL_PT_PAGES * IGVM_PAGE, NULL,
		      IGVM_PAGE_DATA_NORMAL, NULL, NULL);
	igvm_add_page(b, hi + (KERNEL_PT_PAGES + 1) * IGVM_PAGE, NULL,
		      IGVM_PAGE_DATA_NORMAL, NULL, NULL);
	params->guest_entry_mode = CSVSM_GUEST_ENTRY_KERNEL;
	params->guest_entry_rip = entry;
	params->guest_cr3 = hi | (1ull << cbit);
	params->guest_secrets_gpa = hi + KERNEL_PT_PAGES * IGVM_PAGE;
	params->guest_caa_gpa = hi + (KERNEL_PT_PAGES + 1) * IGVM_PAGE;
	params->guest_firmware_base = lo;
	params->guest_firmware_size = hi + KERNEL_PT_PAGES * IGVM_PAGE - lo;
	free(img);
	return true;
}

static int build(const char *svsm, const char *ovmf, const char *kernel,
		 const struct linux_args *linux_in, uint64_t policy,
		 uint64_t svsm_size, unsigned cbit, const char *out)
{
	struct elf_segment seg[16];
	unsigned nseg = 0, i;
	uint64_t entry = 0, start = 0, end = 0, gpa, svsm_last;
	size_t len = 0, olen = 0, size = 0;
	uint8_t *img = tool_read_file(svsm, MAX_FILE, &len);
	uint8_t *fw = NULL, *file;
	struct igvm_builder b;
	uint32_t zero_rel = 0;
	int have_zero = 0;
	const char *why;
	static struct snp_vmsa vmsa;
	struct csvsm_boot_params params;

	if (img == NULL) {
		fprintf(stderr, "csvsm-igvm: cannot read %s\n", svsm);
		return 2;
	}
	why = elf_segments(img, len, seg, 16, &nseg, &entry);
	if (why == NULL && nseg == 0) {
		why = "no loadable segments";
	}
	if (why != NULL) {
		fprintf(stderr, "csvsm-igvm: %s: %s\n", svsm, why);
		free(img);
		return 2;
	}
	if (ovmf != NULL) {
		fw = tool_read_file(ovmf, MAX_FILE, &olen);
		size_t at = 0;

		if (fw == NULL || olen == 0 || olen % IGVM_PAGE != 0 ||
		    olen > (16u << 20)) {
			fprintf(stderr,
				"csvsm-igvm: %s: not a firmware "
				"volume of whole pages\n",
				ovmf);
			return 2;
		}
		why = fv_check(fw, olen, &at);
		if (why != NULL) {
			fprintf(stderr, "csvsm-igvm: %s: at 0x%zx: %s\n", ovmf,
				at, why);
			free(fw);
			return 2;
		}
	}
	igvm_builder_init(&b);
	{
		struct igvm_supported_platform p = {
			.compatibility_mask = IGVM_SNP_MASK,
			.platform_type = IGVM_PLATFORM_SEV_SNP,
			.platform_version = 1,
		};
		struct igvm_guest_policy pol = {
			.policy = policy, .compatibility_mask = IGVM_SNP_MASK};
		struct igvm_parameter_area area = {.number_of_bytes = IGVM_PAGE,
						   .parameter_area_index = 0};
		struct igvm_parameter_area vp_area = {
			.number_of_bytes = IGVM_PAGE,
			.parameter_area_index = 1};
		struct igvm_parameter mm = {.parameter_area_index = 0};
		struct igvm_parameter vps = {.parameter_area_index = 1};

		igvm_add(&b, IGVM_VHT_SUPPORTED_PLATFORM, &p, sizeof(p), -1, 0);
		igvm_add(&b, IGVM_VHT_GUEST_POLICY, &pol, sizeof(pol), -1, 0);
		igvm_add(&b, IGVM_VHT_PARAMETER_AREA, &area, sizeof(area), -1,
			 0);
		igvm_add(&b, IGVM_VHT_PARAMETER_AREA, &vp_area, sizeof(vp_area),
			 -1, 0);
		igvm_add(&b, IGVM_VHT_MEMORY_MAP, &mm, sizeof(mm), -1, 0);
		igvm_add(&b, IGVM_VHT_VP_COUNT_PARAMETER, &vps, sizeof(vps), -1,
			 0);
	}
	elf_span(seg, nseg, &start, &end);
#define AT(l) (end + (uint64_t)(l)*IGVM_PAGE)
	/* The parameter pages before any page data: QEMU measures a
	 * PARAMETER_INSERT at once but page data a region at a time, so
	 * inserts first make file order the order the PSP sees
	 * (model/snp/psp_launch.c). */
	{
		struct igvm_parameter_insert ins = {.gpa = AT(L_MEMORY_MAP),
						    .compatibility_mask =
							    IGVM_SNP_MASK,
						    .parameter_area_index = 0};
		struct igvm_parameter_insert vps = {.gpa = AT(L_VP_COUNT),
						    .compatibility_mask =
							    IGVM_SNP_MASK,
						    .parameter_area_index = 1};

		igvm_add(&b, IGVM_VHT_PARAMETER_INSERT, &ins, sizeof(ins), -1,
			 0);
		igvm_add(&b, IGVM_VHT_PARAMETER_INSERT, &vps, sizeof(vps), -1,
			 0);
	}
	add_elf_pages(&b, seg, nseg, start, end, &zero_rel, &have_zero);
	igvm_add_page(&b, AT(L_SECRETS), NULL, IGVM_PAGE_DATA_SECRETS, NULL,
		      NULL);
	igvm_add_page(&b, AT(L_CPUID), NULL, IGVM_PAGE_DATA_CPUID, NULL, NULL);
	for (gpa = 0; gpa < olen; gpa += IGVM_PAGE) {
		igvm_add_page(&b, GIB4 - olen + gpa, fw + gpa,
			      IGVM_PAGE_DATA_NORMAL, &zero_rel, &have_zero);
	}
	memset(&params, 0, sizeof(params));
	if (svsm_size == 0) {
		svsm_size = default_svsm_size(start, fw, olen);
	}
	if ((fw != NULL && !add_ovmf_sections(&b, fw, olen, &params, start,
					      start + svsm_size)) ||
	    (kernel != NULL &&
	     !add_kernel(&b, kernel, cbit, start, start + svsm_size, &params,
			 &zero_rel, &have_zero)) ||
	    (linux_in->bz != NULL &&
	     !linux_image_build(&b, linux_in, cbit, start, start + svsm_size,
				&params, &zero_rel, &have_zero))) {
		free(img);
		free(fw);
		igvm_builder_free(&b);
		return 2;
	}
	{
		/* The whole SVSM region, heap included, must be backed:
		 * it lies above the guest's RAM (snp.ld), where a loader
		 * makes memory only for what the image asks. */
		struct igvm_required_memory req = {
			.gpa = start,
			.compatibility_mask = IGVM_SNP_MASK,
			.number_of_bytes = (uint32_t)svsm_size,
		};

		igvm_add(&b, IGVM_VHT_REQUIRED_MEMORY, &req, sizeof(req), -1,
			 0);
	}
	params.magic = CSVSM_BOOT_MAGIC;
	params.version = CSVSM_BOOT_VERSION;
	params.svsm_base = start;
	params.svsm_size = svsm_size;
	params.svsm_shared_gpa = AT(L_SHARED);
	params.svsm_entry_rip = entry;
	params.svsm_heap_gpa = AT(L_SHARED + CSVSM_SHARED_PAGES);
	if (start % SPAN_2M != 0 ||
	    start / SPAN_1G != (start + svsm_size - 1) / SPAN_1G) {
		fprintf(stderr,
			"csvsm-igvm: the SVSM region 0x%llx+0x%llx must start "
			"on 2 MiB and lie within one GiB\n",
			(unsigned long long)start,
			(unsigned long long)svsm_size);
		free(img);
		free(fw);
		igvm_builder_free(&b);
		return 2;
	}
	if (params.svsm_heap_gpa + 64 * IGVM_PAGE > start + svsm_size) {
		fprintf(stderr,
			"csvsm-igvm: --svsm-size 0x%llx leaves no heap "
			"after 0x%llx\n",
			(unsigned long long)svsm_size,
			(unsigned long long)params.svsm_heap_gpa);
		free(img);
		free(fw);
		igvm_builder_free(&b);
		return 2;
	}
	params.psp_secrets_gpa = AT(L_SECRETS);
	params.svsm_cpuid_gpa = AT(L_CPUID);
	params.memory_map_gpa = AT(L_MEMORY_MAP);
	params.vp_count_gpa = AT(L_VP_COUNT);
	params.guest_vmpl = 1;
	params.guest_sev_features = SEV_FEAT_SNP_ACTIVE;
	{
		static uint8_t pg[IGVM_PAGE];

		memset(pg, 0, sizeof(pg));
		memcpy(pg, &params, sizeof(params));
		igvm_add_page(&b, AT(L_PARAMS), pg, IGVM_PAGE_DATA_NORMAL,
			      &zero_rel, &have_zero);
	}
	{
		/* The boot CPU's page tables (PML4, PDPT, PD): the SVSM
		 * region identity-mapped with 2 MiB pages, writable and
		 * executable (the SVSM replaces them with W^X tables first
		 * thing), private. The region lies in one GiB (checked
		 * above), so three pages. */
		static struct identity_pt pt;

		if (!identity_pt_build(&pt, AT(L_PML4), start, svsm_size,
				       cbit) ||
		    pt.used != L_PD + 1 - L_PML4) {
			fprintf(stderr, "csvsm-igvm: boot page tables\n");
			free(img);
			free(fw);
			igvm_builder_free(&b);
			return 2;
		}
		for (i = 0; i < pt.used; i++) {
			igvm_add_page(&b, AT(L_PML4 + i),
				      (const uint8_t *)pt.pages[i],
				      IGVM_PAGE_DATA_NORMAL, &zero_rel,
				      &have_zero);
		}
	}
	{
		/* At the GPA KVM records every VMSA at, the only one QEMU
		 * takes (target/i386/sev.c, check_vmsa_supported()). */
		struct igvm_vp_context vp = {.gpa = IGVM_SNP_VMSA_GPA,
					     .compatibility_mask =
						     IGVM_SNP_MASK};
		struct svsm_vmsa_regs regs = {
			.rip = entry,
			.cr3 = AT(L_PML4) | (1ull << cbit),
			.rdi = 0, /* the boot CPU */
			.rsi = AT(L_PARAMS),
		};
		uint32_t rel;

		svsm_vmsa_init(&vmsa, &regs);
		rel = igvm_add_data(&b, &vmsa, sizeof(vmsa));
		igvm_add(&b, IGVM_VHT_VP_CONTEXT, &vp, sizeof(vp),
			 (int)offsetof(struct igvm_vp_context, file_offset),
			 rel);
	}
	file = igvm_finish(&b, &size);
	igvm_builder_free(&b);
	free(img);
	free(fw);
	if (file == NULL || tool_write_file(out, file, size) != 0) {
		fprintf(stderr, "csvsm-igvm: cannot write %s\n", out);
		free(file);
		return 2;
	}
	svsm_last = start + svsm_size;
	printf("csvsm-igvm: %s: %zu bytes; SVSM 0x%llx-0x%llx (secrets 0x%llx, "
	       "CPUID 0x%llx, memory map 0x%llx, boot parameters 0x%llx, "
	       "VP count 0x%llx, page tables 0x%llx, shared pages "
	       "0x%llx, heap 0x%llx), entry 0x%llx, C-bit %u",
	       out, size, (unsigned long long)start,
	       (unsigned long long)svsm_last, (unsigned long long)AT(L_SECRETS),
	       (unsigned long long)AT(L_CPUID),
	       (unsigned long long)AT(L_MEMORY_MAP),
	       (unsigned long long)AT(L_PARAMS),
	       (unsigned long long)AT(L_VP_COUNT),
	       (unsigned long long)AT(L_PML4), (unsigned long long)AT(L_SHARED),
	       (unsigned long long)params.svsm_heap_gpa,
	       (unsigned long long)entry, cbit);
#undef AT
	if (kernel != NULL) {
		printf("; kernel 0x%llx+0x%llx entry 0x%llx (page tables "
		       "0x%llx, secrets 0x%llx, CA 0x%llx)",
		       (unsigned long long)params.guest_firmware_base,
		       (unsigned long long)params.guest_firmware_size,
		       (unsigned long long)params.guest_entry_rip,
		       (unsigned long long)(params.guest_cr3 & 0xFFFFFFFFull),
		       (unsigned long long)params.guest_secrets_gpa,
		       (unsigned long long)params.guest_caa_gpa);
	}
	if (linux_in->bz != NULL) {
		linux_image_describe(&params);
	}
	if (ovmf != NULL) {
		printf("; OVMF 0x%llx-4G (secrets 0x%llx, CPUID 0x%llx, CA "
		       "0x%llx)",
		       (unsigned long long)params.guest_firmware_base,
		       (unsigned long long)params.guest_secrets_gpa,
		       (unsigned long long)params.guest_cpuid_gpa,
		       (unsigned long long)params.guest_caa_gpa);
	}
	printf("\n");
	free(file);
	return 0;
}

static void dump_item(const struct igvm_item *it)
{
	const char *name = igvm_type_name(it->type);

	printf("%-20s", name != NULL ? name : "UNKNOWN");
	switch (it->type) {
	case IGVM_VHT_SUPPORTED_PLATFORM: {
		struct igvm_supported_platform p;

		memcpy(&p, it->body, sizeof(p));
		printf(" mask 0x%x platform %u%s version %u highest_vtl %u "
		       "shared_gpa_boundary 0x%llx",
		       p.compatibility_mask, p.platform_type,
		       p.platform_type == IGVM_PLATFORM_SEV_SNP ? " (SEV-SNP)"
								: "",
		       p.platform_version, p.highest_vtl,
		       (unsigned long long)p.shared_gpa_boundary);
		break;
	}
	case IGVM_VHT_GUEST_POLICY: {
		struct igvm_guest_policy p;

		memcpy(&p, it->body, sizeof(p));
		printf(" mask 0x%x policy 0x%llx", p.compatibility_mask,
		       (unsigned long long)p.policy);
		break;
	}
	case IGVM_VHT_PAGE_DATA: {
		struct igvm_page_data p;
		static const char *const types[] = {"NORMAL", "SECRETS",
						    "CPUID", "CPUID_XF"};

		memcpy(&p, it->body, sizeof(p));
		printf(" gpa 0x%llx mask 0x%x %s flags 0x%x file_offset 0x%x",
		       (unsigned long long)p.gpa, p.compatibility_mask,
		       p.data_type < 4 ? types[p.data_type] : "?", p.flags,
		       p.file_offset);
		break;
	}
	case IGVM_VHT_PARAMETER_AREA: {
		struct igvm_parameter_area a;

		memcpy(&a, it->body, sizeof(a));
		printf(" index %u bytes 0x%llx file_offset 0x%x",
		       a.parameter_area_index,
		       (unsigned long long)a.number_of_bytes, a.file_offset);
		break;
	}
	case IGVM_VHT_PARAMETER_INSERT: {
		struct igvm_parameter_insert p;

		memcpy(&p, it->body, sizeof(p));
		printf(" gpa 0x%llx mask 0x%x index %u",
		       (unsigned long long)p.gpa, p.compatibility_mask,
		       p.parameter_area_index);
		break;
	}
	case IGVM_VHT_VP_CONTEXT: {
		struct igvm_vp_context v;

		memcpy(&v, it->body, sizeof(v));
		printf(" gpa 0x%llx mask 0x%x vp %u file_offset 0x%x",
		       (unsigned long long)v.gpa, v.compatibility_mask,
		       v.vp_index, v.file_offset);
		break;
	}
	case IGVM_VHT_REQUIRED_MEMORY: {
		struct igvm_required_memory r;

		memcpy(&r, it->body, sizeof(r));
		printf(" gpa 0x%llx mask 0x%x bytes 0x%x flags 0x%x",
		       (unsigned long long)r.gpa, r.compatibility_mask,
		       r.number_of_bytes, r.flags);
		break;
	}
	default:
		if (it->length >= sizeof(struct igvm_parameter)) {
			struct igvm_parameter p;

			memcpy(&p, it->body, sizeof(p));
			printf(" area %u offset 0x%x", p.parameter_area_index,
			       p.byte_offset);
		}
		break;
	}
	printf("\n");
}

static int open_file(const char *path, uint8_t **buf, struct igvm_file *f)
{
	size_t len = 0;
	const char *why;

	*buf = tool_read_file(path, MAX_FILE, &len);
	if (*buf == NULL) {
		fprintf(stderr, "csvsm-igvm: cannot read %s\n", path);
		return 2;
	}
	why = igvm_open(f, *buf, len);
	if (why != NULL) {
		fprintf(stderr, "csvsm-igvm: %s: %s\n", path, why);
		return 1;
	}
	return 0;
}

/* Measuring is the emulated PSP's launch with no machine behind it: any
 * GPA SNP can address is RAM, and only the RMP's memory of launched
 * pages is kept, so that a page launched twice is refused as the PSP
 * would refuse it. */
#define MEASURE_RAM_SIZE (1ull << 52)

static bool measure_rmp(void *ctx, uint64_t gpa, bool vmsa)
{
	/* Every VMSA is its own host page, all at one GPA. */
	return vmsa || page_set_add(ctx, gpa);
}

/* The host the digest is for: its vCPU count (QEMU's -smp; KVM measures
 * a VMSA for each) and its CPU model's signature (the APs' RDX). */
struct measure_host {
	uint32_t vcpus;
	uint32_t signature;
};

/* dump's: a guest of one vCPU. */
static const struct measure_host one_vcpu = {.vcpus = 1};

static const char *measure(const struct igvm_file *f,
			   const struct measure_host *h,
			   struct psp_launch_result *m)
{
	struct page_set set = {0};
	/* Any SEV feature: the digest is for a host that accepted them. */
	struct psp_launch_ops ops = {.ctx = &set,
				     .ram_size = MEASURE_RAM_SIZE,
				     .rmp_launch = measure_rmp,
				     .vp_count = h->vcpus,
				     .cpu_signature = h->signature,
				     .vmsa_features = ~0ull};
	const char *why = psp_launch_igvm(f->data, f->size, &ops, m);

	page_set_free(&set);
	return why;
}

static int dump(const char *path, const struct measure_host *h, int digest_only)
{
	static const char *const page_names[] = {
		"", "NORMAL", "VMSA", "ZERO", "UNMEASURED", "SECRETS", "CPUID"};
	struct igvm_file f;
	static struct psp_launch_result m;
	struct igvm_item it;
	uint32_t pos = 0, n = 0, i;
	const char *why = NULL;
	uint8_t *buf;
	int rc = open_file(path, &buf, &f);

	if (rc != 0) {
		free(buf);
		return rc;
	}
	if (!digest_only) {
		printf("IGVM format %u: variable header 0x%x + 0x%x, file 0x%x "
		       "bytes, checksum 0x%08x (ok)\n",
		       f.hdr.format_version, f.hdr.variable_header_offset,
		       f.hdr.variable_header_size, f.hdr.total_file_size,
		       f.hdr.checksum);
		while (igvm_next(&f, &pos, &it, &why)) {
			dump_item(&it);
			n++;
		}
		if (why != NULL) {
			fprintf(stderr, "csvsm-igvm: %s: structure %u: %s\n",
				path, n, why);
			free(buf);
			return 1;
		}
	}
	why = measure(&f, h, &m);
	if (why != NULL) {
		fprintf(stderr, "csvsm-igvm: %s: %s\n", path, why);
		free(buf);
		return 1;
	}
	if (digest_only) {
		hex_print(stdout, m.digest, sizeof(m.digest));
		printf("\n");
	} else {
		printf("%u structures; SEV-SNP pages:", n);
		for (i = 1; i < 7; i++) {
			printf(" %s %u", page_names[i], m.pages[i]);
		}
		printf("\npolicy 0x%llx\nmeasurement (%u vCPU%s) ",
		       (unsigned long long)m.policy, h->vcpus,
		       h->vcpus == 1 ? "" : "s");
		hex_print(stdout, m.digest, sizeof(m.digest));
		printf("\n");
	}
	free(buf);
	return 0;
}

/* Where a directive keeps its file_offset, or -1. */
static int offset_field(uint32_t type)
{
	switch (type) {
	case IGVM_VHT_PAGE_DATA:
		return (int)offsetof(struct igvm_page_data, file_offset);
	case IGVM_VHT_VP_CONTEXT:
		return (int)offsetof(struct igvm_vp_context, file_offset);
	case IGVM_VHT_PARAMETER_AREA:
		return (int)offsetof(struct igvm_parameter_area, file_offset);
	default:
		return -1;
	}
}

static uint64_t data_len(const struct igvm_item *it)
{
	if (it->type == IGVM_VHT_PARAMETER_AREA) {
		struct igvm_parameter_area a;

		memcpy(&a, it->body, sizeof(a));
		return a.number_of_bytes;
	}
	if (it->type == IGVM_VHT_PAGE_DATA) {
		struct igvm_page_data p;

		memcpy(&p, it->body, sizeof(p));
		return (p.flags & IGVM_PAGE_FLAG_2MB) ? 0x200000 : IGVM_PAGE;
	}
	return IGVM_PAGE;
}

static int copy(const char *in, const char *out)
{
	struct igvm_file f;
	struct igvm_builder b;
	struct igvm_item it;
	uint32_t pos = 0;
	const char *why = NULL;
	uint8_t *buf, *file;
	size_t size = 0, nseen = 0, i;
	struct {
		uint32_t src, rel;
	} *seen = NULL;
	int rc = open_file(in, &buf, &f);

	if (rc != 0) {
		free(buf);
		return rc;
	}
	igvm_builder_init(&b);
	while (igvm_next(&f, &pos, &it, &why)) {
		int field = offset_field(it.type);
		uint32_t src = 0, rel = 0;

		if (field >= 0 && (uint32_t)field + 4 <= it.length) {
			memcpy(&src, it.body + field, 4);
		}
		if (src == 0) {
			igvm_add(&b, it.type, it.body, it.length, -1, 0);
			continue;
		}
		/* Data shared by several directives stays shared. */
		for (i = 0; i < nseen && seen[i].src != src; i++) {
		}
		if (i == nseen) {
			seen = realloc(seen, (nseen + 1) * sizeof(*seen));
			if (seen == NULL) {
				abort();
			}
			seen[nseen].src = src;
			seen[nseen].rel =
				igvm_add_data(&b, f.data + src, data_len(&it));
			nseen++;
		}
		rel = seen[i].rel;
		igvm_add(&b, it.type, it.body, it.length, field, rel);
	}
	free(seen);
	if (why != NULL) {
		fprintf(stderr, "csvsm-igvm: %s: %s\n", in, why);
		igvm_builder_free(&b);
		free(buf);
		return 1;
	}
	file = igvm_finish(&b, &size);
	igvm_builder_free(&b);
	free(buf);
	rc = file != NULL && tool_write_file(out, file, size) == 0 ? 0 : 2;
	free(file);
	return rc;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: csvsm-igvm build --svsm ELF [--ovmf FILE | --kernel "
		"ELF |\n"
		"                        --linux BZIMAGE [--initrd FILE] "
		"[--cmdline STRING]\n"
		"                        [--linux-entry "
		"decompressor|startup_64]]\n"
		"                        [--policy HEX] [--svsm-size BYTES] "
		"[--c-bit N] -o OUT\n"
		"       csvsm-igvm dump FILE | copy IN OUT\n"
		"       csvsm-igvm measure FILE [--vcpus N --vcpu-sig HEX]\n"
		"       csvsm-igvm pcrs IMAGE | pcrs --linux BZIMAGE "
		"[--initrd FILE] [--cmdline STRING]\n"
		"                  [--linux-entry decompressor|startup_64]\n");
	return 2;
}

/* measure FILE [--vcpus N --vcpu-sig HEX] */
static int measure_main(int argc, char **argv)
{
	static const struct option mopts[] = {
		{"vcpus", required_argument, NULL, 'n'},
		{"vcpu-sig", required_argument, NULL, 'g'},
		{NULL, 0, NULL, 0}};
	struct measure_host h = {.vcpus = 1};
	bool have_sig = false;
	char *end;
	int c;

	optind = 3;
	while ((c = getopt_long(argc, argv, "", mopts, NULL)) != -1) {
		unsigned long long v;

		if (c != 'n' && c != 'g') {
			return usage();
		}
		v = strtoull(optarg, &end, c == 'n' ? 10 : 16);
		if (*optarg == 0 || *end != 0 || v > 0xFFFFFFFFull ||
		    (c == 'n' && (v == 0 || v > PSP_LAUNCH_MAX_VPS))) {
			fprintf(stderr, "csvsm-igvm: measure: bad --%s %s\n",
				c == 'n' ? "vcpus" : "vcpu-sig", optarg);
			return 2;
		}
		if (c == 'n') {
			h.vcpus = (uint32_t)v;
		} else {
			h.signature = (uint32_t)v;
			have_sig = true;
		}
	}
	if (optind != argc) {
		return usage();
	}
	/* Every AP's VMSA holds the signature in RDX. */
	if (h.vcpus > 1 && !have_sig) {
		fprintf(stderr,
			"csvsm-igvm: measure --vcpus %u needs --vcpu-sig: "
			"CPUID(1).EAX of the host's -cpu model (QEMU's EPYC-v4 "
			"0x800f12, EPYC-Rome 0x830f10, EPYC-Milan 0xa00f11, "
			"EPYC-Genoa 0xa10f11)\n",
			h.vcpus);
		return 2;
	}
	return dump(argv[2], &h, 1);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"svsm", required_argument, NULL, 's'},
		{"ovmf", required_argument, NULL, 'f'},
		{"policy", required_argument, NULL, 'p'},
		{"out", required_argument, NULL, 'o'},
		{"svsm-size", required_argument, NULL, 'z'},
		{"c-bit", required_argument, NULL, 'c'},
		{"kernel", required_argument, NULL, 'k'},
		{"linux", required_argument, NULL, 'l'},
		{"initrd", required_argument, NULL, 'i'},
		{"cmdline", required_argument, NULL, 'm'},
		{"linux-entry", required_argument, NULL, 'e'},
		{NULL, 0, NULL, 0},
	};
	const char *svsm = NULL, *ovmf = NULL, *kernel = NULL, *out = NULL;
	const char *entry = NULL;
	struct linux_args lx = {NULL, NULL, NULL,
				CSVSM_LINUX_ENTRY_DECOMPRESSOR};
	uint64_t policy = DEFAULT_POLICY;
	uint64_t svsm_size = 0; /* default_svsm_size() */
	unsigned long cbit = DEFAULT_C_BIT;
	int c;

	if (argc >= 3 && strcmp(argv[1], "dump") == 0) {
		return dump(argv[2], &one_vcpu, 0);
	}
	if (argc >= 3 && strcmp(argv[1], "measure") == 0) {
		return measure_main(argc, argv);
	}
	if (argc >= 2 && strcmp(argv[1], "pcrs") == 0) {
		return pcrs_main(argc - 1, argv + 1);
	}
	if (argc >= 4 && strcmp(argv[1], "copy") == 0) {
		return copy(argv[2], argv[3]);
	}
	if (argc < 2 || strcmp(argv[1], "build") != 0) {
		return usage();
	}
	optind = 2;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			svsm = optarg;
			break;
		case 'f':
			ovmf = optarg;
			break;
		case 'p':
			policy = strtoull(optarg, NULL, 16);
			break;
		case 'o':
			out = optarg;
			break;
		case 'z':
			svsm_size = strtoull(optarg, NULL, 0);
			break;
		case 'c':
			cbit = strtoul(optarg, NULL, 0);
			break;
		case 'k':
			kernel = optarg;
			break;
		case 'l':
			lx.bz = optarg;
			break;
		case 'i':
			lx.initrd = optarg;
			break;
		case 'm':
			lx.cmdline = optarg;
			break;
		case 'e':
			entry = optarg;
			break;
		default:
			return usage();
		}
	}
	if (svsm == NULL || out == NULL || optind != argc) {
		return usage();
	}
	if (svsm_size % 0x200000 != 0) {
		fprintf(stderr, "csvsm-igvm: --svsm-size: whole 2 MiB pages\n");
		return 2;
	}
	if (cbit < 32 || cbit > 51) {
		fprintf(stderr, "csvsm-igvm: --c-bit: 32 to 51\n");
		return 2;
	}
	if ((ovmf != NULL) + (kernel != NULL) + (lx.bz != NULL) > 1) {
		fprintf(stderr,
			"csvsm-igvm: one of --ovmf, --kernel and --linux\n");
		return 2;
	}
	if (lx.bz == NULL &&
	    (lx.initrd != NULL || lx.cmdline != NULL || entry != NULL)) {
		fprintf(stderr, "csvsm-igvm: --initrd, --cmdline and "
				"--linux-entry go with --linux\n");
		return 2;
	}
	if (entry != NULL && !linux_entry_parse(entry, &lx.entry)) {
		fprintf(stderr, "csvsm-igvm: --linux-entry: decompressor or "
				"startup_64\n");
		return 2;
	}
	return build(svsm, ovmf, kernel, &lx, policy, svsm_size, (unsigned)cbit,
		     out);
}
