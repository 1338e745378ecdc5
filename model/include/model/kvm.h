/* SPDX-License-Identifier: MIT */
/*
 * A model of KVM's side of the GHCB protocol for an SEV-SNP guest with
 * VMPLs (Linux arch/x86/kvm/svm/sev.c and the multi-VMPL patches; GHCB
 * 56421; spec notes svsm-interfaces.md section 7): the MSR protocol and
 * the NAE events of the GHCB page. One body of code for every machine
 * that plays the hypervisor: sim (hosted, honest or hostile) and emu's
 * freestanding machine. Freestanding C: no C library beyond svsm/std.h.
 *
 * Two parties it does not trust:
 * - the guest (any VMPL): every GPA it names is checked against the
 *   RMP's banks (the guest's memory) and the RMP before the host touches it,
 * the GHCB is copied once and only the copy is used, and no arithmetic on guest
 * values wraps;
 * - the embedder is trusted (it is the rest of the host), but the model
 *   gives it only checked values: a VMPL < 4, a page-aligned GPA in RAM.
 *
 * Concurrency: kvm_vmgexit() may run on several host CPUs at once, one
 * vCPU per CPU (a struct kvm_vcpu is only ever used by the CPU running
 * it); what all vCPUs share (the RMP) is read and changed only between
 * ops->rmp_lock and ops->rmp_unlock, and struct kvm is otherwise read
 * only while the guest runs, except its stats.
 *
 * The host can write any page physically (ops->page maps all of RAM): the
 * model writes a guest page only after the RMP says it is shared, so a
 * hostile guest cannot make it write a private page. Between that check
 * and the write another vCPU may convert the page; that hurts only the
 * guest that raced itself (the page is not validated afterwards).
 */
#ifndef KVMMODEL_KVM_H
#define KVMMODEL_KVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/kvm_behaviours.h"

struct kvm;
struct rmp;

#define KVM_VMPLS 4u

/* How the model lies, one way at a time (honest by default): one value
 * per line of KVM_BEHAVIOURS (kvm_behaviours.h). */
#define KVM_BEHAVIOUR_ENUM(id) KVM_##id,
enum kvm_behaviour {
	KVM_BEHAVIOURS(KVM_BEHAVIOUR_ENUM) KVM_BEHAVIOUR_COUNT /* not one */
};
#undef KVM_BEHAVIOUR_ENUM

/* Counted with relaxed atomics: vCPUs on several host CPUs may call the
 * model at once (emu's machine); the "last" fields are one event's, not
 * necessarily the latest's, when events race. */
struct kvm_stats {
	unsigned msr_calls, nae_calls, psc_calls, run_vmpl, ap_created;
	unsigned guest_requests;
	/* The last AP Creation event, as the guest sent it. */
	uint32_t ap_apic_id;
	uint64_t ap_vmsa_gpa, ap_info1;
	bool ap_vmsa_ok;       /* it passed the model's checks */
	unsigned terminations; /* guest requests and kills */
};

struct kvm_vcpu { /* what KVM keeps per vCPU */
	unsigned index;
	uint32_t apic_id;
	uint64_t ghcb_gpa[KVM_VMPLS]; /* registered GHCB per VMPL, 0 = none */
	uint64_t doorbell_gpa[KVM_VMPLS]; /* #HV doorbell page, 0 = none */
	unsigned run_vmpl_count;	  /* Run VMPL requests served */
	/* The model's own copy of this vCPU's SNP guest request page: the
	 * PSP never parses a page the guest can change meanwhile. */
	uint8_t greq_copy[4096];
};

