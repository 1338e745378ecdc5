/* SPDX-License-Identifier: MIT */
/* A hosted pool of page-table pages for the page-table tests: "physical"
 * addresses from PT_POOL_BASE, reached through pt_pool_ops. */
#ifndef TEST_PT_POOL_H
#define TEST_PT_POOL_H

#include "../../src/arch/x86/pgtable.h"

#define PT_POOL_PAGES 64u
#define PT_POOL_BASE 0x7000000000ull

extern const struct pt_ops pt_pool_ops;

/** Empty the pool; at most @limit pages may be taken from it. */
void pt_pool_reset(unsigned limit);
/** How many pages were taken since the reset. */
unsigned pt_pool_used(void);
/** The table page at "physical" address @pa. */
uint64_t *pt_pool_table(uint64_t pa);

#endif /* TEST_PT_POOL_H */
