/* SPDX-License-Identifier: MIT */
/* An open-addressing hash set of page numbers (page_set.h). */
#include "page_set.h"

#include <stdlib.h>

static uint64_t *probe(uint64_t *slot, uint64_t cap, uint64_t key)
{
	uint64_t i = (key * 0x9E3779B97F4A7C15ull) & (cap - 1);

	while (slot[i] != 0 && slot[i] != key) {
		i = (i + 1) & (cap - 1);
	}
	return &slot[i];
}

static bool grow(struct page_set *s)
{
	uint64_t cap = s->cap != 0 ? s->cap * 2 : 1024, i;
	uint64_t *slot = calloc(cap, sizeof(*slot));

	if (slot == NULL) {
		return false;
	}
	for (i = 0; i < s->cap; i++) {
		if (s->slot[i] != 0) {
			*probe(slot, cap, s->slot[i]) = s->slot[i];
		}
	}
	free(s->slot);
	s->slot = slot;
	s->cap = cap;
	return true;
}

bool page_set_add(struct page_set *s, uint64_t gpa)
{
	uint64_t key = (gpa >> 12) + 1;
	uint64_t *e;

	if ((s->used + 1) * 2 > s->cap && !grow(s)) {
		return false;
	}
	e = probe(s->slot, s->cap, key);
	if (*e == key) {
		return false;
	}
	*e = key;
	s->used++;
	return true;
}

void page_set_free(struct page_set *s)
{
	free(s->slot);
	s->slot = NULL;
	s->cap = s->used = 0;
}
