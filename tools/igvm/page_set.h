/* SPDX-License-Identifier: MIT */
/*
 * The pages a measure-only launch has launched (page_set.c): what the
 * RMP remembers on a machine, so that csvsm-igvm refuses a page launched
 * twice as the PSP would.
 */
#ifndef TOOLS_IGVM_PAGE_SET_H
#define TOOLS_IGVM_PAGE_SET_H

#include <stdbool.h>
#include <stdint.h>

struct page_set {
	uint64_t *slot; /* page number + 1; 0: empty */
	uint64_t cap, used;
};

/** Add the page at @gpa; false if it was there (or no memory). */
bool page_set_add(struct page_set *s, uint64_t gpa);
void page_set_free(struct page_set *s);

#endif /* TOOLS_IGVM_PAGE_SET_H */
