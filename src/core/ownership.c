/* SPDX-License-Identifier: MIT */
#include "svsm/ownership.h"

#include "svsm/check.h"
#include "svsm/deposit.h"
#include "svsm/memmap.h"
#include "svsm/overflow.h"
#include "svsm/owner_lock.h"
#include "svsm/vcpu.h"

bool owner_is_guest_accessible(gpa_t gpa, uint64_t len)
{
	/* is_guest_ram() first: it rejects empty and wrapping ranges. */
	return memmap_is_guest_ram(gpa, len) &&
	       !memmap_overlaps_svsm(gpa, len) &&
	       !vcpu_overlaps_vmsa(gpa, len) && !deposit_overlaps(gpa, len);
}

bool owner_overlaps_caa_control(gpa_t gpa, uint64_t len)
{
	return vcpu_overlaps_caa_control(gpa, len);
}

bool owner_is_guest_page_free(gpa_t gpa, uint64_t len)
{
	return owner_is_guest_accessible(gpa, len) &&
	       !vcpu_overlaps_caa(gpa, len);
}

/* Fill @w with the largest window around @at: in @at's RAM range, clear
 * of the SVSM region, every VMSA and every CA; false if @at is in none or
 * in one of them. */
static bool window_find(struct owner_window *w, uint64_t at)
{
	struct mem_range ram = {0};
	struct mem_range svsm = memmap_svsm_region();
	uint64_t s = gpa_val(svsm.base);
	uint64_t lo = 0;
	uint64_t end = 0;

	w->is_set = false;
	if (!memmap_ram_range_of(gpa_init(at), &ram)) {
		return false;
	}
	lo = gpa_val(ram.base);
	end = lo + ram.size; /* memmap_init() refused a wrapping range */
	if (s + svsm.size <= at) {
		lo = s + svsm.size > lo ? s + svsm.size : lo;
	} else if (s > at) {
		end = s < end ? s : end;
	} else {
		return false;
	}
	if (!vcpu_clip_window(at, &lo, &end)) {
		return false;
	}
	w->lo = lo;
	w->end = end;
	w->epoch = owner_lock_epoch();
	w->is_set = true;
	return true;
}

static bool window_holds(const struct owner_window *w, uint64_t start,
			 uint64_t end)
{
	return w->is_set && w->epoch == owner_lock_epoch() && start >= w->lo &&
	       end <= w->end;
}

bool owner_is_guest_page_free_in(struct owner_window *w, gpa_t gpa,
				 uint64_t len)
{
	uint64_t end = 0;

	CHECK(owner_lock_held());
	/* T01: the window only ever answers yes where the full check would:
	 * it lies in one RAM range and clear of every SVSM page, VMSA and CA
	 * as they are under this hold. Anything outside it is checked in
	 * full. */
	if (len == 0 || !add_ok_u64(gpa_val(gpa), len, &end)) {
		return false;
	}
	if (!window_holds(w, gpa_val(gpa), end) &&
	    (!window_find(w, gpa_val(gpa)) ||
	     !window_holds(w, gpa_val(gpa), end))) {
		return owner_is_guest_page_free(gpa, len);
	}
	return !deposit_overlaps(gpa, len);
}

bool owner_caa_ok(gpa_t caa, uint32_t apic_id)
{
	return owner_is_guest_accessible(caa, SNP_PAGE_SIZE) &&
	       !vcpu_caa_used_by_other_apic(caa, apic_id);
}
