/* SPDX-License-Identifier: MIT */
#include "svsm/memmap.h"

#include "svsm/overflow.h"

static struct mem_range ram_ranges[MEMMAP_MAX_RAM];
static unsigned ram_range_count;
static struct mem_range svsm_region;

/** Record the map; ranges must be page aligned and must not wrap. */
enum svsm_err memmap_init(const struct mem_range *ram, unsigned ram_count,
			  struct mem_range svsm)
{
	uint64_t end;
	unsigned i;

	if (ram_count == 0 || ram_count > MEMMAP_MAX_RAM ||
	    !gpa_is_aligned(svsm.base, SNP_PAGE_SIZE) || svsm.size == 0 ||
	    (svsm.size & (SNP_PAGE_SIZE - 1)) != 0 ||
	    !add_ok_u64(gpa_val(svsm.base), svsm.size, &end)) {
		return SVSM_E_INVAL;
	}
	for (i = 0; i < ram_count; i++) {
		if (!gpa_is_aligned(ram[i].base, SNP_PAGE_SIZE) ||
		    ram[i].size == 0 ||
		    (ram[i].size & (SNP_PAGE_SIZE - 1)) != 0 ||
		    !add_ok_u64(gpa_val(ram[i].base), ram[i].size, &end)) {
			return SVSM_E_INVAL;
		}
		ram_ranges[i] = ram[i];
	}
	ram_range_count = ram_count;
	svsm_region = svsm;
	return SVSM_OK;
}

bool memmap_is_guest_ram(gpa_t gpa, uint64_t len)
{
	uint64_t end;
	unsigned i;

	if (len == 0 || !add_ok_u64(gpa_val(gpa), len, &end)) {
		return false;
	}
	for (i = 0; i < ram_range_count; i++) {
		uint64_t b = gpa_val(ram_ranges[i].base);

		if (gpa_val(gpa) >= b && end <= b + ram_ranges[i].size) {
			return true;
		}
	}
	return false;
}

bool memmap_ram_range_of(gpa_t gpa, struct mem_range *r)
{
	unsigned i;

	for (i = 0; i < ram_range_count; i++) {
		uint64_t b = gpa_val(ram_ranges[i].base);

		if (gpa_val(gpa) >= b &&
		    gpa_val(gpa) - b < ram_ranges[i].size) {
			*r = ram_ranges[i];
			return true;
		}
	}
	return false;
}

bool memmap_overlaps_svsm(gpa_t gpa, uint64_t len)
{
	return ranges_overlap(gpa_val(gpa), len, gpa_val(svsm_region.base),
			      svsm_region.size);
}

struct mem_range memmap_svsm_region(void)
{
	return svsm_region;
}

uint64_t memmap_ram_top(void)
{
	uint64_t top = 0;
	unsigned i;

	for (i = 0; i < ram_range_count; i++) {
		uint64_t end = gpa_val(ram_ranges[i].base) + ram_ranges[i].size;

		if (end > top) {
			top = end;
		}
	}
	return top;
}
