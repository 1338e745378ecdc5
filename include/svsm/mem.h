/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's own memory: one buddy zone over the heap in the SVSM region,
 * slab caches on top, and pages the guest lent with DEPOSIT_MEM as a
 * fallback when the heap runs out. Everything handed out here is
 * SVSM-private (VMPL0 only).
 */
#ifndef SVSM_MEM_H
#define SVSM_MEM_H

#include <stddef.h>

#include "svsm/addr.h"
#include "svsm/buddy.h"
#include "svsm/err.h"

enum svsm_err mem_init(void *heap, size_t bytes, gpa_t heap_gpa);
/** 2^order zeroed pages, or NULL. Order 0 may come from deposited memory. */
void *page_alloc(unsigned order);
void page_free(void *p);
/** A zeroed object of up to SLAB_MAX_SIZE bytes, or NULL. */
void *obj_alloc(size_t size);
void obj_free(void *p);
/** The GPA of memory page_alloc() handed out. */
gpa_t page_to_gpa(const void *p);
/** Free 4 KiB pages in the heap (deposited memory not counted). */
uint64_t mem_heap_free_pages(void);

#endif /* SVSM_MEM_H */
