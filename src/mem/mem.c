/* SPDX-License-Identifier: MIT */
/*
 * The SVSM heap. A free that the allocators refuse is an SVSM bug (the
 * pointer came from SVSM code, never from the guest), so it panics.
 * Lock: mem_lock protects the zone and the slab caches; it is a leaf lock.
 */
#include "svsm/mem.h"

#include "svsm/check.h"
#include "svsm/lent.h"
#include "svsm/slab.h"
#include "svsm/spinlock.h"
#include "svsm/std.h"

static struct buddy_zone heap_zone;
static struct slab_allocator heap_slab;
static gpa_t heap_gpa_base;
static struct spinlock mem_lock;

enum svsm_err mem_init(void *heap, size_t bytes, gpa_t heap_gpa)
{
	enum svsm_err err = buddy_init(&heap_zone, heap, bytes);

	if (err != SVSM_OK) {
		return err;
	}
	slab_init(&heap_slab, &heap_zone);
	heap_gpa_base = heap_gpa;
	spin_init(&mem_lock);
	lent_use_heap(&heap_slab, &mem_lock);
	return SVSM_OK;
}

void *page_alloc(unsigned order)
{
	void *p;

	spin_lock(&mem_lock);
	p = buddy_alloc(&heap_zone, order);
	spin_unlock(&mem_lock);
	if (p == NULL && order == 0) {
		p = lent_alloc_page();
	}
	if (p != NULL) {
		memset(p, 0, (size_t)BUDDY_PAGE_SIZE << order);
	}
	return p;
}

void page_free(void *p)
{
	enum svsm_err err;

	if (p == NULL) {
		return;
	}
	if (!buddy_owns(&heap_zone, p)) {
		lent_free_page(p);
		return;
	}
	spin_lock(&mem_lock);
	err = buddy_free(&heap_zone, p);
	spin_unlock(&mem_lock);
	CHECK(err == SVSM_OK);
}

/*
 * Small objects come from the slab caches; when those cannot grow (the heap
 * is exhausted), from a whole page, which page_alloc() may take from memory
 * the guest lent (svsm/lent.h). Slab objects are never page aligned (a
 * 128-byte header starts every slab block and no size class reaches the
 * next page boundary; slab_test checks it), so obj_free() tells the two
 * apart. The lent pool takes its records the same way (lent.c).
 */
void *obj_alloc(size_t size)
{
	void *p;

	if (size == 0 || size > SLAB_MAX_SIZE) {
		return NULL;
	}
	spin_lock(&mem_lock);
	p = slab_alloc(&heap_slab, size);
	spin_unlock(&mem_lock);
	if (p == NULL) {
		return page_alloc(0);
	}
	memset(p, 0, size);
	return p;
}

void obj_free(void *p)
{
	enum svsm_err err;

	if (p == NULL) {
		return;
	}
	if (((uintptr_t)p & (BUDDY_PAGE_SIZE - 1)) == 0) {
		page_free(p);
		return;
	}
	spin_lock(&mem_lock);
	err = slab_free(&heap_slab, p);
	spin_unlock(&mem_lock);
	CHECK(err == SVSM_OK);
}

gpa_t page_to_gpa(const void *p)
{
	if (buddy_owns(&heap_zone, p)) {
		return gpa_add(heap_gpa_base, (uintptr_t)p - heap_zone.base);
	}
	return lent_page_gpa(p);
}

uint64_t mem_heap_free_pages(void)
{
	return heap_zone.free_pages;
}
