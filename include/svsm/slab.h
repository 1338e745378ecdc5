/* SPDX-License-Identifier: MIT */
/*
 * Slab caches for small objects, 16 bytes to 2 KiB in power-of-two size
 * classes, carved from buddy blocks (the seed Linux SVSM design: slabs up to
 * 2 KiB, pages beyond). Each slab block starts with a header holding a magic,
 * its cache and an allocation bitmap, so a double free or a pointer the
 * cache never handed out is detected rather than corrupting a free list.
 */
#ifndef SVSM_SLAB_H
#define SVSM_SLAB_H

#include <stddef.h>
#include <stdint.h>

#include "svsm/buddy.h"
#include "svsm/err.h"

#define SLAB_MIN_SIZE 16u
#define SLAB_MAX_SIZE 2048u
#define SLAB_CLASS_COUNT 8u /* 16, 32, ..., 2048 */
#define SLAB_MAX_OBJECTS 256u

struct slab;

struct slab_cache {
	uint32_t obj_size;
	uint32_t order; /* buddy order of each slab block */
	uint32_t capacity;
	struct slab *partial; /* slabs with at least one free object */
	struct slab *full;
	uint64_t objects_in_use;
	uint64_t slab_count;
};

struct slab_allocator {
	struct buddy_zone *zone;
	struct slab_cache cache[SLAB_CLASS_COUNT];
};

void slab_init(struct slab_allocator *sa, struct buddy_zone *zone);
/** An object of at least @size bytes (1..SLAB_MAX_SIZE), or NULL. */
void *slab_alloc(struct slab_allocator *sa, size_t size);
/** SVSM_E_INVAL for a double free or a pointer not from this allocator. */
enum svsm_err slab_free(struct slab_allocator *sa, void *p);
/** The size class used for @size, or 0 if none fits. */
uint32_t slab_class_size(size_t size);

#endif /* SVSM_SLAB_H */