struct kvm_ops {
	/* Host mapping of the 4 KiB guest page at @gpa (page aligned, in
	 * one of the RMP's banks), or NULL when it is not guest memory. The
	 * host can touch any page physically; the model checks the RMP itself
	 * before trusting a page as shared. */
	uint8_t *(*page)(struct kvm *k, uint64_t gpa);
	/* The model takes and drops the RMP lock around every RMP read and
	 * update through these two (no-ops where one thread runs). */
	void (*rmp_lock)(struct kvm *k);
	void (*rmp_unlock)(struct kvm *k);
	/* The RMP changed over [gpa, gpa+len) (after RMPUPDATE/PSMASH by
	 * the model; a PSMASH reports its 2 MiB): the machine re-syncs
	 * nested page tables and flushes TLBs. Called without the lock. */
	void (*rmp_changed)(struct kvm *k, uint64_t gpa, uint64_t len);
	/* Port I/O forwarded to devices: OUT writes *val, IN fills *val
	 * (the model keeps the low @size bytes); size 1, 2 or 4. */
	void (*io)(struct kvm *k, struct kvm_vcpu *v, uint16_t port,
		   unsigned size, bool in, uint32_t *val);
	/* RDMSR/WRMSR the guest asked for through the GHCB; false: #GP,
	 * which the model injects (exit_info_1 = 1). */
	bool (*msr)(struct kvm *k, struct kvm_vcpu *v, bool write, uint32_t msr,
		    uint64_t *val);
	/* CPUID for the MSR-protocol CPUID request and the CPUID NAE event;
	 * @xcr0 is the guest's XCR0 (leaf 0xD's sizes depend on it; 1 when
	 * the guest gave none). */
	void (*cpuid)(struct kvm *k, uint32_t leaf, uint32_t subleaf,
		      uint64_t xcr0, uint32_t out[4]);
	/* SNP Run VMPL: make @v run @vmpl (< 4) next. false: no runnable
	 * VMSA there (the model returns an error). */
	bool (*run_vmpl)(struct kvm *k, struct kvm_vcpu *v, unsigned vmpl);
	/* AP Creation NAE (@request: SVM_VMGEXIT_AP_CREATE_ON_INIT, _CREATE
	 * or _DESTROY) after the model's own checks: @apic_id is one of
	 * k->vcpus, @vmpl < 4 and not below the caller's, for a create the
	 * VMSA GPA is page aligned in RAM and (for _CREATE) the RMP marks it
	 * a VMSA. Returns 0 or a GHCB error (exit_info_2 with result 2). */
	uint64_t (*ap_create)(struct kvm *k, struct kvm_vcpu *v,
			      unsigned request, uint32_t apic_id,
			      uint64_t vmsa_gpa, unsigned vmpl,
			      uint64_t sev_features);
	/* The PSP behind SNP_GUEST_REQUEST (as plat_guest_request and
	 * psp_host_guest_request in model/psp_model.h): @req and @rsp are
	 * checked shared pages; @certs (NULL for the plain request) spans
	 * *certs_len checked shared bytes. Returns exit_info_2. */
	uint64_t (*guest_request)(struct kvm *k, const void *req, void *rsp,
				  void *certs, size_t *certs_len);
	/* Optional (NULL: MMIO is an invalid event). An MMIO access of @len
	 * (1..8) bytes at @gpa: a write gives @data, a read fills it. false:
	 * no device there (the model returns an error). */
	bool (*mmio)(struct kvm *k, struct kvm_vcpu *v, uint64_t gpa,
		     unsigned len, bool write, uint8_t data[8]);
	/* Optional (NULL: an invalid event). AP HLT loop (Linux's CPU
	 * offline, sev_es_play_dead): the host holds @v, as KVM's AP reset
	 * hold, until it is woken; true if woken by a wake-up signal (the
	 * model returns exit_info_2 = 1), false if it should loop. Under SNP
	 * a new VMSA from AP Creation replaces the held one instead. */
	bool (*ap_hlt_loop)(struct kvm *k, struct kvm_vcpu *v);
	/* The guest asked to terminate, or the model kills it (KVM would).
	 * Does not return in the machine; in sim it longjmps. Should it
	 * return, the model returns to the guest without acting further. */
	void (*terminate)(struct kvm *k, struct kvm_vcpu *v, uint32_t set,
			  uint32_t code);
	/* Optional (NULL: untold). The model has just told the lie of its
	 * behaviour, described by @what (a constant string), for the
	 * embedder's log: which lie a victim met, when it met it. */
	void (*lie)(const struct kvm *k, const char *what);
};

struct kvm {
	const struct kvm_ops *ops;
	void *ctx;		      /* the embedder's */
	struct rmp *rmp;	      /* model/snp: the RMP model */
	unsigned c_bit;		      /* reported in SEV info */
	enum kvm_behaviour behaviour; /* honest, or one way to lie */
	struct kvm_stats stats;
	/* The machine's vCPUs, for AP Creation's APIC ID check: an APIC ID
	 * none of them has is refused (so with none, every AP creation). */
	struct kvm_vcpu *vcpus;
	unsigned nr_vcpus;
};

/*
 * A VMGEXIT from @v running at @vmpl, whose GHCB MSR holds @msr. Serves
 * the MSR protocol (SEV info, CPUID, preferred GHCB, GHCB registration,
 * PSC, run VMPL, HV features, termination) or the GHCB page protocol (the
 * registered page for @vmpl only, and only if the RMP says it is shared;
 * anything else kills the guest, as KVM does) and returns the GHCB MSR
 * value the guest sees afterwards.
 */
uint64_t kvm_vmgexit(struct kvm *k, struct kvm_vcpu *v, unsigned vmpl,
		     uint64_t msr);

/** The vCPU of k->vcpus with @apic_id, or NULL. */
struct kvm_vcpu *kvm_vcpu_by_apic(struct kvm *k, uint32_t apic_id);

#endif /* KVMMODEL_KVM_H */
