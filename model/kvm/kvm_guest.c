/* SPDX-License-Identifier: MIT */
/*
 * The model's checked ways into guest memory and its GHCB copy. Threat:
 * every GPA and every GHCB field comes from the guest; a page is touched
 * only once it is known to be RAM and, for a write, shared in the RMP.
 */
#include "abi/snp.h"

#include "model/snpmodel.h"

#include "kvm_internal.h"

uint64_t kvm_ghcb_val(const struct kvm_ghcb *g, unsigned off)
{
	uint64_t v;

	if (!kvm_ghcb_has(g, off)) {
		return 0;
	}
	memcpy(&v, g->save + off, sizeof(v));
	return v;
}

bool kvm_ghcb_has(const struct kvm_ghcb *g, unsigned off)
{
	return ghcb_page_is_valid(g->save, off);
}

void kvm_malformed(struct kvm_reply *r, uint64_t err)
{
	r->info1 = GHCB_RESULT_MALFORMED;
	r->info2 = err;
	r->write = 0;
}

uint8_t *kvm_scratch(const struct kvm_ghcb *g, uint64_t len)
{
	uint64_t base = g->gpa + GHCB_OFF_SHARED_BUFFER;
	uint64_t scratch = kvm_ghcb_val(g, GHCB_OFF_SW_SCRATCH);
	uint64_t off;

	/* Within the shared buffer only (KVM also takes a buffer outside
	 * the GHCB; no client here needs one). */
	if (!kvm_ghcb_has(g, GHCB_OFF_SW_SCRATCH) || scratch < base ||
	    len > GHCB_SHARED_BUFFER_SIZE) {
		return NULL;
	}
	off = scratch - base;
	if (off > GHCB_SHARED_BUFFER_SIZE - len) {
		return NULL;
	}
	return g->page + GHCB_OFF_SHARED_BUFFER + off;
}

bool kvm_memory(const struct kvm *k, uint64_t gpa)
{
	return rmp_lookup(k->rmp, gpa) != NULL;
}

bool kvm_ram_page(const struct kvm *k, uint64_t gpa)
{
	return gpa % SNP_PAGE_SIZE == 0 &&
	       rmp_backed(k->rmp, gpa, SNP_PAGE_SIZE);
}

uint8_t *kvm_shared_page(struct kvm *k, uint64_t gpa)
{
	bool shared;

	if (!kvm_ram_page(k, gpa)) {
		return NULL;
	}
	k->ops->rmp_lock(k);
	shared = rmp_check_shared_access(k->rmp, gpa) == RMP_ACCESS_OK;
	k->ops->rmp_unlock(k);
	return shared ? k->ops->page(k, gpa) : NULL;
}

bool kvm_rmp_has(struct kvm *k, uint64_t gpa, unsigned flags)
{
	const struct rmp_entry *e;
	bool has;

	if (!kvm_ram_page(k, gpa)) {
		return false;
	}
	k->ops->rmp_lock(k);
	e = rmp_lookup(k->rmp, gpa);
	has = e != NULL && (e->flags & flags) == flags;
	k->ops->rmp_unlock(k);
	return has;
}

void kvm_kill(struct kvm *k, struct kvm_vcpu *v)
{
	kvm_count(&k->stats.terminations);
	k->ops->terminate(k, v, 0, 0);
}

struct kvm_vcpu *kvm_vcpu_by_apic(struct kvm *k, uint32_t apic_id)
{
	unsigned i;

	for (i = 0; k->vcpus != NULL && i < k->nr_vcpus; i++) {
		if (k->vcpus[i].apic_id == apic_id) {
			return &k->vcpus[i];
		}
	}
	return NULL;
}
