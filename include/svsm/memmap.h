/* SPDX-License-Identifier: MIT */
/*
 * The guest-physical memory map as the loader described it: guest RAM ranges
 * and the SVSM region. Read-only after svsm_init().
 */
#ifndef SVSM_MEMMAP_H
#define SVSM_MEMMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "svsm/addr.h"
#include "svsm/err.h"

#define MEMMAP_MAX_RAM 8u

struct mem_range {
	gpa_t base;
	uint64_t size;
};

enum svsm_err memmap_init(const struct mem_range *ram, unsigned ram_count,
			  struct mem_range svsm);
/** [gpa, gpa+len) is non-empty, does not wrap, and lies in one RAM range. */
bool memmap_is_guest_ram(gpa_t gpa, uint64_t len);
/** The RAM range holding the byte at @gpa, in @r; false if none does. */
bool memmap_ram_range_of(gpa_t gpa, struct mem_range *r);
/** [gpa, gpa+len) intersects the SVSM region (len > 0, no wrap). */
bool memmap_overlaps_svsm(gpa_t gpa, uint64_t len);
struct mem_range memmap_svsm_region(void);
/** One past the highest guest RAM byte. */
uint64_t memmap_ram_top(void);

#endif /* SVSM_MEMMAP_H */
