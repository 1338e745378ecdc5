/* SPDX-License-Identifier: MIT */
/*
 * Buddy page allocator. Block indices are relative to the zone base, so a
 * block of order k starts at a page index that is a multiple of 2^k and its
 * buddy is index ^ 2^k.
 */
#include "svsm/buddy.h"

#include "svsm/std.h"

/* state[] byte: [3:0] order, [4] free head, [5] allocated head; 0 = tail. */
#define ST_ORDER_MASK 0x0Fu
#define ST_FREE 0x10u
#define ST_ALLOC 0x20u
#define ST_RESERVED 0x40u

static uintptr_t page_addr(const struct buddy_zone *z, uint64_t idx)
{
	return z->base + idx * BUDDY_PAGE_SIZE;
}

static void list_push(struct buddy_zone *z, uint64_t idx, unsigned order)
{
	struct buddy_free_node *n = (struct buddy_free_node *)page_addr(z, idx);

	n->prev = NULL;
	n->next = z->free_list[order];
	if (n->next != NULL) {
		n->next->prev = n;
	}
	z->free_list[order] = n;
	z->state[idx] = (uint8_t)(ST_FREE | order);
	z->free_blocks[order]++;
	z->free_pages += 1ull << order;
}

static void list_remove(struct buddy_zone *z, uint64_t idx, unsigned order)
{
	struct buddy_free_node *n = (struct buddy_free_node *)page_addr(z, idx);

	if (n->prev != NULL) {
		n->prev->next = n->next;
	} else {
		z->free_list[order] = n->next;
	}
	if (n->next != NULL) {
		n->next->prev = n->prev;
	}
	z->state[idx] = 0;
	z->free_blocks[order]--;
	z->free_pages -= 1ull << order;
}

/** Manage [mem, mem+bytes); the first pages hold the state array. */
enum svsm_err buddy_init(struct buddy_zone *z, void *mem, size_t bytes)
{
	uint64_t idx;

	memset(z, 0, sizeof(*z));
	if (((uintptr_t)mem & (BUDDY_PAGE_SIZE - 1)) != 0) {
		return SVSM_E_INVAL;
	}
	z->base = (uintptr_t)mem;
	z->page_count = bytes / BUDDY_PAGE_SIZE;
	z->meta_pages = ALIGN_UP(z->page_count, (uint64_t)BUDDY_PAGE_SIZE) /
			BUDDY_PAGE_SIZE;
	if (z->page_count <= z->meta_pages) {
		return SVSM_E_NOMEM;
	}
	z->state = (uint8_t *)mem;
	memset(z->state, 0, z->page_count);
	for (idx = 0; idx < z->meta_pages; idx++) {
		z->state[idx] = ST_RESERVED;
	}
	/* Cover the rest greedily with the largest aligned blocks. */
	idx = z->meta_pages;
	while (idx < z->page_count) {
		unsigned order = BUDDY_MAX_ORDER;

		while ((idx & ((1ull << order) - 1)) != 0 ||
		       idx + (1ull << order) > z->page_count) {
			order--;
		}
		list_push(z, idx, order);
		idx += 1ull << order;
	}
	return SVSM_OK;
}

/** A block of 2^order pages, split from the smallest larger free block. */
void *buddy_alloc(struct buddy_zone *z, unsigned order)
{
	unsigned k = order;
	uint64_t idx;

	if (order > BUDDY_MAX_ORDER) {
		return NULL;
	}
	while (k <= BUDDY_MAX_ORDER && z->free_list[k] == NULL) {
		k++;
	}
	if (k > BUDDY_MAX_ORDER) {
		return NULL;
	}
	idx = ((uintptr_t)z->free_list[k] - z->base) / BUDDY_PAGE_SIZE;
	list_remove(z, idx, k);
	while (k > order) {
		k--;
		list_push(z, idx + (1ull << k), k);
	}
	z->state[idx] = (uint8_t)(ST_ALLOC | order);
	return (void *)page_addr(z, idx);
}

bool buddy_owns(const struct buddy_zone *z, const void *p)
{
	uintptr_t a = (uintptr_t)p;

	return a >= z->base + z->meta_pages * BUDDY_PAGE_SIZE &&
	       a < z->base + z->page_count * BUDDY_PAGE_SIZE;
}

/** Order of the allocated block starting at @p, or -1. */
int buddy_block_order(const struct buddy_zone *z, const void *p)
{
	uintptr_t a = (uintptr_t)p;
	uint8_t st;

	if (!buddy_owns(z, p) || (a & (BUDDY_PAGE_SIZE - 1)) != 0) {
		return -1;
	}
	st = z->state[(a - z->base) / BUDDY_PAGE_SIZE];
	if ((st & ST_ALLOC) == 0) {
		return -1;
	}
	return (int)(st & ST_ORDER_MASK);
}

void *buddy_block_start(const struct buddy_zone *z, const void *p,
			unsigned order)
{
	uintptr_t off = (uintptr_t)p - z->base;

	off &= ~(((uintptr_t)BUDDY_PAGE_SIZE << order) - 1);
	return (void *)(z->base + off);
}

/**
 * Free the block at @p and merge it with free buddies. A pointer that is not
 * the start of an allocated block (double free, foreign or interior
 * pointer) is refused with SVSM_E_INVAL and changes nothing.
 */
enum svsm_err buddy_free(struct buddy_zone *z, void *p)
{
	int ord = buddy_block_order(z, p);
	uint64_t idx;
	unsigned order;

	if (ord < 0) {
		return SVSM_E_INVAL;
	}
	order = (unsigned)ord;
	idx = ((uintptr_t)p - z->base) / BUDDY_PAGE_SIZE;
	z->state[idx] = 0;
	while (order < BUDDY_MAX_ORDER) {
		uint64_t buddy = idx ^ (1ull << order);

		if (buddy + (1ull << order) > z->page_count ||
		    z->state[buddy] != (uint8_t)(ST_FREE | order)) {
			break;
		}
		list_remove(z, buddy, order);
		if (buddy < idx) {
			idx = buddy;
		}
		order++;
	}
	list_push(z, idx, order);
	return SVSM_OK;
}
