/* SPDX-License-Identifier: MIT */
/*
 * AP Creation (NAE 0x8000_0013; spec notes 7.3): exit_info_1 [15:0] the
 * request (create on INIT, create, destroy), [19:16] the VMSA's VMPL,
 * [63:32] the APIC ID; exit_info_2 the VMSA's GPA; RAX its SEV_FEATURES.
 * The model checks what a guest could abuse before the machine acts: the
 * APIC ID is a vCPU of this VM, the VMPL is not more privileged than the
 * caller's (a VMPL1 guest cannot start a VMPL0 VMSA), and a created VMSA
 * is a page of RAM the RMP marks a VMSA (KVM leaves that to VMRUN's
 * checks; the model makes it explicit for machines without them).
 */
#include "abi/snp.h"

#include "model/snpmodel.h"

#include "kvm_internal.h"

static uint64_t ap_check(struct kvm *k, const struct kvm_ghcb *g,
			 unsigned request, uint32_t apic_id, unsigned vmpl,
			 uint64_t vmsa)
{
	if (request != SVM_VMGEXIT_AP_CREATE_ON_INIT &&
	    request != SVM_VMGEXIT_AP_CREATE &&
	    request != SVM_VMGEXIT_AP_DESTROY) {
		return GHCB_ERR_INVALID_INPUT;
	}
	if (vmpl >= KVM_VMPLS || vmpl < g->vmpl ||
	    kvm_vcpu_by_apic(k, apic_id) == NULL) {
		return GHCB_ERR_INVALID_INPUT;
	}
	if (request == SVM_VMGEXIT_AP_DESTROY) {
		return 0;
	}
	if (!kvm_ghcb_has(g, GHCB_OFF_RAX)) {
		return GHCB_ERR_MISSING_INPUT;
	}
	if (!kvm_ram_page(k, vmsa) ||
	    (request == SVM_VMGEXIT_AP_CREATE &&
	     !kvm_rmp_has(k, vmsa, RMP_F_ASSIGNED | RMP_F_VMSA))) {
		return GHCB_ERR_INVALID_INPUT;
	}
	return 0;
}

void kvm_nae_ap_creation(struct kvm *k, struct kvm_vcpu *v, struct kvm_ghcb *g,
			 struct kvm_reply *r)
{
	uint64_t info1 = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_1);
	uint64_t vmsa = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_2);
	unsigned request = (unsigned)(info1 & 0xFFFFu);
	unsigned vmpl = (unsigned)((info1 & SVM_VMGEXIT_AP_VMPL_MASK) >>
				   SVM_VMGEXIT_AP_VMPL_SHIFT);
	uint64_t err;

	kvm_count(&k->stats.ap_created);
	__atomic_store_n(&k->stats.ap_info1, info1, __ATOMIC_RELAXED);
	__atomic_store_n(&k->stats.ap_apic_id, (uint32_t)(info1 >> 32),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&k->stats.ap_vmsa_gpa, vmsa, __ATOMIC_RELAXED);
	err = ap_check(k, g, request, (uint32_t)(info1 >> 32), vmpl, vmsa);
	__atomic_store_n(&k->stats.ap_vmsa_ok, err == 0, __ATOMIC_RELAXED);
	if (err == 0) {
		err = k->ops->ap_create(k, v, request, (uint32_t)(info1 >> 32),
					vmsa, vmpl,
					kvm_ghcb_val(g, GHCB_OFF_RAX));
	}
	if (err != 0) {
		kvm_malformed(r, err);
	}
}
