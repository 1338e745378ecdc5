/* SPDX-License-Identifier: MIT */
/*
 * The buddy allocator against a reference model: a byte per page saying who
 * owns it. Checks no overlap, containment, alignment, full coalescing back
 * to the initial free lists, and that bad frees are refused.
 */
#include <stdlib.h>
#include <string.h>

#include "svsm/buddy.h"

#include "../framework/test.h"

#define ZONE_PAGES 1500u /* not a power of two: partial top blocks */

struct ref {
	uint8_t *mem;
	struct buddy_zone z;
	uint64_t initial_blocks[BUDDY_ORDER_COUNT];
	int owner[ZONE_PAGES]; /* -1 free, else allocation index */
};

static void ref_free_mem(void *p)
{
	free(p);
}

static struct ref *ref_new(void)
{
	static struct ref r;
	unsigned i;

	r.mem = aligned_alloc(BUDDY_PAGE_SIZE, ZONE_PAGES * BUDDY_PAGE_SIZE);
	ASSERT_TRUE(r.mem != NULL);
	test_defer(ref_free_mem, r.mem);
	ASSERT_EQ(buddy_init(&r.z, r.mem, ZONE_PAGES * BUDDY_PAGE_SIZE),
		  SVSM_OK);
	memcpy(r.initial_blocks, r.z.free_blocks, sizeof(r.initial_blocks));
	for (i = 0; i < ZONE_PAGES; i++) {
		r.owner[i] = -1;
	}
	return &r;
}

TEST(buddy, init_accounts_every_page)
{
	struct ref *r = ref_new();
	uint64_t sum = 0;
	unsigned k;

	for (k = 0; k <= BUDDY_MAX_ORDER; k++) {
		sum += r->z.free_blocks[k] << k;
	}
	EXPECT_EQ(sum, r->z.free_pages);
	EXPECT_EQ(r->z.free_pages + r->z.meta_pages, ZONE_PAGES);
	EXPECT_EQ(r->z.meta_pages, 1);
}

TEST(buddy, blocks_are_aligned_and_disjoint)
{
	struct ref *r = ref_new();
	unsigned k;

	/* Orders 0..9: page 0 holds metadata, so no 4 MiB block fits. */
	EXPECT_TRUE(buddy_alloc(&r->z, BUDDY_MAX_ORDER) == NULL);
	for (k = 0; k < BUDDY_MAX_ORDER; k++) {
		uint8_t *p = buddy_alloc(&r->z, k);
		uint64_t idx;
		uint64_t i;

		ASSERT_TRUE(p != NULL);
		idx = (uint64_t)(p - r->mem) / BUDDY_PAGE_SIZE;
		EXPECT_EQ(idx % (1ull << k), 0);
		EXPECT_EQ(buddy_block_order(&r->z, p), k);
		for (i = idx; i < idx + (1ull << k); i++) {
			ASSERT_EQ(r->owner[i], -1);
			r->owner[i] = (int)k;
		}
	}
}

TEST(buddy, exhaustion_returns_null_and_recovers)
{
	struct ref *r = ref_new();
	void *pages[ZONE_PAGES];
	unsigned n = 0;
	unsigned i;

	while ((pages[n] = buddy_alloc(&r->z, 0)) != NULL) {
		n++;
	}
	EXPECT_EQ(n, ZONE_PAGES - 1);
	EXPECT_EQ(r->z.free_pages, 0);
	EXPECT_TRUE(buddy_alloc(&r->z, 0) == NULL);
	EXPECT_TRUE(buddy_alloc(&r->z, BUDDY_MAX_ORDER + 1) == NULL);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(buddy_free(&r->z, pages[i]), SVSM_OK);
	}
	for (i = 0; i <= BUDDY_MAX_ORDER; i++) {
		EXPECT_EQ(r->z.free_blocks[i], r->initial_blocks[i]);
	}
}

TEST(buddy, bad_frees_are_refused)
{
	struct ref *r = ref_new();
	uint8_t *p = buddy_alloc(&r->z, 2);
	uint8_t outside[64];
	uint64_t before;

	ASSERT_TRUE(p != NULL);
	before = r->z.free_pages;
	EXPECT_EQ(buddy_free(&r->z, p + BUDDY_PAGE_SIZE), SVSM_E_INVAL);
	EXPECT_EQ(buddy_free(&r->z, p + 8), SVSM_E_INVAL);
	EXPECT_EQ(buddy_free(&r->z, outside), SVSM_E_INVAL);
	EXPECT_EQ(buddy_free(&r->z, r->mem), SVSM_E_INVAL); /* metadata */
	EXPECT_EQ(buddy_free(&r->z, NULL), SVSM_E_INVAL);
	EXPECT_EQ(r->z.free_pages, before);
	EXPECT_EQ(buddy_free(&r->z, p), SVSM_OK);
	EXPECT_EQ(buddy_free(&r->z, p), SVSM_E_INVAL); /* double free */
	EXPECT_EQ(r->z.free_pages, before + 4);
}

TEST(buddy, random_sequence_matches_reference)
{
	struct ref *r = ref_new();
	struct {
		uint8_t *p;
		unsigned order;
	} live[512];
	unsigned live_count = 0;
	uint64_t rng = test_seed() | 1;
	unsigned step;
	unsigned k;

	for (step = 0; step < 20000; step++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		if (live_count < 512 && (rng & 3) != 0) {
			unsigned order = (unsigned)(rng >> 8) % 6;
			uint8_t *p = buddy_alloc(&r->z, order);
			uint64_t idx;
			uint64_t i;

			if (p == NULL) {
				continue;
			}
			ASSERT_TRUE(p >= r->mem + BUDDY_PAGE_SIZE);
			idx = (uint64_t)(p - r->mem) / BUDDY_PAGE_SIZE;
			ASSERT_LE(idx + (1ull << order), ZONE_PAGES);
			ASSERT_EQ(idx % (1ull << order), 0);
			for (i = idx; i < idx + (1ull << order); i++) {
				ASSERT_EQ(r->owner[i], -1); /* no overlap */
				r->owner[i] = (int)live_count;
			}
			memset(p, 0xAB, BUDDY_PAGE_SIZE << order);
			live[live_count].p = p;
			live[live_count].order = order;
			live_count++;
		} else if (live_count > 0) {
			unsigned j = (unsigned)(rng >> 16) % live_count;
			uint64_t idx = (uint64_t)(live[j].p - r->mem) /
				       BUDDY_PAGE_SIZE;
			uint64_t i;

			ASSERT_EQ(buddy_free(&r->z, live[j].p), SVSM_OK);
			for (i = idx; i < idx + (1ull << live[j].order); i++) {
				r->owner[i] = -1;
			}
			live[j] = live[--live_count];
			/* Keep the reference indices in step with live[]. */
			if (j < live_count) {
				idx = (uint64_t)(live[j].p - r->mem) /
				      BUDDY_PAGE_SIZE;
				for (i = idx; i < idx + (1ull << live[j].order);
				     i++) {
					r->owner[i] = (int)j;
				}
			}
		}
	}
	while (live_count > 0) {
		live_count--;
		ASSERT_EQ(buddy_free(&r->z, live[live_count].p), SVSM_OK);
	}
	for (k = 0; k <= BUDDY_MAX_ORDER; k++) {
		EXPECT_EQ(r->z.free_blocks[k], r->initial_blocks[k]);
	}
	EXPECT_EQ(r->z.free_pages, ZONE_PAGES - 1);
}
