/* SPDX-License-Identifier: MIT */
/*
 * x86-64 page tables (src/arch/x86/pgtable.c), built in a hosted array of
 * pages. Truths: the architecture's four-level walk (AMD APM vol. 2
 * 5.3: PML4, PDPT, PD, PT indices are VA bits 47:39, 38:30, 29:21,
 * 20:12; PS in a PD entry maps 2 MiB), its entry bits (P 0, R/W 1, PWT 3,
 * PCD 4, PS 7, NX 63), and SEV's C-bit at 51 on every entry that should
 * be private.
 */
#include <string.h>

#include "../framework/test.h"
#include "pt_pool.h"

#define CBIT (1ull << 51)

static struct pgtable fresh(unsigned max_pages)
{
	struct pgtable pt;

	pt_pool_reset(max_pages);
	ASSERT_TRUE(pt_init(&pt, &pt_pool_ops, CBIT));
	return pt;
}

/* The entry at @level (3 = PML4) for @va, walked by hand. */
static uint64_t entry(const struct pgtable *pt, uint64_t va, unsigned level)
{
	uint64_t pa = pt->root;
	unsigned l;

	for (l = 3;; l--) {
		uint64_t e = pt_pool_table(pa)[(va >> (12 + 9 * l)) & 511];

		if (l == level) {
			return e;
		}
		pa = e & 0x000FFFFFFFFFF000ull & ~CBIT;
	}
}

TEST(pgtable, large_pages_carry_the_c_bit_and_nx)
{
	struct pgtable pt = fresh(PT_POOL_PAGES);
	uint64_t pa = 0, pte = 0;

	ASSERT_TRUE(pt_map(&pt, 0x1000000, 0x1000000, 0x1000000,
			   PT_MAP_WRITE | PT_MAP_LARGE));
	/* PML4[0] -> PDPT[0] -> PD[8..15]: 2 MiB pages, private, NX. */
	EXPECT_EQ(entry(&pt, 0x1000000, 3) & (CBIT | 0x3), CBIT | 0x3);
	EXPECT_EQ(entry(&pt, 0x1000000, 2) & (CBIT | 0x3), CBIT | 0x3);
	EXPECT_EQ(entry(&pt, 0x1000000, 1),
		  0x1000000 | CBIT | (1ull << 63) | 0x80 | 0x3);
	EXPECT_EQ(entry(&pt, 0x1FFFFFF, 1),
		  0x1E00000 | CBIT | (1ull << 63) | 0x80 | 0x3);
	EXPECT_EQ(pt_pool_used(), 3u); /* PML4, PDPT, one PD */
	ASSERT_TRUE(pt_translate(&pt, 0x1234567, &pa, &pte));
	EXPECT_EQ(pa, 0x1234567);
	EXPECT_TRUE(pt_leaf_4k(&pt, 0x1234000) == NULL); /* a 2 MiB page */
	EXPECT_FALSE(pt_translate(&pt, 0x2000000, &pa, &pte));
}

TEST(pgtable, small_pages_code_and_shared_leaves)
{
	struct pgtable pt = fresh(PT_POOL_PAGES);
	uint64_t pa = 0, pte = 0, *leaf;

	/* Code: present, read-only, executable. */
	ASSERT_TRUE(pt_map(&pt, 0x200000, 0x200000, 0x2000, PT_MAP_EXEC));
	EXPECT_EQ(entry(&pt, 0x201000, 0), 0x201000 | CBIT | 0x1);
	/* LARGE on a misaligned range falls back to 4 KiB pages. */
	ASSERT_TRUE(pt_map(&pt, 0x203000, 0x203000, 0x200000,
			   PT_MAP_WRITE | PT_MAP_LARGE));
	EXPECT_EQ(entry(&pt, 0x203000, 0),
		  0x203000 | CBIT | (1ull << 63) | 0x3);
	/* A shared leaf: no C-bit on the leaf, still on the tables. */
	ASSERT_TRUE(pt_map(&pt, 0x600000, 0x600000, 0x1000,
			   PT_MAP_WRITE | PT_MAP_SHARED));
	EXPECT_EQ(entry(&pt, 0x600000, 0), 0x600000 | (1ull << 63) | 0x3);
	EXPECT_EQ(entry(&pt, 0x600000, 1) & CBIT, CBIT);
	/* Clearing the C-bit of a leaf, as snp_hw_map_shared() does. */
	leaf = pt_leaf_4k(&pt, 0x204000);
	ASSERT_TRUE(leaf != NULL);
	*leaf &= ~CBIT;
	ASSERT_TRUE(pt_translate(&pt, 0x204010, &pa, &pte));
	EXPECT_EQ(pa, 0x204010);
	EXPECT_EQ(pte & CBIT, 0);
	/* Device memory: PCD (bit 4) and PWT (bit 3). */
	ASSERT_TRUE(pt_map(&pt, 0xE0000000ull, 0xE0000000ull, 0x200000,
			   PT_MAP_WRITE | PT_MAP_LARGE | PT_MAP_UNCACHED));
	EXPECT_EQ(entry(&pt, 0xE0000000ull, 1),
		  0xE0000000ull | CBIT | (1ull << 63) | 0x80 | 0x18 | 0x3);
	/* High memory: another PML4 entry. */
	ASSERT_TRUE(pt_map(&pt, 0x10000000000ull, 0x10000000000ull, 0x200000,
			   PT_MAP_WRITE | PT_MAP_LARGE));
	EXPECT_EQ(entry(&pt, 0x10000000000ull, 1),
		  0x10000000000ull | CBIT | (1ull << 63) | 0x83);
}

TEST(pgtable, refusals)
{
	struct pgtable pt = fresh(PT_POOL_PAGES);

	ASSERT_TRUE(pt_map(&pt, 0x400000, 0x400000, 0x1000, PT_MAP_WRITE));
	EXPECT_FALSE(pt_map(&pt, 0x400000, 0x800000, 0x1000, 0)); /* mapped */
	EXPECT_FALSE(pt_map(&pt, 0x400000, 0x400000, 0x200000,
			    PT_MAP_LARGE)); /* under a small page */
	EXPECT_FALSE(pt_map(&pt, 0x401001, 0x401000, 0x1000, 0));
	EXPECT_FALSE(pt_map(&pt, 0x401000, 0x401000, 0x800, 0));
	EXPECT_FALSE(pt_map(&pt, 1ull << 47, 0, 0x1000, 0));	 /* not lower */
	EXPECT_FALSE(pt_map(&pt, 0x1000, ~0xFFFull, 0x2000, 0)); /* wraps */
	EXPECT_FALSE(pt_map(&pt, 0x1000, CBIT, 0x1000, 0)); /* C-bit in PA */
	EXPECT_TRUE(pt_leaf_4k(&pt, 1ull << 47) == NULL);
	/* Out of table memory: refused, not half-written silently. */
	pt = fresh(3);
	EXPECT_FALSE(pt_map(&pt, 0, 0, 0x1000, 0));	/* needs a fourth */
	EXPECT_FALSE(pt_init(&pt, &pt_pool_ops, CBIT)); /* none left */
}
