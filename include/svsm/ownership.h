/* SPDX-License-Identifier: MIT */
/*
 * Who owns a guest-physical range. Two questions, answered in one place:
 * - may the SVSM touch it on the guest's behalf (guestmem)? Not if any byte
 *   is SVSM-private: the SVSM region, a live VMSA, a deposited page.
 * - may a guest request name it as a page to act on (PVALIDATE, CREATE_VCPU,
 *   REMAP_CA, DEPOSIT_MEM)? Not if it is SVSM-private or a live Calling Area.
 * Both also require the range to be guest RAM without wrap-around.
 * Every answer holds only while the ownership lock (svsm/owner_lock.h) is
 * held: take it before asking, and keep it until the answer is used.
 */
#ifndef SVSM_OWNERSHIP_H
#define SVSM_OWNERSHIP_H

#include <stdbool.h>
#include <stddef.h>

#include "svsm/addr.h"

bool owner_is_guest_accessible(gpa_t gpa, uint64_t len);
bool owner_is_guest_page_free(gpa_t gpa, uint64_t len);

/**
 * A cached answer for a walk over many ranges (a PVALIDATE list): a
 * window [lo, end) of one RAM range in which no byte is the SVSM's, a
 * live VMSA or a Calling Area, found under the ownership-lock hold
 * numbered @epoch. It is used only under that same hold, whose holder
 * changes no ownership meanwhile. Deposited pages are not in it: they are
 * checked on every ask. Zero-initialise it; the first ask fills it.
 */
struct owner_window {
	uint64_t lo;
	uint64_t end;
	uint64_t epoch;
	bool is_set;
};

/**
 * owner_is_guest_page_free(), answered from @w when the range lies in
 * it, else found afresh (and @w moved to the range). The same answer
 * either way; the caller holds the ownership lock.
 */
bool owner_is_guest_page_free_in(struct owner_window *w, gpa_t gpa,
				 uint64_t len);
/**
 * Does [gpa, gpa+len) touch the control bytes (call_pending, mem_available,
 * reserved: the first 8) of a live Calling Area? Parameter and output
 * buffers may use a CA's buffer, never its control bytes (T09).
 */
bool owner_overlaps_caa_control(gpa_t gpa, uint64_t len);
/**
 * May the page at @caa become a Calling Area of a vCPU with @apic_id
 * (CREATE_VCPU, REMAP_CA)? It must be guest-accessible and no other APIC
 * ID's CA. It may already be the CA of a VMSA of the same APIC ID: Linux
 * re-onlines a CPU by creating a new VMSA with the CA the old one still
 * has, and deletes the old one only afterwards (wakeup_cpu_via_vmgexit).
 */
bool owner_caa_ok(gpa_t caa, uint32_t apic_id);

#endif /* SVSM_OWNERSHIP_H */
