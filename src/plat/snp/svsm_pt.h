/* SPDX-License-Identifier: MIT */
/*
 * What the SVSM maps on snp, and how (svsm_pt.c): the policy of its page
 * tables, apart from where their pages come from (hw/paging.c on
 * hardware, a hosted pool in the unit test).
 */
#ifndef SNP_SVSM_PT_H
#define SNP_SVSM_PT_H

#include <stdint.h>

#include "svsm/memmap.h"

#include "../../arch/x86/pgtable.h"

struct snp_pt_layout {
	uint64_t text, text_end;	  /* the image's code: page aligned */
	uint64_t region_base, region_end; /* the SVSM region */
	const struct mem_range *ram;	  /* RAM, with the launched firmware */
	unsigned ram_count;
};

/**
 * Fill @pt (empty, its enc_mask the C-bit): identity mappings, all
 * private. The SVSM region with 4 KiB pages (so single pages can be made
 * shared): its text read-only and executable, the rest read-write and
 * no-execute. Every RAM range outside the region read-write, no-execute,
 * with 2 MiB pages where aligned. Nothing else. NULL, or what could not
 * be mapped (out of table pages, or a layout that makes no sense).
 */
const char *snp_pt_build(struct pgtable *pt, const struct snp_pt_layout *l);

#endif /* SNP_SVSM_PT_H */
