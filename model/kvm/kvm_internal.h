/* SPDX-License-Identifier: MIT */
/*
 * Inside the KVM model: the one copy of a guest's GHCB, the reply being
 * built, and the checked ways to reach guest memory. Invariant: a value
 * the guest wrote is read from its page once, into struct kvm_ghcb or a
 * local, and only that copy is checked and used.
 */
#ifndef KVMMODEL_KVM_INTERNAL_H
#define KVMMODEL_KVM_INTERNAL_H

#include "svsm/std.h"

#include "abi/ghcb.h"

#include "model/kvm.h"

/* The GHCB of one NAE event, as read once from the shared page. */
struct kvm_ghcb {
	uint8_t save[GHCB_SAVE_AREA_END]; /* save area and valid bitmap */
	uint32_t usage;
	uint64_t gpa;  /* the registered, shared GHCB page */
	uint8_t *page; /* its host mapping: replies, the shared buffer */
	unsigned vmpl; /* the caller's */
};

/* Registers a reply writes (KVM_R_*), and which of them it marks. */
#define KVM_R_RAX 0x1u
#define KVM_R_RBX 0x2u
#define KVM_R_RCX 0x4u
#define KVM_R_RDX 0x8u

struct kvm_reply {
	uint64_t info1, info2;
	uint64_t rax, rbx, rcx, rdx;
	unsigned write;	 /* KVM_R_*: written and marked valid */
	unsigned unmark; /* KVM_R_*: written, valid bit left clear (a lie) */
};

/* One more event in a stats counter (vCPUs may count at once). */
static inline void kvm_count(unsigned *counter)
{
	__atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED);
}

/* The model lies now (k->behaviour): tell the embedder @what. */
static inline void kvm_lie(const struct kvm *k, const char *what)
{
	if (k->ops->lie != NULL) {
		k->ops->lie(k, what);
	}
}

/* The copy's field at @off (0 if not marked valid) and its valid bit. */
uint64_t kvm_ghcb_val(const struct kvm_ghcb *g, unsigned off);
bool kvm_ghcb_has(const struct kvm_ghcb *g, unsigned off);
/* Result 2 with @err (GHCB_ERR_*): the guest's request was malformed. */
void kvm_malformed(struct kvm_reply *r, uint64_t err);
/*
 * The host mapping of the shared-buffer span [@scratch, @scratch + @len)
 * of @g's page, or NULL if sw_scratch is not marked or the span is not
 * inside the shared buffer.
 */
uint8_t *kvm_scratch(const struct kvm_ghcb *g, uint64_t len);

/* Whether @gpa is guest memory (in one of the RMP's banks): not MMIO. */
bool kvm_memory(const struct kvm *k, uint64_t gpa);
/* Page aligned and in a bank of guest memory (the RMP's banks). */
bool kvm_ram_page(const struct kvm *k, uint64_t gpa);
/* The host mapping of a page-aligned page of RAM that the RMP says is
 * shared (hypervisor-owned), else NULL. */
uint8_t *kvm_shared_page(struct kvm *k, uint64_t gpa);
/* Whether the RMP entry of @gpa (in RAM) has every flag of @flags. */
bool kvm_rmp_has(struct kvm *k, uint64_t gpa, unsigned flags);
/* KVM ends the guest (set 0, code 0), as for a GHCB it cannot use. */
void kvm_kill(struct kvm *k, struct kvm_vcpu *v);

/* The MSR protocol: the GHCB MSR value the guest sees afterwards. */
uint64_t kvm_msr_protocol(struct kvm *k, struct kvm_vcpu *v, unsigned vmpl,
			  uint64_t req);
/* The hypervisor's CPUID for @v (MSR protocol and NAE event): ops->cpuid
 * with @v's own APIC ID in the leaves that report it. */
void kvm_cpuid(struct kvm *k, const struct kvm_vcpu *v, uint32_t leaf,
	       uint32_t subleaf, uint64_t xcr0, uint32_t out[4]);
/* The MSR protocol's page-state change of the page @gfn; 0 or 1. */
uint64_t kvm_psc_msr(struct kvm *k, uint64_t gfn, unsigned op);

/* NAE events (kvm_nae.c and one file per larger one). */
void kvm_nae(struct kvm *k, struct kvm_vcpu *v, struct kvm_ghcb *g,
	     struct kvm_reply *r);
void kvm_nae_psc(struct kvm *k, struct kvm_ghcb *g, struct kvm_reply *r);
void kvm_nae_guest_request(struct kvm *k, struct kvm_vcpu *v,
			   struct kvm_ghcb *g, struct kvm_reply *r, bool ext);
void kvm_nae_ap_creation(struct kvm *k, struct kvm_vcpu *v, struct kvm_ghcb *g,
			 struct kvm_reply *r);
void kvm_nae_get_apic_ids(struct kvm *k, const struct kvm_ghcb *g,
			  struct kvm_reply *r);
/* The hypervisor features (GHCB_HV_FT_*): MSR protocol and NAE event. */
uint64_t kvm_hv_features(const struct kvm *k);

#endif /* KVMMODEL_KVM_INTERNAL_H */
