/* SPDX-License-Identifier: MIT */
/*
 * The PSP's launch of an IGVM image (model/snp/psp_launch.c) into a
 * mock machine: 64 pages of RAM, an RMP that remembers launched pages, a
 * CPU that refutes one CPUID leaf on request. Truths: the digest is the
 * PAGE_INFO chain of psp_launch_digest_page over the pages in the order
 * QEMU's IGVM loader hands them over (a parameter insert before the page
 * run ahead of it, pages without data as NORMAL zeros), then a VMSA per
 * vCPU at 0xFFFFFFFFF000 (as test/igvm/host_launch.py computes it from
 * QEMU's and KVM's code), equal with and without a machine; the VMSAs
 * hold what KVM makes of QEMU's registers (sev-snp-measure's reading for
 * the APs); every hostile file the PSP must refuse is refused with its
 * reason.
 */
#include <stdlib.h>
#include <string.h>

#include "svsm/svsm_vmsa.h"
#include "svsm/vcpu.h"

#include "abi/igvm.h"
#include "abi/snp.h"

#include "model/psp_launch.h"
#include "model/psp_model.h"

#include "../../tools/igvm/igvm_write.h"
#include "../framework/test.h"

_Static_assert(PSP_LAUNCH_MAX_VPS == SVSM_MAX_CPUS, "a VMSA per CPU");

#define PG 4096u
#define RAM_PAGES 64u
#define RAM_SIZE ((uint64_t)RAM_PAGES * PG)
#define VMSA_HOME 0x8000u /* the machine keeps vCPU n's VMSA at + n pages */
#define VCPUS 3u
#define SIGNATURE 0x800F12u /* QEMU's EPYC */

static struct machine {
	uint8_t ram[RAM_PAGES][PG];
	uint8_t launched[RAM_PAGES]; /* 1, or 2 for a VMSA */
	uint32_t refuted_leaf;	     /* the CPU refutes it; 0: none */
} m;

static uint8_t *mock_page(void *ctx, uint64_t gpa)
{
	struct machine *mm = ctx;

	if (gpa >= RAM_SIZE || gpa % PG != 0) {
		test_fail(__FILE__, __LINE__, false, "page 0x%llx asked",
			  (unsigned long long)gpa);
		return NULL;
	}
	return mm->ram[gpa / PG];
}

static bool mock_rmp(void *ctx, uint64_t gpa, bool vmsa)
{
	struct machine *mm = ctx;

	if (gpa >= RAM_SIZE || mm->launched[gpa / PG] != 0) {
		return false;
	}
	mm->launched[gpa / PG] = vmsa ? 2 : 1;
	return true;
}

static void mock_cpuid_fill(void *ctx, struct snp_cpuid_table *t)
{
	(void)ctx;
	t->count = 2;
	t->fn[0] = (struct snp_cpuid_fn){.eax_in = 0, .eax = 0x10};
	t->fn[1] = (struct snp_cpuid_fn){.eax_in = 0x8000001F, .ebx = 51};
}

static bool mock_cpuid_check(void *ctx, const struct snp_cpuid_fn *fn)
{
	struct machine *mm = ctx;

	return mm->refuted_leaf == 0 || fn->eax_in != mm->refuted_leaf;
}

static unsigned mock_memory_map(void *ctx, struct igvm_memory_map_entry *e,
				unsigned max)
{
	(void)ctx;
	if (max < 1) {
		return 0;
	}
	e[0] = (struct igvm_memory_map_entry){.number_of_pages = RAM_PAGES};
	return 1;
}

static uint64_t mock_vmsa_home(void *ctx, uint32_t vp)
{
	(void)ctx;
	return VMSA_HOME + (uint64_t)vp * PG;
}

static void mock_secrets(void *ctx, uint8_t page[4096])
{
	(void)ctx;
	memset(page, 0x5E, 32);
}

static const struct psp_launch_ops machine_ops = {
	.ctx = &m,
	.ram_size = RAM_SIZE,
	.page = mock_page,
	.rmp_launch = mock_rmp,
	.cpuid_fill = mock_cpuid_fill,
	.cpuid_check = mock_cpuid_check,
	.memory_map = mock_memory_map,
	.vp_count = VCPUS,
	.cpu_signature = SIGNATURE,
	.vmsa_features = SEV_FEAT_RESTRICTED_INJECTION,
	.vmsa_home = mock_vmsa_home,
	.secrets_fill = mock_secrets,
};

