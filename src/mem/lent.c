/* SPDX-License-Identifier: MIT */
/* The pool of lent pages (svsm/lent.h). */
#include "svsm/lent.h"

#include "svsm/buddy.h"
#include "svsm/check.h"
#include "svsm/plat.h"
#include "svsm/slab.h"
#include "svsm/spinlock.h"
#include "svsm/std.h"

struct lent_block {
	gpa_t gpa;
	enum page_size size;
	void *va; /* non-NULL while the heap uses the page */
	struct lent_block *next;
};

/*
 * Records for the first lent pages live in the SVSM image, not the heap:
 * the guest deposits exactly when the heap is exhausted (the SVSM asked
 * with 0x4000_0000 + N), and those pages then feed the heap for what
 * follows.
 */
#define LENT_RESERVE 64u
static struct lent_block reserve[LENT_RESERVE];
static struct lent_block *reserve_free;

static struct lent_block *blocks;
static struct spinlock lent_lock;
/* The heap's slab caches and the lock over them and their zone. */
static struct slab_allocator *heap_slab;
static struct spinlock *heap_lock;

void lent_reset(void)
{
	unsigned i;

	reserve_free = NULL;
	for (i = 0; i < LENT_RESERVE; i++) {
		reserve[i].next = reserve_free;
		reserve_free = &reserve[i];
	}
	blocks = NULL;
	spin_init(&lent_lock);
}

void lent_use_heap(struct slab_allocator *slab, struct spinlock *lock)
{
	heap_slab = slab;
	heap_lock = lock;
}

static bool record_is_reserved(const struct lent_block *b)
{
	return b >= &reserve[0] && b < &reserve[LENT_RESERVE];
}

/*
 * A record beyond the reserve: what obj_alloc() would return, without
 * calling up into the heap. A slab object, else a whole page from the
 * heap's zone, else a free lent page (never under lent_lock).
 */
static struct lent_block *record_from_heap(void)
{
	void *p;

	spin_lock(heap_lock);
	p = slab_alloc(heap_slab, sizeof(struct lent_block));
	if (p == NULL) {
		p = buddy_alloc(heap_slab->zone, 0);
	}
	spin_unlock(heap_lock);
	if (p == NULL) {
		p = lent_alloc_page();
	}
	if (p != NULL && ((uintptr_t)p & (BUDDY_PAGE_SIZE - 1)) == 0) {
		memset(p, 0, BUDDY_PAGE_SIZE);
	}
	return p;
}

static void record_to_heap(struct lent_block *b)
{
	enum svsm_err err;

	if (((uintptr_t)b & (BUDDY_PAGE_SIZE - 1)) == 0 &&
	    !buddy_owns(heap_slab->zone, b)) {
		lent_free_page(b);
		return;
	}
	spin_lock(heap_lock);
	if (((uintptr_t)b & (BUDDY_PAGE_SIZE - 1)) == 0) {
		err = buddy_free(heap_slab->zone, b);
	} else {
		err = slab_free(heap_slab, b);
	}
	spin_unlock(heap_lock);
	CHECK(err == SVSM_OK);
}

/* A record from the reserve, else from the heap (never under the lock). */
static struct lent_block *record_alloc(void)
{
	struct lent_block *b;

	spin_lock(&lent_lock);
	b = reserve_free;
	if (b != NULL) {
		reserve_free = b->next;
	}
	spin_unlock(&lent_lock);
	if (b == NULL) {
		b = record_from_heap();
	}
	if (b != NULL) {
		memset(b, 0, sizeof(*b));
	}
	return b;
}

static void record_free(struct lent_block *b)
{
	if (b == NULL) {
		return;
	}
	if (!record_is_reserved(b)) {
		record_to_heap(b);
		return;
	}
	spin_lock(&lent_lock);
	b->next = reserve_free;
	reserve_free = b;
	spin_unlock(&lent_lock);
}

enum svsm_err lent_add(gpa_t gpa, enum page_size size)
{
	struct lent_block *b = record_alloc();

	if (b == NULL) {
		return SVSM_E_NOMEM;
	}
	b->gpa = gpa;
	b->size = size;
	spin_lock(&lent_lock);
	b->next = blocks;
	blocks = b;
	spin_unlock(&lent_lock);
	return SVSM_OK;
}

bool lent_take_free(gpa_t *gpa, enum page_size *size)
{
	struct lent_block **pp;
	struct lent_block *b = NULL;

	spin_lock(&lent_lock);
	for (pp = &blocks; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->va == NULL) {
			b = *pp;
			*pp = b->next;
			break;
		}
	}
	if (b != NULL) {
		*gpa = b->gpa;
		*size = b->size;
	}
	spin_unlock(&lent_lock);
	if (b == NULL) {
		return false;
	}
	record_free(b);
	return true;
}

bool lent_has_free(void)
{
	struct lent_block *b;
	bool found = false;

	spin_lock(&lent_lock);
	for (b = blocks; b != NULL && !found; b = b->next) {
		found = b->va == NULL;
	}
	spin_unlock(&lent_lock);
	return found;
}

void *lent_alloc_page(void)
{
	struct lent_block *b;
	void *va = NULL;

	spin_lock(&lent_lock);
	for (b = blocks; b != NULL; b = b->next) {
		if (b->va == NULL && b->size == PAGE_4K) {
			b->va = plat_map_private(b->gpa, SNP_PAGE_SIZE);
			va = b->va;
			break;
		}
	}
	spin_unlock(&lent_lock);
	return va;
}

/* The block the heap holds at @va; the caller holds lent_lock. Only the
 * SVSM's own pointers come here, so a miss is an SVSM bug. */
static struct lent_block *lent_find_va(const void *va)
{
	struct lent_block *b;

	for (b = blocks; b != NULL && b->va != va; b = b->next) {
	}
	CHECK(b != NULL);
	return b;
}

void lent_free_page(void *va)
{
	struct lent_block *b;

	spin_lock(&lent_lock);
	b = lent_find_va(va);
	b->va = NULL;
	spin_unlock(&lent_lock);
	plat_unmap_private(va, SNP_PAGE_SIZE);
}

gpa_t lent_page_gpa(const void *va)
{
	gpa_t gpa;

	spin_lock(&lent_lock);
	gpa = lent_find_va(va)->gpa;
	spin_unlock(&lent_lock);
	return gpa;
}
