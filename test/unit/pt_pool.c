/* SPDX-License-Identifier: MIT */
#include "pt_pool.h"

#include <string.h>

static uint64_t pages[PT_POOL_PAGES][512];
static unsigned used, limit;

static uint64_t pool_alloc(void *ctx)
{
	(void)ctx;
	if (used == limit || used == PT_POOL_PAGES) {
		return 0;
	}
	memset(pages[used], 0, sizeof(pages[used]));
	return PT_POOL_BASE + (uint64_t)used++ * 4096;
}

uint64_t *pt_pool_table(uint64_t pa)
{
	return pages[(pa - PT_POOL_BASE) / 4096];
}

static uint64_t *pool_table(void *ctx, uint64_t pa)
{
	(void)ctx;
	return pt_pool_table(pa);
}

const struct pt_ops pt_pool_ops = {.alloc = pool_alloc, .table = pool_table};

void pt_pool_reset(unsigned max)
{
	used = 0;
	limit = max;
}

unsigned pt_pool_used(void)
{
	return used;
}
