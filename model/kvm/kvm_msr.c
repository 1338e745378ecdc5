/* SPDX-License-Identifier: MIT */
/*
 * The GHCB MSR protocol (56421 2.3.1; spec notes 7.1),
 * as KVM's sev_handle_vmgexit_msr_protocol() serves it. The request is
 * the one 64-bit value the caller read from the guest's GHCB MSR: there
 * is nothing to re-read. An unknown request ends the guest, as in KVM.
 */
#include "abi/snp.h"

#include "kvm_internal.h"

static uint64_t msr_sev_info(const struct kvm *k)
{
	uint64_t max = GHCB_PROTOCOL_MAX;

	if (k->behaviour == KVM_OLD_VERSION) {
		kvm_lie(k, "SEV information: GHCB protocol versions 1 to 1");
		max = 1;
	}

	return GHCB_MSR_SEV_INFO(max, GHCB_PROTOCOL_MIN, k->c_bit);
}

/* KVM's GHCB_HV_FT_SUPPORTED with the multi-VMPL RFC's two bits. */
uint64_t kvm_hv_features(const struct kvm *k)
{
	uint64_t ft = GHCB_HV_FT_SNP | GHCB_HV_FT_SNP_AP_CREATION |
		      GHCB_HV_FT_APIC_ID_LIST;

	if (k->behaviour != KVM_NO_MULTI_VMPL) {
		ft |= GHCB_HV_FT_SNP_MULTI_VMPL;
	} else {
		kvm_lie(k, "hypervisor features without multi-VMPL (bit 5)");
	}
	return ft;
}

static uint64_t msr_hv_features(const struct kvm *k)
{
	return GHCB_MSR_HV_FT_RESP | (kvm_hv_features(k) << 12);
}

#define CPUID_FEATURES 0x1u
#define CPUID_TOPOLOGY 0xBu
#define CPUID_TOPOLOGY_V2 0x1Fu
#define CPUID_EXT_APIC_ID 0x8000001Eu

void kvm_cpuid(struct kvm *k, const struct kvm_vcpu *v, uint32_t leaf,
	       uint32_t subleaf, uint64_t xcr0, uint32_t out[4])
{
	k->ops->cpuid(k, leaf, subleaf, xcr0, out);
	/* The vCPU's own APIC ID where CPUID reports it, as QEMU gives each
	 * vCPU its leaves (target/i386/cpu.c cpu_x86_cpuid()) and KVM returns
	 * them: leaf 1 EBX[31:24], 0xB/0x1F EDX, 0x8000001E EAX. OVMF's APs
	 * learn their APIC ID so (MpInitLib X64/AmdSev.nasm, MSR protocol). */
	switch (leaf) {
	case CPUID_FEATURES:
		out[1] = (out[1] & 0x00FFFFFFu) | (v->apic_id & 0xFFu) << 24;
		break;
	case CPUID_TOPOLOGY:
	case CPUID_TOPOLOGY_V2:
		out[3] = v->apic_id;
		break;
	case CPUID_EXT_APIC_ID:
		out[0] = v->apic_id;
		break;
	default:
		break;
	}
}

static uint64_t msr_cpuid(struct kvm *k, const struct kvm_vcpu *v, uint64_t req)
{
	uint32_t out[4] = {0, 0, 0, 0};

	/* No subleaf or XCR0 in the MSR form: Linux asks only for subleaf
	 * 0. */
	kvm_cpuid(k, v, GHCB_MSR_CPUID_LEAF(req), 0, 1, out);
	return GHCB_MSR_RESP(GHCB_MSR_CPUID_RESP, out[GHCB_MSR_CPUID_REG(req)]);
}

/* Registration needs no more than a page of RAM: the page protocol
 * checks the RMP at every use, as the guest may convert it later. */
static uint64_t msr_register(struct kvm_vcpu *v, const struct kvm *k,
			     unsigned vmpl, uint64_t req)
{
	uint64_t gfn = GHCB_MSR_DATA(req); /* 52 bits: gfn << 12 fits */

	if (gfn == 0 || !kvm_ram_page(k, gfn << 12)) {
		return GHCB_MSR_REG_GPA_RESP | (GHCB_MSR_PREF_GPA_NONE << 12);
	}
	v->ghcb_gpa[vmpl] = gfn << 12;
	if (k->behaviour == KVM_WRONG_ECHO) {
		kvm_lie(k, "GHCB registration echoes the next GFN");
		gfn++;
	}
	return GHCB_MSR_REG_GPA_RESP | (gfn << 12);
}

static uint64_t msr_run_vmpl(struct kvm *k, struct kvm_vcpu *v, uint64_t req)
{
	unsigned target = (unsigned)GHCB_MSR_RUN_VMPL_TARGET(req);

	kvm_count(&k->stats.run_vmpl);
	v->run_vmpl_count++;
	if (k->behaviour == KVM_REFUSE_RUN_VMPL) {
		kvm_lie(k, "Run VMPL (MSR protocol) refused");
		return GHCB_MSR_RESP(GHCB_MSR_RUN_VMPL_RESP, 1);
	}
	if (target >= KVM_VMPLS || !k->ops->run_vmpl(k, v, target)) {
		return GHCB_MSR_RESP(GHCB_MSR_RUN_VMPL_RESP, 1);
	}
	return GHCB_MSR_RUN_VMPL_RESP;
}

uint64_t kvm_msr_protocol(struct kvm *k, struct kvm_vcpu *v, unsigned vmpl,
			  uint64_t req)
{
	uint64_t reply;

	kvm_count(&k->stats.msr_calls);
	switch (GHCB_MSR_INFO(req)) {
	case GHCB_MSR_SEV_INFO_REQ:
		return msr_sev_info(k); /* never lied about: see below */
	case GHCB_MSR_CPUID_REQ:
		reply = msr_cpuid(k, v, req);
		break;
	case GHCB_MSR_HV_FT_REQ:
		reply = msr_hv_features(k);
		break;
	case GHCB_MSR_PREF_GPA_REQ:
		reply = GHCB_MSR_PREF_GPA_RESP | (GHCB_MSR_PREF_GPA_NONE << 12);
		break;
	case GHCB_MSR_REG_GPA_REQ:
		reply = msr_register(v, k, vmpl, req);
		break;
	case GHCB_MSR_PSC_REQ:
		kvm_count(&k->stats.psc_calls);
		reply = GHCB_MSR_RESP(
			GHCB_MSR_PSC_RESP,
			kvm_psc_msr(k, GHCB_MSR_PSC_GFN(req),
				    (unsigned)GHCB_MSR_PSC_OP(req)));
		if (k->behaviour == KVM_PSC_ERROR) {
			kvm_lie(k, "page-state change (MSR protocol) reports "
				   "an error");
			reply |= GHCB_MSR_RESP(0, 1);
		}
		break;
	case GHCB_MSR_RUN_VMPL_REQ:
		reply = msr_run_vmpl(k, v, req);
		break;
	case GHCB_MSR_TERM_REQ:
		kvm_count(&k->stats.terminations);
		k->ops->terminate(k, v, (uint32_t)GHCB_MSR_TERM_SET(req),
				  (uint32_t)GHCB_MSR_TERM_CODE(req));
		return req;
	default:
		kvm_kill(k, v); /* KVM: "unsupported GHCB MSR request" */
		return req;
	}
	if (k->behaviour == KVM_WRONG_RESPONSE_CODE) {
		kvm_lie(k, "an MSR protocol reply with another response code");
		reply ^= 0x100;
	}
	return reply;
}
