/* SPDX-License-Identifier: MIT */
/* The SVSM's page-table policy on snp (svsm_pt.h). Threat T13: W^X. */
#include "svsm_pt.h"

#include <stddef.h>

static bool map_ram(struct pgtable *pt, uint64_t base, uint64_t end)
{
	return end <= base ||
	       pt_map(pt, base, base, end - base, PT_MAP_WRITE | PT_MAP_LARGE);
}

const char *snp_pt_build(struct pgtable *pt, const struct snp_pt_layout *l)
{
	unsigned i;

	if (l->text != l->region_base || l->text_end <= l->text ||
	    l->text_end > l->region_end) {
		return "the image's text is not at the start of its region";
	}
	if (!pt_map(pt, l->text, l->text, l->text_end - l->text, PT_MAP_EXEC) ||
	    !pt_map(pt, l->text_end, l->text_end, l->region_end - l->text_end,
		    PT_MAP_WRITE)) {
		return "cannot map the SVSM region";
	}
	for (i = 0; i < l->ram_count; i++) {
		uint64_t b = gpa_val(l->ram[i].base), e = b + l->ram[i].size;
		bool ok;

		/* snp_boot_info() checks the region lies inside one range;
		 * here it is only kept out of the guest-RAM mappings. */
		if (b < l->region_end && l->region_base < e) {
			ok = map_ram(pt, b,
				     l->region_base > b ? l->region_base : b) &&
			     map_ram(pt, l->region_end < e ? l->region_end : e,
				     e);
		} else {
			ok = map_ram(pt, b, e);
		}
		if (!ok) {
			return "cannot map guest RAM (out of table pages?)";
		}
	}
	return NULL;
}
