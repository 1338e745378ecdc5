/* SPDX-License-Identifier: MIT */
/*
 * The PSP's launch of an IGVM image (src/snpmodel/psp_launch.c) into a
 * mock machine: 64 pages of RAM, an RMP that remembers launched pages, a
 * CPU that refutes one CPUID leaf on request. Truths: the digest is the
 * PAGE_INFO chain of psp_launch_digest_page over the pages in file order
 * with the VMSA last (as test/igvm/igvm_check.py computes it for
 * csvsm.igvm), equal with and without a machine; every hostile file the
 * PSP must refuse is refused with its reason.
 */
#include <stdlib.h>
#include <string.h>

#include "svsm/psp_launch.h"
#include "svsm/psp_model.h"
#include "svsm/vcpu.h"

#include "../../tools/igvm/igvm_write.h"
#include "../framework/test.h"

_Static_assert(PSP_LAUNCH_MAX_VPS == SVSM_MAX_CPUS, "a VMSA per CPU");

#define PG 4096u
#define RAM_PAGES 64u
#define RAM_SIZE ((uint64_t)RAM_PAGES * PG)
#define VMSA_GPA 0x7000u

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
	.vp_count = 3,
	.secrets_fill = mock_secrets,
};

/* What makes an image hostile; all zero: the good image. */
struct variant {
	bool not_snp, no_vmsa_data, undeclared_insert;
	uint64_t extra_page; /* one more NORMAL page here, if not 0 */
	uint64_t vmsa_gpa;   /* 0: VMSA_GPA */
};

static uint8_t normal[PG], unmeasured[PG], vmsa[PG];

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
	struct igvm_vp_context vp = {.gpa = v->vmsa_gpa != 0 ? v->vmsa_gpa
							     : VMSA_GPA,
				     .compatibility_mask = 1};
	struct igvm_builder b;
	uint8_t *file;

	memset(normal, 0xA1, sizeof(normal));
	memset(unmeasured, 0xB2, sizeof(unmeasured));
	memset(vmsa, 0xC3, sizeof(vmsa));
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
			 igvm_add_data(&b, vmsa, PG));
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
	static struct psp_launch_result r;
	uint8_t want[48] = {0};
	const char *why = launch(&good, &machine_ops, &r, false, false);

	ASSERT_TRUE(why == NULL);
	ASSERT_TRUE(psp_launch_digest_page(want, 0x0, PSP_PAGE_NORMAL, normal));
	ASSERT_TRUE(psp_launch_digest_page(want, 0x1000, PSP_PAGE_ZERO, NULL));
	ASSERT_TRUE(psp_launch_digest_page(want, 0x2000, PSP_PAGE_UNMEASURED,
					   NULL));
	ASSERT_TRUE(
		psp_launch_digest_page(want, 0x3000, PSP_PAGE_SECRETS, NULL));
	ASSERT_TRUE(psp_launch_digest_page(want, 0x4000, PSP_PAGE_CPUID, NULL));
	ASSERT_TRUE(psp_launch_digest_page(want, 0x5000, PSP_PAGE_UNMEASURED,
					   NULL));
	ASSERT_TRUE(psp_launch_digest_page(want, 0x6000, PSP_PAGE_UNMEASURED,
					   NULL));
	ASSERT_TRUE(psp_launch_digest_page(want, 0xFFFFFFFFF000ull,
					   PSP_PAGE_VMSA, vmsa));
	EXPECT_EQ(memcmp(r.digest, want, sizeof(want)), 0);
	EXPECT_EQ(r.policy, 0x30000);
	EXPECT_EQ(r.pages[PSP_PAGE_NORMAL], 1);
	EXPECT_EQ(r.pages[PSP_PAGE_ZERO], 1);
	EXPECT_EQ(r.pages[PSP_PAGE_UNMEASURED], 3);
	EXPECT_EQ(r.pages[PSP_PAGE_SECRETS], 1);
	EXPECT_EQ(r.pages[PSP_PAGE_CPUID], 1);
	EXPECT_EQ(r.pages[PSP_PAGE_VMSA], 1);
	EXPECT_EQ(r.vmsa_count, 1);
	EXPECT_EQ(r.vmsa_gpa[0], VMSA_GPA);
}

TEST(psp_launch, measure_only_gives_the_same_digest)
{
	static struct psp_launch_result r, measured;
	struct psp_launch_ops none = {.ram_size = RAM_SIZE};

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
	EXPECT_EQ(vps, 3);
	EXPECT_EQ(memcmp(m.ram[VMSA_GPA / PG], vmsa, PG), 0);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(m.launched[i], i == VMSA_GPA / PG ? 2 : 1);
	}
	EXPECT_EQ(m.launched[8], 0);
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
	refused(&(struct variant){.vmsa_gpa = RAM_SIZE}, false, false,
		"VMSA 0x40000 not a page of guest RAM");
	refused(&(struct variant){.extra_page = 0x2000}, false, false,
		"0x2000: launched twice");
	refused(&(struct variant){.vmsa_gpa = 0x1000}, false, false,
		"0x1000: launched twice");
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
