/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "svsm/slab.h"

#include "../framework/test.h"

#define SLAB_ZONE_PAGES 1024u

static void slab_free_mem(void *p)
{
	free(p);
}

static struct slab_allocator *slab_new(struct buddy_zone *z)
{
	static struct slab_allocator sa;
	void *mem = aligned_alloc(BUDDY_PAGE_SIZE,
				  SLAB_ZONE_PAGES * BUDDY_PAGE_SIZE);

	ASSERT_TRUE(mem != NULL);
	test_defer(slab_free_mem, mem);
	ASSERT_EQ(buddy_init(z, mem, SLAB_ZONE_PAGES * BUDDY_PAGE_SIZE),
		  SVSM_OK);
	slab_init(&sa, z);
	return &sa;
}

TEST(slab, size_classes)
{
	EXPECT_EQ(slab_class_size(0), 0);
	EXPECT_EQ(slab_class_size(1), 16);
	EXPECT_EQ(slab_class_size(16), 16);
	EXPECT_EQ(slab_class_size(17), 32);
	EXPECT_EQ(slab_class_size(1025), 2048);
	EXPECT_EQ(slab_class_size(2048), 2048);
	EXPECT_EQ(slab_class_size(2049), 0);
}

TEST(slab, objects_are_disjoint_and_hold_data)
{
	static struct buddy_zone z;
	struct slab_allocator *sa = slab_new(&z);
	static uint8_t *obj[8][40];
	unsigned c;
	unsigned i;

	for (c = 0; c < 8; c++) {
		size_t size = 16u << c;

		for (i = 0; i < 40; i++) {
			obj[c][i] = slab_alloc(sa, size);
			ASSERT_TRUE(obj[c][i] != NULL);
			memset(obj[c][i], (int)(c * 40 + i), size);
		}
	}
	for (c = 0; c < 8; c++) {
		size_t size = 16u << c;

		for (i = 0; i < 40; i++) {
			size_t b;

			for (b = 0; b < size; b++) {
				ASSERT_EQ(obj[c][i][b], (uint8_t)(c * 40 + i));
			}
		}
	}
	for (c = 0; c < 8; c++) {
		for (i = 0; i < 40; i++) {
			ASSERT_EQ(slab_free(sa, obj[c][i]), SVSM_OK);
		}
	}
	/* Empty slabs went back: the zone is whole again. */
	EXPECT_EQ(z.free_pages, SLAB_ZONE_PAGES - 1);
	EXPECT_TRUE(slab_alloc(sa, 0) == NULL);
	EXPECT_TRUE(slab_alloc(sa, 4096) == NULL);
}

/* mem.c's obj_free() relies on it: no slab object is page aligned. */
TEST(slab, objects_are_never_page_aligned)
{
	static struct buddy_zone z;
	struct slab_allocator *sa = slab_new(&z);
	unsigned c;

	for (c = 0; c < SLAB_CLASS_COUNT; c++) {
		size_t size = SLAB_MIN_SIZE << c;
		unsigned i;

		for (i = 0; i < 3 * sa->cache[c].capacity; i++) {
			uint8_t *p = slab_alloc(sa, size);

			ASSERT_TRUE(p != NULL);
			ASSERT_NE((uintptr_t)p % BUDDY_PAGE_SIZE, 0);
		}
	}
}

TEST(slab, bad_frees_are_refused)
{
	static struct buddy_zone z;
	struct slab_allocator *sa = slab_new(&z);
	uint8_t *a = slab_alloc(sa, 64);
	uint8_t *b = slab_alloc(sa, 64);
	void *page = buddy_alloc(&z, 0);
	int local;

	ASSERT_TRUE(a != NULL && b != NULL && page != NULL);
	EXPECT_EQ(slab_free(sa, a + 8), SVSM_E_INVAL);	/* interior */
	EXPECT_EQ(slab_free(sa, &local), SVSM_E_INVAL); /* foreign */
	EXPECT_EQ(slab_free(sa, page), SVSM_E_INVAL);	/* a plain page */
	EXPECT_EQ(slab_free(sa, a), SVSM_OK);
	EXPECT_EQ(slab_free(sa, a), SVSM_E_INVAL); /* double free */
	EXPECT_EQ(slab_free(sa, b), SVSM_OK);
	EXPECT_EQ(slab_free(sa, b), SVSM_E_INVAL); /* slab already gone */
}

TEST(slab, random_sequence_matches_reference)
{
	static struct buddy_zone z;
	struct slab_allocator *sa = slab_new(&z);
	static struct {
		uint8_t *p;
		size_t size;
		uint8_t tag;
	} live[2000];
	unsigned live_count = 0;
	uint64_t rng = test_seed() | 1;
	unsigned step;

	for (step = 0; step < 30000; step++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		if (live_count < 2000 && (rng & 1) != 0) {
			size_t size = 1 + (size_t)((rng >> 8) % 2048);
			uint8_t *p = slab_alloc(sa, size);

			if (p == NULL) {
				continue;
			}
			live[live_count].p = p;
			live[live_count].size = size;
			live[live_count].tag = (uint8_t)step;
			memset(p, (uint8_t)step, size);
			live_count++;
		} else if (live_count > 0) {
			unsigned j = (unsigned)(rng >> 20) % live_count;
			size_t b;

			/* Any overlap would have overwritten the tag. */
			for (b = 0; b < live[j].size; b++) {
				ASSERT_EQ(live[j].p[b], live[j].tag);
			}
			ASSERT_EQ(slab_free(sa, live[j].p), SVSM_OK);
			live[j] = live[--live_count];
		}
	}
	while (live_count > 0) {
		live_count--;
		ASSERT_EQ(slab_free(sa, live[live_count].p), SVSM_OK);
	}
	EXPECT_EQ(z.free_pages, SLAB_ZONE_PAGES - 1);
}
