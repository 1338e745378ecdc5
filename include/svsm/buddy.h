/* SPDX-License-Identifier: MIT */
/*
 * A binary buddy allocator over one contiguous zone of SVSM-private memory:
 * blocks of 2^order pages, order 0 (4 KiB) to BUDDY_MAX_ORDER (4 MiB).
 * Invariants: each page has one state byte; a free block is on exactly one
 * free list (linked through its own first bytes); two free buddies of the
 * same order never coexist (they are merged on free). Not locked: callers
 * (page_alloc.c) serialise.
 */
#ifndef SVSM_BUDDY_H
#define SVSM_BUDDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/err.h"

#define BUDDY_PAGE_SIZE 4096u
#define BUDDY_MAX_ORDER 10u
#define BUDDY_ORDER_COUNT (BUDDY_MAX_ORDER + 1u)
#define BUDDY_ORDER_2M 9u

struct buddy_free_node {
	struct buddy_free_node *next;
	struct buddy_free_node *prev;
};

struct buddy_zone {
	uintptr_t base;	     /* first byte of the zone */
	uint64_t page_count; /* pages in the zone, metadata included */
	uint8_t *state;	     /* one byte per page, kept in the zone itself */
	uint64_t meta_pages; /* pages holding state[] */
	struct buddy_free_node *free_list[BUDDY_ORDER_COUNT];
	uint64_t free_blocks[BUDDY_ORDER_COUNT];
	uint64_t free_pages;
};

/** Manage [mem, mem+bytes); mem must be page aligned. */
enum svsm_err buddy_init(struct buddy_zone *z, void *mem, size_t bytes);
/** A block of 2^order pages, or NULL. Contents are not cleared. */
void *buddy_alloc(struct buddy_zone *z, unsigned order);
/** Free a block; SVSM_E_INVAL for a pointer this zone did not hand out. */
enum svsm_err buddy_free(struct buddy_zone *z, void *p);
/** Order of an allocated block, or -1 if @p is not one. */
int buddy_block_order(const struct buddy_zone *z, const void *p);
bool buddy_owns(const struct buddy_zone *z, const void *p);
/** The start of the order-@order block that contains @p. */
void *buddy_block_start(const struct buddy_zone *z, const void *p,
			unsigned order);

#endif /* SVSM_BUDDY_H */
