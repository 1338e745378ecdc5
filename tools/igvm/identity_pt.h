/* SPDX-License-Identifier: MIT */
/*
 * Page tables csvsm-igvm puts into an image: a range identity-mapped with
 * 2 MiB private pages (writable, executable), built by the firmware's own
 * builder (src/arch/x86/pgtable.c) into pages that will sit at
 * consecutive GPAs, the PML4 first.
 */
#ifndef TOOLS_IGVM_IDENTITY_PT_H
#define TOOLS_IGVM_IDENTITY_PT_H

#include <stdbool.h>
#include <stdint.h>

#define IDENTITY_PT_MAX 8u

struct identity_pt {
	uint64_t gpa;			      /* where pages[0] goes */
	uint64_t pages[IDENTITY_PT_MAX][512]; /* PML4, then in build order */
	unsigned used;
};

/**
 * Map [@base, @base + @size) (2 MiB aligned) into @pt's pages, to be
 * loaded at @gpa, with C-bit @cbit. False if it needs more than
 * IDENTITY_PT_MAX pages.
 */
bool identity_pt_build(struct identity_pt *pt, uint64_t gpa, uint64_t base,
		       uint64_t size, unsigned cbit);

#endif /* TOOLS_IGVM_IDENTITY_PT_H */