/* What makes an image hostile; all zero: the good image. */
struct variant {
	bool not_snp, no_vmsa_data, undeclared_insert, two_contexts;
	uint64_t extra_page; /* one more NORMAL page here, if not 0 */
	uint64_t vmsa_gpa;   /* 0: IGVM_SNP_VMSA_GPA */
	uint16_t vp_index;
	uint64_t cr2, dr7, sev_features; /* in the VMSA, if not 0 */
};

static uint8_t normal[PG], unmeasured[PG];
static struct snp_vmsa vmsa;

static void page(struct igvm_builder *b, uint64_t gpa, uint16_t type,
		 uint32_t flags, const uint8_t *data)
{
	struct igvm_page_data p = {.gpa = gpa,
				   .compatibility_mask = 1,
				   .flags = flags,
				   .data_type = type};

	if (data == NULL) {
		igvm_add(b, IGVM_VHT_PAGE_DATA, &p, sizeof(p), -1, 0);
	} else {
		igvm_add(b, IGVM_VHT_PAGE_DATA, &p, sizeof(p),
			 (int)offsetof(struct igvm_page_data, file_offset),
			 igvm_add_data(b, data, PG));
	}
}

/* 0x0 NORMAL, 0x1000 ZERO, 0x2000 UNMEASURED with data, 0x3000 SECRETS,
 * 0x4000 CPUID, 0x5000 the memory map, 0x6000 the VP count, a VMSA. */
static uint8_t *image(const struct variant *v, size_t *size)
{
	struct igvm_supported_platform plat = {
		.compatibility_mask = 1,
		.platform_type = v->not_snp ? IGVM_PLATFORM_NATIVE
					    : IGVM_PLATFORM_SEV_SNP,
		.platform_version = 1};
	struct igvm_guest_policy pol = {.policy = 0x30000,
					.compatibility_mask = 1};
	struct igvm_parameter_area a0 = {.number_of_bytes = PG,
					 .parameter_area_index = 0};
	struct igvm_parameter_area a1 = {.number_of_bytes = PG,
					 .parameter_area_index = 1};
	struct igvm_parameter mm = {.parameter_area_index = 0};
	struct igvm_parameter vps = {.parameter_area_index = 1,
				     .byte_offset = 8};
	struct igvm_parameter_insert i0 = {
		.gpa = 0x5000,
		.compatibility_mask = 1,
		.parameter_area_index = v->undeclared_insert ? 7 : 0};
	struct igvm_parameter_insert i1 = {.gpa = 0x6000,
					   .compatibility_mask = 1,
					   .parameter_area_index = 1};
	struct igvm_vp_context vp = {
		.gpa = v->vmsa_gpa != 0 ? v->vmsa_gpa : IGVM_SNP_VMSA_GPA,
		.compatibility_mask = 1,
		.vp_index = v->vp_index};
	struct svsm_vmsa_regs regs = {.rip = 0x1000, .cr3 = 0x9000, .rsi = 7};
	struct igvm_builder b;
	uint8_t *file;

	memset(normal, 0xA1, sizeof(normal));
	memset(unmeasured, 0xB2, sizeof(unmeasured));
	svsm_vmsa_init(&vmsa, &regs);
	vmsa.cr2 = v->cr2;
	vmsa.dr7 = v->dr7 != 0 ? v->dr7 : vmsa.dr7;
	vmsa.sev_features =
		v->sev_features != 0 ? v->sev_features : vmsa.sev_features;
	igvm_builder_init(&b);
	igvm_add(&b, IGVM_VHT_SUPPORTED_PLATFORM, &plat, sizeof(plat), -1, 0);
	igvm_add(&b, IGVM_VHT_GUEST_POLICY, &pol, sizeof(pol), -1, 0);
	igvm_add(&b, IGVM_VHT_PARAMETER_AREA, &a0, sizeof(a0), -1, 0);
	igvm_add(&b, IGVM_VHT_PARAMETER_AREA, &a1, sizeof(a1), -1, 0);
	igvm_add(&b, IGVM_VHT_MEMORY_MAP, &mm, sizeof(mm), -1, 0);
	igvm_add(&b, IGVM_VHT_VP_COUNT_PARAMETER, &vps, sizeof(vps), -1, 0);
	page(&b, 0x0, IGVM_PAGE_DATA_NORMAL, 0, normal);
	page(&b, 0x1000, IGVM_PAGE_DATA_NORMAL, 0, NULL);
	page(&b, 0x2000, IGVM_PAGE_DATA_NORMAL, IGVM_PAGE_FLAG_UNMEASURED,
	     unmeasured);
	page(&b, 0x3000, IGVM_PAGE_DATA_SECRETS, 0, NULL);
	page(&b, 0x4000, IGVM_PAGE_DATA_CPUID, 0, NULL);
	if (v->extra_page != 0) {
		page(&b, v->extra_page, IGVM_PAGE_DATA_NORMAL, 0, normal);
	}
	igvm_add(&b, IGVM_VHT_PARAMETER_INSERT, &i0, sizeof(i0), -1, 0);
	igvm_add(&b, IGVM_VHT_PARAMETER_INSERT, &i1, sizeof(i1), -1, 0);
	if (v->no_vmsa_data) {
		igvm_add(&b, IGVM_VHT_VP_CONTEXT, &vp, sizeof(vp), -1, 0);
	} else {
		igvm_add(&b, IGVM_VHT_VP_CONTEXT, &vp, sizeof(vp),
			 (int)offsetof(struct igvm_vp_context, file_offset),
			 igvm_add_data(&b, &vmsa, PG));
	}
	if (v->two_contexts) {
		igvm_add(&b, IGVM_VHT_VP_CONTEXT, &vp, sizeof(vp),
			 (int)offsetof(struct igvm_vp_context, file_offset),
			 igvm_add_data(&b, &vmsa, PG));
	}
	file = igvm_finish(&b, size);
	igvm_builder_free(&b);
	return file;
}

