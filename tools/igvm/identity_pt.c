/* SPDX-License-Identifier: MIT */
#include "identity_pt.h"

#include <stdbool.h>
#include <string.h>

#include "../../src/arch/x86/pgtable.h"

static uint64_t alloc(void *ctx)
{
	struct identity_pt *pt = ctx;

	if (pt->used == IDENTITY_PT_MAX) {
		return 0;
	}
	memset(pt->pages[pt->used], 0, sizeof(pt->pages[0]));
	return pt->gpa + (uint64_t)pt->used++ * sizeof(pt->pages[0]);
}

static uint64_t *table(void *ctx, uint64_t pa)
{
	struct identity_pt *pt = ctx;

	return pt->pages[(pa - pt->gpa) / sizeof(pt->pages[0])];
}

bool identity_pt_build(struct identity_pt *pt, uint64_t gpa, uint64_t base,
		       uint64_t size, unsigned cbit)
{
	struct pt_ops ops = {.alloc = alloc, .table = table, .ctx = pt};
	struct pgtable t;

	pt->gpa = gpa;
	pt->used = 0;
	return pt_init(&t, &ops, 1ull << cbit) &&
	       pt_map(&t, base, base, size,
		      PT_MAP_WRITE | PT_MAP_EXEC | PT_MAP_LARGE);
}
