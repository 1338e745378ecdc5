/* SPDX-License-Identifier: MIT */
/*
 * The pool of pages the guest lent the SVSM (DEPOSIT_MEM), below the heap:
 * page_alloc() falls back on a free lent 4 KiB page when the heap is out,
 * and nothing here calls back up. One record per lent page holds its GPA,
 * its size and the SVSM's mapping while the heap uses it. Records come
 * from a reserve in the SVSM image first (the guest lends exactly when the
 * heap is exhausted), then from the heap's slab caches, then, as a page
 * the heap would have handed out, from a free lent page. Who owns a lent
 * GPA, and DEPOSIT/WITHDRAW, are core's (svsm/deposit.h).
 * Lock: lent_lock is a leaf lock; nothing allocates while holding it.
 */
#ifndef SVSM_LENT_H
#define SVSM_LENT_H

#include <stdbool.h>

#include "svsm/addr.h"
#include "svsm/err.h"

struct slab_allocator;
struct spinlock;

/** Forget every lent page (start-up, before the heap exists). */
void lent_reset(void);
/** The heap's slab caches and their lock, for records (mem_init()). */
void lent_use_heap(struct slab_allocator *slab, struct spinlock *lock);
/** Add a page the caller has already made VMPL0-only. */
enum svsm_err lent_add(gpa_t gpa, enum page_size size);
/** Remove one page the heap is not using; false if none is free. */
bool lent_take_free(gpa_t *gpa, enum page_size *size);
bool lent_has_free(void);
/** A free lent 4 KiB page, mapped; NULL if none (page_alloc()). */
void *lent_alloc_page(void);
void lent_free_page(void *va);
gpa_t lent_page_gpa(const void *va);

#endif /* SVSM_LENT_H */