static const char *launch(const struct variant *v,
			  const struct psp_launch_ops *ops,
			  struct psp_launch_result *r, bool truncate,
			  bool corrupt)
{
	size_t size = 0;
	uint8_t *file = image(v, &size);
	const char *why;

	if (file == NULL) {
		test_fail(__FILE__, __LINE__, true, "no image");
		return "no image";
	}
	memset(&m, 0, sizeof(m));
	if (corrupt) {
		file[sizeof(struct igvm_fixed_header) + 4] ^= 1;
	}
	why = psp_launch_igvm(file, truncate ? size - 1 : size, ops, r);
	free(file);
	return why;
}

static const struct variant good;

TEST(psp_launch, digest_is_the_page_info_chain)
{
	static const uint8_t zero[PG];
	static struct psp_launch_result r;
	uint8_t want[48] = {0};
	const char *why = launch(&good, &machine_ops, &r, false, false);
	unsigned i;

	ASSERT_TRUE(why == NULL);
	ASSERT_TRUE(psp_launch_digest_page(want, 0x0, PSP_PAGE_NORMAL, normal));
	/* No file data: NORMAL zeros, as QEMU hands such pages to KVM. */
	ASSERT_TRUE(
		psp_launch_digest_page(want, 0x1000, PSP_PAGE_NORMAL, zero));
	ASSERT_TRUE(psp_launch_digest_page(want, 0x2000, PSP_PAGE_UNMEASURED,
					   NULL));
	ASSERT_TRUE(
		psp_launch_digest_page(want, 0x3000, PSP_PAGE_SECRETS, NULL));
	/* The inserts at once, the CPUID page's run when the file ends. */
	ASSERT_TRUE(psp_launch_digest_page(want, 0x5000, PSP_PAGE_UNMEASURED,
					   NULL));
	ASSERT_TRUE(psp_launch_digest_page(want, 0x6000, PSP_PAGE_UNMEASURED,
					   NULL));
	ASSERT_TRUE(psp_launch_digest_page(want, 0x4000, PSP_PAGE_CPUID, NULL));
	for (i = 0; i < VCPUS; i++) {
		ASSERT_TRUE(psp_launch_digest_page(want, IGVM_SNP_VMSA_GPA,
						   PSP_PAGE_VMSA,
						   m.ram[VMSA_HOME / PG + i]));
	}
	EXPECT_EQ(memcmp(r.digest, want, sizeof(want)), 0);
	EXPECT_EQ(r.policy, 0x30000);
	EXPECT_EQ(r.pages[PSP_PAGE_NORMAL], 2);
	EXPECT_EQ(r.pages[PSP_PAGE_ZERO], 0);
	EXPECT_EQ(r.pages[PSP_PAGE_UNMEASURED], 3);
	EXPECT_EQ(r.pages[PSP_PAGE_SECRETS], 1);
	EXPECT_EQ(r.pages[PSP_PAGE_CPUID], 1);
	EXPECT_EQ(r.pages[PSP_PAGE_VMSA], VCPUS);
	EXPECT_EQ(r.vmsa_count, VCPUS);
	EXPECT_EQ(r.vmsa_gpa[0], VMSA_HOME);
	EXPECT_EQ(r.vmsa_gpa[2], VMSA_HOME + 2 * PG);
}

