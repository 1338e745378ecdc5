/* SPDX-License-Identifier: MIT */
#include "guest_mem.h"

#include "svsm/std.h"

#include "abi/igvm.h"
#include "abi/snp.h"

#include "model/igvm_reader.h"

#define SPAN_2M SNP_PAGE_SIZE_2M
#define PAGE SNP_PAGE_SIZE
/* The nested tables' shared alias is PML5 slot 0: 48 bits. */
#define GPA_LIMIT (1ull << 48)

_Static_assert(offsetof(struct igvm_page_data, gpa) == 0 &&
		       offsetof(struct igvm_parameter_insert, gpa) == 0 &&
		       offsetof(struct igvm_vp_context, gpa) == 0 &&
		       offsetof(struct igvm_required_memory, gpa) == 0,
	       "guest_mem_plan reads the GPA at offset 0");

/* Add [@gpa, @gpa + @len) to the plan's windows if it lies at or above
 * @total, merging 2 MiB spans that touch into one window. False: no room, or
 * beyond the machine's guest physical space. */
static bool add_range(struct guest_mem_plan *p, uint64_t total, uint64_t gpa,
		      uint64_t len, const char **why)
{
	uint64_t lo, hi;
	unsigned i;

	if (len == 0 || gpa >= GPA_LIMIT || len > GPA_LIMIT - gpa) {
		*why = "a page beyond the guest physical space";
		return false;
	}
	if (gpa + len <= total) {
		return true; /* RAM, unless RAM shrinks: checked later */
	}
	if (gpa < total) {
		*why = "a range straddling the end of RAM";
		return false;
	}
	lo = gpa & ~(SPAN_2M - 1);
	hi = (gpa + len + SPAN_2M - 1) & ~(SPAN_2M - 1);
	/* Absorb every window the range touches: a range may join two
	 * windows that were apart, which must not stay as two banks. */
	i = 0;
	while (i < p->windows) {
		struct rmp_bank *w = &p->window[i];
		uint64_t end = w->gpa + w->pages * PAGE;

		if (lo <= end && w->gpa <= hi) {
			lo = lo < w->gpa ? lo : w->gpa;
			hi = hi > end ? hi : end;
			p->window[i] = p->window[--p->windows];
			continue;
		}
		i++;
	}
	if (p->windows == GUEST_MEM_WINDOWS) {
		*why = "more separate ranges above RAM than the machine backs";
		return false;
	}
	p->window[p->windows++] = (struct rmp_bank){lo, (hi - lo) / PAGE, 0};
	return true;
}

/* The highest end of a range below @total (RAM the image uses). */
static void note_ram(uint64_t *top, uint64_t total, uint64_t gpa, uint64_t len)
{
	if (gpa + len <= total && gpa + len > *top) {
		*top = gpa + len;
	}
}

const char *guest_mem_plan(const uint8_t *img, size_t size, uint64_t total,
			   uint64_t max_low, struct guest_mem_plan *plan)
{
	struct igvm_file f;
	struct igvm_item it;
	uint32_t pos = 0;
	uint64_t used = 0, top = 0;
	const char *why = igvm_open(&f, img, size);
	unsigned i;

	memset(plan, 0, sizeof(*plan));
	if (why != NULL) {
		return why;
	}
	while (igvm_next(&f, &pos, &it, &why)) {
		uint64_t gpa, len;

		switch (it.type) {
		case IGVM_VHT_PAGE_DATA: {
			struct igvm_page_data d;

			memcpy(&d, it.body, sizeof(d));
			len = (d.flags & IGVM_PAGE_FLAG_2MB) != 0 ? SPAN_2M
								  : PAGE;
			break;
		}
		case IGVM_VHT_PARAMETER_INSERT:
		case IGVM_VHT_VP_CONTEXT:
			len = PAGE;
			break;
		case IGVM_VHT_REQUIRED_MEMORY: {
			struct igvm_required_memory d;

			memcpy(&d, it.body, sizeof(d));
			len = d.number_of_bytes;
			break;
		}
		default:
			continue;
		}
		/* Each of these begins with its GPA (checked below); the
		 * reader made sure the body holds the whole structure. */
		memcpy(&gpa, it.body, sizeof(gpa));
		if (!add_range(plan, total, gpa, len, &why)) {
			return why;
		}
		note_ram(&top, total, gpa, len);
	}
	if (why != NULL) {
		return why;
	}
	for (i = 0; i < plan->windows; i++) {
		used += plan->window[i].pages * PAGE;
	}
	if (used >= total) {
		return "its ranges above RAM need all the machine's memory";
	}
	plan->ram = total - used;
	if (plan->ram > max_low) {
		plan->ram_high = plan->ram - max_low;
		plan->ram = max_low;
		for (i = 0; i < plan->windows; i++) {
			const struct rmp_bank *w = &plan->window[i];

			if (w->gpa < GUEST_MEM_HIGH + plan->ram_high &&
			    GUEST_MEM_HIGH < w->gpa + w->pages * PAGE) {
				return "a range of it where RAM above 4 GiB "
				       "lies";
			}
		}
	}
	if (top > plan->ram) {
		return "it needs more RAM than the machine has left";
	}
	return NULL;
}
