/* SPDX-License-Identifier: MIT */
/*
 * Page state changes: the MSR protocol's one page and the NAE's PSC
 * buffer (spec notes 7.4), as KVM's snp_begin_psc() checks and does them:
 * RMPUPDATE to private or shared, a 4 KiB change inside a 2 MiB entry
 * PSMASHing it first (rmp_hv_page_state), a 2 MiB entry 2 MiB-aligned.
 * KVM may stop early: cur_entry, and each entry's cur_page, say how far
 * it got. Threats: the buffer is the guest's and may change under the
 * model, so the header and each entry are read once; every GFN is
 * checked against RAM (40 bits: no sum wraps).
 */
#include "abi/snp.h"

#include "model/snpmodel.h"

#include "kvm_internal.h"

#define PAGES_2M 512u
#define PSC_ERR_HEADER ((1ull << 32) | 1) /* KVM's PSC_INVALID_HDR */
#define PSC_ERR_ENTRY ((1ull << 32) | 2)  /* PSC_INVALID_ENTRY */
#define PSC_ERR_GENERIC (0x100ull << 32)

/* One RMPUPDATE (after a PSMASH if needed); the machine re-syncs what
 * changed. */
static bool psc_update(struct kvm *k, uint64_t gpa, bool size_2m,
		       bool to_private)
{
	uint64_t base = gpa & ~(SNP_PAGE_SIZE_2M - 1);
	const struct rmp_entry *e;
	bool was_2m;
	enum snp_ret rc;

	if (!rmp_backed(k->rmp, gpa,
			size_2m ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE)) {
		return false;
	}
	k->ops->rmp_lock(k);
	e = rmp_lookup(k->rmp, gpa);
	was_2m = e != NULL && (e->flags & RMP_F_SIZE_2M) != 0;
	rc = rmp_hv_page_state(k->rmp, gpa, size_2m, to_private);
	k->ops->rmp_unlock(k);
	if (was_2m || size_2m) {
		k->ops->rmp_changed(k, base, SNP_PAGE_SIZE_2M);
	} else {
		k->ops->rmp_changed(k, gpa, SNP_PAGE_SIZE);
	}
	return rc == SNP_RET_SUCCESS;
}

static bool psc_op_ok(unsigned op)
{
	return op == GHCB_PSC_OP_PRIVATE || op == GHCB_PSC_OP_SHARED;
}

uint64_t kvm_psc_msr(struct kvm *k, uint64_t gfn, unsigned op)
{
	uint64_t gpa = gfn << 12;

	if (k->behaviour == KVM_PSC_LIE) {
		kvm_lie(k, "page-state change reports success, does nothing");
		return 0;
	}
	if (k->behaviour == KVM_PSC_WRONG_PAGE) {
		kvm_lie(k, "page-state change of the next page instead");
		gpa += SNP_PAGE_SIZE;
	}
	if (!psc_op_ok(op)) {
		return 1;
	}
	return psc_update(k, gpa, false, op == GHCB_PSC_OP_PRIVATE) ? 0 : 1;
}

/* One entry from its cur_page on; false on a failed page. *done is
 * where it got (the entry's new cur_page). */
static bool psc_entry(struct kvm *k, uint64_t gfn, unsigned op, bool big,
		      unsigned *done)
{
	unsigned n = big ? PAGES_2M : 1;

	/* A whole 2 MiB entry at once if the RMP allows it, else page by
	 * page (KVM does either, as its memory's folios go). */
	if (big && *done == 0 && k->behaviour == KVM_PSC_LIE) {
		kvm_lie(k, "page-state change reports success, does nothing");
		*done = n;
		return true;
	}
	if (big && *done == 0 && k->behaviour != KVM_PSC_WRONG_PAGE &&
	    psc_update(k, gfn << 12, true, op == GHCB_PSC_OP_PRIVATE)) {
		*done = n;
		return true;
	}
	for (; *done < n; ++*done) {
		if (kvm_psc_msr(k, gfn + *done, op) != 0) {
			return false;
		}
	}
	return true;
}

/* The PSC buffer at sw_scratch, inside the shared buffer: its header and
 * entries, at most 253. */
void kvm_nae_psc(struct kvm *k, struct kvm_ghcb *g, struct kvm_reply *r)
{
	unsigned budget = k->behaviour == KVM_PSC_PARTIAL ? 3 : 253;
	uint8_t *buf = kvm_scratch(g, GHCB_PSC_HDR_SIZE + 8);
	uint64_t room;
	uint16_t cur, end;

	kvm_count(&k->stats.psc_calls);
	if (buf == NULL) {
		kvm_malformed(r, GHCB_ERR_INVALID_SCRATCH);
		return;
	}
	/* Bytes from buf to the end of the shared buffer. */
	room = (uint64_t)(g->page + GHCB_OFF_SHARED_BUFFER +
			  GHCB_SHARED_BUFFER_SIZE - buf);
	memcpy(&cur, buf, 2);
	memcpy(&end, buf + 2, 2);
	if (end >= GHCB_PSC_MAX_ENTRIES ||
	    GHCB_PSC_HDR_SIZE + 8ull * (end + 1u) > room) {
		r->info2 = PSC_ERR_HEADER;
		return;
	}
	if (k->behaviour == KVM_PSC_STALL) {
		kvm_lie(k, "page-state change returns with nothing done");
		return; /* back at once, nothing done */
	}
	if (k->behaviour == KVM_PSC_BACKWARDS) {
		kvm_lie(k, "page-state change moves cur_entry backwards");
		cur = cur == 0 && end > 0 ? 1 : 0; /* one "done", then back */
		memcpy(buf, &cur, 2);
		return;
	}
	if (k->behaviour == KVM_PSC_PARTIAL && end - cur >= 3) {
		kvm_lie(k, "page-state change of 3 entries only (honest: "
			   "the guest must call again)");
	}
	while (cur <= end && budget-- > 0) {
		uint8_t *slot = buf + GHCB_PSC_HDR_SIZE + (size_t)8 * cur;
		uint64_t e;
		unsigned done;
		bool big;

		memcpy(&e, slot, 8); /* the one read of the entry */
		big = GHCB_PSC_ENTRY_2M(e) != 0;
		done = (unsigned)GHCB_PSC_ENTRY_CUR_PAGE(e);
		if (done > (big ? PAGES_2M : 1) ||
		    (big && GHCB_PSC_ENTRY_GFN(e) % PAGES_2M != 0) ||
		    !psc_op_ok((unsigned)GHCB_PSC_ENTRY_OP(e))) {
			r->info2 = PSC_ERR_ENTRY;
			break;
		}
		if (!psc_entry(k, GHCB_PSC_ENTRY_GFN(e),
			       (unsigned)GHCB_PSC_ENTRY_OP(e), big, &done)) {
			r->info2 = PSC_ERR_ENTRY;
		}
		e = (e & ~0xFFFull) | done;
		memcpy(slot, &e, 8);
		if (r->info2 != 0) {
			break;
		}
		cur++;
	}
	memcpy(buf, &cur, 2);
	if (k->behaviour == KVM_FLIP_SHARED) {
		kvm_lie(k, "a GFN of the PSC buffer flipped during the call");
		/* After reading the request: a GFN bit of entry 0 flips. */
		buf[GHCB_PSC_HDR_SIZE + 1] ^= 0xF0;
	}
	if (k->behaviour == KVM_PSC_ERROR && r->info2 == 0) {
		kvm_lie(k, "page-state change (GHCB page) reports an error "
			   "after doing it");
		r->info2 = PSC_ERR_GENERIC;
	}
}