/* The boot CPU's VMSA: the image's registers as KVM makes them. */
TEST(psp_launch, the_boot_vmsa_is_what_kvm_makes_of_the_image)
{
	static struct psp_launch_result r;
	struct snp_vmsa got, want;

	ASSERT_TRUE(launch(&good, &machine_ops, &r, false, false) == NULL);
	memcpy(&got, m.ram[VMSA_HOME / PG], sizeof(got));
	want = vmsa;
	want.cr4 |= 1u << 6; /* the host's CR4.MCE */
	want.efer |= EFER_SVME;
	/* QEMU 10.x loads TR's base from LDTR's: both 0 here. */
	EXPECT_EQ(memcmp(&got, &want, sizeof(got)), 0);
	EXPECT_EQ(got.cpl, 0);
	EXPECT_EQ(got.vmpl, 0);
}

/* Each AP: QEMU's reset state through KVM, as sev-snp-measure writes it
 * for QEMU (vmsa.py, build_save_area), with the boot CPU's features. */
TEST(psp_launch, an_ap_vmsa_is_qemus_reset_state)
{
	static struct psp_launch_result r;
	struct snp_vmsa got, want;

	ASSERT_TRUE(launch(&good, &machine_ops, &r, false, false) == NULL);
	memcpy(&got, m.ram[VMSA_HOME / PG + 1], sizeof(got));
	memset(&want, 0, sizeof(want));
	want.es = want.ss = want.ds = want.fs = want.gs =
		(struct vmsa_seg){.attrib = 0x93, .limit = 0xFFFF};
	want.cs = (struct vmsa_seg){.selector = 0xF000,
				    .attrib = 0x9B,
				    .limit = 0xFFFF,
				    .base = 0xFFFF0000};
	want.gdtr = want.idtr = (struct vmsa_seg){.limit = 0xFFFF};
	want.ldtr = (struct vmsa_seg){.attrib = 0x82, .limit = 0xFFFF};
	want.tr = (struct vmsa_seg){.attrib = 0x8B, .limit = 0xFFFF};
	want.efer = 0x1000;
	want.cr4 = 0x40;
	want.cr0 = 0x10;
	want.dr7 = 0x400;
	want.dr6 = 0xFFFF0FF0;
	want.rflags = 0x2;
	want.rip = 0xFFF0;
	want.g_pat = 0x0007040600070406ull;
	want.rdx = SIGNATURE;
	want.sev_features = vmsa.sev_features;
	want.xcr0 = 1;
	want.mxcsr = 0x1F80;
	want.x87_fcw = 0x37F;
	EXPECT_EQ(memcmp(&got, &want, sizeof(got)), 0);
	EXPECT_EQ(memcmp(m.ram[VMSA_HOME / PG + 1], m.ram[VMSA_HOME / PG + 2],
			 PG),
		  0);
}

TEST(psp_launch, measure_only_gives_the_same_digest)
{
	static struct psp_launch_result r, measured;
	struct psp_launch_ops none = {.ram_size = RAM_SIZE,
				      .vp_count = VCPUS,
				      .cpu_signature = SIGNATURE,
				      .vmsa_features =
					      SEV_FEAT_RESTRICTED_INJECTION};

	ASSERT_TRUE(launch(&good, &machine_ops, &r, false, false) == NULL);
	ASSERT_TRUE(launch(&good, &none, &measured, false, false) == NULL);
	EXPECT_EQ(memcmp(r.digest, measured.digest, sizeof(r.digest)), 0);
	EXPECT_EQ(memcmp(r.pages, measured.pages, sizeof(r.pages)), 0);
}

