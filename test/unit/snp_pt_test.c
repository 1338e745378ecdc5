/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's page-table policy on snp (src/plat/snp/svsm_pt.c), on a
 * hosted pool. Truths: W^X (threat T13: only the image's text is
 * executable, and it is read-only), the C-bit on every mapping, the SVSM
 * region in 4 KiB pages (snp_hw_map_shared clears one leaf's C-bit),
 * nothing mapped but the region and RAM. Entry bits: AMD APM vol. 2 5.3.
 */
#include <string.h>

#include "../../src/plat/snp/svsm_pt.h"
#include "../framework/test.h"
#include "pt_pool.h"

#define CBIT (1ull << 51)
#define MIB (1ull << 20)
#define GIB (1ull << 30)
#define NX (1ull << 63)

static const struct mem_range ram[3] = {
	{{0}, 2 * GIB},
	{{4 * GIB - 2 * MIB}, 2 * MIB}, /* the launched OVMF volume */
	{{4 * GIB}, 2 * GIB},
};

static const struct snp_pt_layout layout = {
	.text = 16 * MIB,
	.text_end = 16 * MIB + 0x33F000,
	.region_base = 16 * MIB,
	.region_end = 32 * MIB,
	.ram = ram,
	.ram_count = 3,
};

static struct pgtable built(unsigned max)
{
	struct pgtable pt;

	pt_pool_reset(max);
	ASSERT_TRUE(pt_init(&pt, &pt_pool_ops, CBIT));
	return pt;
}

/* The leaf's attributes at @va: P, RW, NX and the C-bit; ~0 unmapped. */
static uint64_t attrs(const struct pgtable *pt, uint64_t va)
{
	uint64_t pa = 0, pte = 0;

	if (!pt_translate(pt, va, &pa, &pte)) {
		return ~0ull;
	}
	EXPECT_EQ(pa, va); /* identity */
	return pte & (0x3 | NX | CBIT);
}

TEST(snp_pt, w_x_private_and_only_region_and_ram)
{
	struct pgtable pt = built(PT_POOL_PAGES);

	ASSERT_TRUE(snp_pt_build(&pt, &layout) == NULL);
	/* Text: present, read-only, executable, private. */
	EXPECT_EQ(attrs(&pt, 16 * MIB), 0x1 | CBIT);
	EXPECT_EQ(attrs(&pt, layout.text_end - 1), 0x1 | CBIT);
	/* The rest of the region: writable, never executable. */
	EXPECT_EQ(attrs(&pt, layout.text_end), 0x3 | NX | CBIT);
	EXPECT_EQ(attrs(&pt, 32 * MIB - 1), 0x3 | NX | CBIT);
	EXPECT_TRUE(pt_leaf_4k(&pt, 31 * MIB) != NULL); /* can be shared */
	/* Guest RAM around it, the volume, high RAM: RW, NX, 2 MiB. */
	EXPECT_EQ(attrs(&pt, 0), 0x3 | NX | CBIT);
	EXPECT_EQ(attrs(&pt, 16 * MIB - 1), 0x3 | NX | CBIT);
	EXPECT_EQ(attrs(&pt, 32 * MIB), 0x3 | NX | CBIT);
	EXPECT_TRUE(pt_leaf_4k(&pt, 64 * MIB) == NULL);
	EXPECT_EQ(attrs(&pt, 4 * GIB - 16), 0x3 | NX | CBIT);
	EXPECT_EQ(attrs(&pt, 6 * GIB - 1), 0x3 | NX | CBIT);
	/* Nothing else: the MMIO hole, above RAM, the upper half. */
	EXPECT_EQ(attrs(&pt, 2 * GIB), ~0ull);
	EXPECT_EQ(attrs(&pt, 3 * GIB), ~0ull);
	EXPECT_EQ(attrs(&pt, 6 * GIB), ~0ull);
	/* The PML4, one PDPT, a PD for each GiB with RAM (0, 1, 3, 4, 5),
	 * and 8 PTs for the 16 MiB region's 4 KiB pages. */
	EXPECT_EQ(pt_pool_used(), 1u + 1u + 5u + 8u);
}

TEST(snp_pt, refusals)
{
	struct pgtable pt = built(PT_POOL_PAGES);
	struct snp_pt_layout l = layout;

	l.text = 17 * MIB; /* not at the region's start */
	EXPECT_TRUE(snp_pt_build(&pt, &l) != NULL);
	l = layout;
	l.text_end = l.text; /* no text */
	EXPECT_TRUE(snp_pt_build(&pt, &l) != NULL);
	l = layout;
	l.text_end = 33 * MIB; /* past the region */
	EXPECT_TRUE(snp_pt_build(&pt, &l) != NULL);
	/* Out of table pages: an error, never a partial success. */
	pt = built(12);
	EXPECT_TRUE(snp_pt_build(&pt, &layout) != NULL);
}
