/* SPDX-License-Identifier: MIT */
/*
 * Slab caches. A slab block is 2^order pages from the buddy zone: a 128-byte
 * header, then capacity objects. Empty slabs go back to the buddy zone.
 */
#include "svsm/slab.h"

#include "svsm/std.h"

#define SLAB_MAGIC 0x534c4142u /* "SLAB" */
#define SLAB_HDR_SIZE 128u
#define SLAB_MIN_OBJECTS 4u
#define SLAB_MAX_ORDER 3u

struct slab {
	uint32_t magic;
	uint32_t in_use;
	struct slab_cache *cache;
	struct slab *next;
	struct slab *prev;
	uint64_t bitmap[SLAB_MAX_OBJECTS / 64]; /* 1 = allocated */
};

_Static_assert(sizeof(struct slab) <= SLAB_HDR_SIZE, "slab header fits");

uint32_t slab_class_size(size_t size)
{
	uint32_t s = SLAB_MIN_SIZE;

	if (size == 0 || size > SLAB_MAX_SIZE) {
		return 0;
	}
	while (s < size) {
		s <<= 1;
	}
	return s;
}

static unsigned class_index(uint32_t size)
{
	unsigned i = 0;

	while ((SLAB_MIN_SIZE << i) < size) {
		i++;
	}
	return i;
}

void slab_init(struct slab_allocator *sa, struct buddy_zone *zone)
{
	unsigned i;

	memset(sa, 0, sizeof(*sa));
	sa->zone = zone;
	for (i = 0; i < SLAB_CLASS_COUNT; i++) {
		struct slab_cache *c = &sa->cache[i];
		uint32_t order = 0;
		uint32_t cap;

		c->obj_size = SLAB_MIN_SIZE << i;
		for (;;) {
			cap = ((BUDDY_PAGE_SIZE << order) - SLAB_HDR_SIZE) /
			      c->obj_size;
			if (cap >= SLAB_MIN_OBJECTS ||
			    order == SLAB_MAX_ORDER) {
				break;
			}
			order++;
		}
		c->order = order;
		c->capacity = cap < SLAB_MAX_OBJECTS ? cap : SLAB_MAX_OBJECTS;
	}
}

static void slab_unlink(struct slab **head, struct slab *s)
{
	if (s->prev != NULL) {
		s->prev->next = s->next;
	} else {
		*head = s->next;
	}
	if (s->next != NULL) {
		s->next->prev = s->prev;
	}
	s->next = NULL;
	s->prev = NULL;
}

static void slab_link(struct slab **head, struct slab *s)
{
	s->prev = NULL;
	s->next = *head;
	if (*head != NULL) {
		(*head)->prev = s;
	}
	*head = s;
}

static struct slab *slab_grow(struct slab_allocator *sa, struct slab_cache *c)
{
	struct slab *s = buddy_alloc(sa->zone, c->order);

	if (s == NULL) {
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->magic = SLAB_MAGIC;
	s->cache = c;
	slab_link(&c->partial, s);
	c->slab_count++;
	return s;
}

void *slab_alloc(struct slab_allocator *sa, size_t size)
{
	uint32_t cls = slab_class_size(size);
	struct slab_cache *c;
	struct slab *s;
	uint32_t i;

	if (cls == 0) {
		return NULL;
	}
	c = &sa->cache[class_index(cls)];
	s = c->partial != NULL ? c->partial : slab_grow(sa, c);
	if (s == NULL) {
		return NULL;
	}
	for (i = 0; i < c->capacity; i++) {
		if ((s->bitmap[i / 64] & (1ull << (i % 64))) == 0) {
			break;
		}
	}
	s->bitmap[i / 64] |= 1ull << (i % 64);
	s->in_use++;
	c->objects_in_use++;
	if (s->in_use == c->capacity) {
		slab_unlink(&c->partial, s);
		slab_link(&c->full, s);
	}
	return (uint8_t *)s + SLAB_HDR_SIZE + (size_t)i * c->obj_size;
}

/* The slab header for @p, or NULL if @p cannot be a slab object. */
static struct slab *slab_of(struct slab_allocator *sa, const void *p)
{
	unsigned i;

	if (!buddy_owns(sa->zone, p)) {
		return NULL;
	}
	/* Try each block size a cache may use; the header must agree. */
	for (i = 0; i <= SLAB_MAX_ORDER; i++) {
		struct slab *s = buddy_block_start(sa->zone, p, i);

		if (buddy_block_order(sa->zone, s) == (int)i &&
		    s->magic == SLAB_MAGIC && s->cache != NULL &&
		    s->cache >= &sa->cache[0] &&
		    s->cache < &sa->cache[SLAB_CLASS_COUNT] &&
		    s->cache->order == i) {
			return s;
		}
	}
	return NULL;
}

enum svsm_err slab_free(struct slab_allocator *sa, void *p)
{
	struct slab *s = slab_of(sa, p);
	struct slab_cache *c;
	uintptr_t off;
	uint32_t i;

	if (s == NULL) {
		return SVSM_E_INVAL;
	}
	c = s->cache;
	off = (uintptr_t)p - (uintptr_t)s;
	if (off < SLAB_HDR_SIZE || (off - SLAB_HDR_SIZE) % c->obj_size != 0) {
		return SVSM_E_INVAL;
	}
	i = (uint32_t)((off - SLAB_HDR_SIZE) / c->obj_size);
	if (i >= c->capacity || (s->bitmap[i / 64] & (1ull << (i % 64))) == 0) {
		return SVSM_E_INVAL; /* double free or past the last object */
	}
	s->bitmap[i / 64] &= ~(1ull << (i % 64));
	if (s->in_use == c->capacity) {
		slab_unlink(&c->full, s);
		slab_link(&c->partial, s);
	}
	s->in_use--;
	c->objects_in_use--;
	if (s->in_use == 0) {
		slab_unlink(&c->partial, s);
		s->magic = 0;
		c->slab_count--;
		return buddy_free(sa->zone, s);
	}
	return SVSM_OK;
}