TEST(psp_launch, fills_the_pages_and_the_rmp)
{
	static struct psp_launch_result r;
	struct igvm_memory_map_entry e;
	uint32_t vps;
	unsigned i;

	memset(m.ram, 0xEE, sizeof(m.ram));
	ASSERT_TRUE(launch(&good, &machine_ops, &r, false, false) == NULL);
	EXPECT_EQ(memcmp(m.ram[0], normal, PG), 0);
	EXPECT_EQ(m.ram[1][0] | m.ram[1][PG - 1], 0);
	EXPECT_EQ(memcmp(m.ram[2], unmeasured, PG), 0);
	EXPECT_EQ(m.ram[3][0], 0x5E);
	EXPECT_EQ(m.ram[3][32], 0);
	EXPECT_EQ(((struct snp_cpuid_table *)m.ram[4])->count, 2);
	memcpy(&e, m.ram[5], sizeof(e));
	EXPECT_EQ(e.number_of_pages, RAM_PAGES);
	EXPECT_EQ(m.ram[5][sizeof(e)], 0); /* then a zero entry */
	memcpy(&vps, m.ram[6] + 8, sizeof(vps));
	EXPECT_EQ(vps, VCPUS);
	for (i = 0; i < 7; i++) {
		EXPECT_EQ(m.launched[i], 1);
	}
	EXPECT_EQ(m.launched[7], 0);
	for (i = 0; i < VCPUS; i++) {
		EXPECT_EQ(m.launched[VMSA_HOME / PG + i], 2);
	}
	EXPECT_EQ(m.launched[VMSA_HOME / PG + VCPUS], 0);
}

/* @v (or the good image cut or corrupted) is refused, saying @word. */
static void refused(const struct variant *v, bool truncate, bool corrupt,
		    const char *word)
{
	static struct psp_launch_result r;
	const char *why = launch(v, &machine_ops, &r, truncate, corrupt);

	if (why == NULL || strstr(why, word) == NULL) {
		test_fail(__FILE__, __LINE__, false, "want \"%s\", got \"%s\"",
			  word, why != NULL ? why : "(launched)");
	}
}

TEST(psp_launch, refuses_hostile_files)
{
	refused(&good, true, false, "total_file_size");
	refused(&good, false, true, "checksum");
	refused(&(struct variant){.not_snp = true}, false, false, "SEV-SNP");
	refused(&(struct variant){.extra_page = RAM_SIZE}, false, false,
		"0x40000: not a page of guest RAM");
	refused(&(struct variant){.extra_page = ~0ull & ~0xFFFull}, false,
		false, "not a page of guest RAM");
	refused(&(struct variant){.vmsa_gpa = 0x1000}, false, false,
		"a VMSA at 0x1000, where QEMU takes one only at "
		"0xfffffffff000");
	refused(&(struct variant){.extra_page = 0x2000}, false, false,
		"0x2000: launched twice");
	refused(&(struct variant){.cr2 = 1}, false, false,
		"VMSA byte 0x240 is a field QEMU does not load");
	refused(&(struct variant){.dr7 = 0x401}, false, false, "DR7 0x401");
	refused(&(struct variant){.sev_features = SEV_FEAT_SNP_ACTIVE |
						  SEV_FEAT_DEBUG_SWAP},
		false, false, "SEV features 0x21, where this host offers");
	refused(&(struct variant){.sev_features =
					  SEV_FEAT_RESTRICTED_INJECTION},
		false, false, "SEV features 0x8");
	refused(&(struct variant){.vp_index = VCPUS}, false, false,
		"VP_CONTEXT 3 for a guest of 3 vCPUs");
	refused(&(struct variant){.vp_index = 1}, false, false,
		"no VP_CONTEXT for the boot CPU");
	refused(&(struct variant){.two_contexts = true}, false, false,
		"two VP_CONTEXTs for vCPU 0");
	refused(&(struct variant){.undeclared_insert = true}, false, false,
		"PARAMETER_INSERT of area 7, which is undeclared");
	refused(&(struct variant){.no_vmsa_data = true}, false, false,
		"without its VMSA");
}

TEST(psp_launch, refuses_a_cpuid_entry_the_cpu_refutes)
{
	static struct psp_launch_result r;
	size_t size = 0;
	uint8_t *file = image(&good, &size);
	const char *why;

	ASSERT_TRUE(file != NULL);
	memset(&m, 0, sizeof(m));
	m.refuted_leaf = 0x8000001F;
	why = psp_launch_igvm(file, size, &machine_ops, &r);
	free(file);
	ASSERT_TRUE(why != NULL);
	EXPECT_TRUE(strstr(why, "leaf 0x8000001f") != NULL);
	EXPECT_EQ(m.launched[4], 0); /* the CPUID page was never launched */
}
