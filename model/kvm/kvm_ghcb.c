/* SPDX-License-Identifier: MIT */
/*
 * kvm_vmgexit() and the GHCB page protocol (56421 2.3.2; spec notes 7.2):
 * the registered, shared page is copied once, checked (usage, the valid
 * bits of exit code and exit_info_1/2), served from the copy, and the
 * reply is written as KVM writes it.
 */
#include "abi/snp.h"

#include "kvm_internal.h"

static uint64_t kvm_ghcb_protocol(struct kvm *k, struct kvm_vcpu *v,
				  unsigned vmpl, uint64_t gpa);

uint64_t kvm_vmgexit(struct kvm *k, struct kvm_vcpu *v, unsigned vmpl,
		     uint64_t msr)
{
	if (vmpl >= KVM_VMPLS) {
		kvm_kill(k, v); /* the machine's bug; the guest cannot help */
		return msr;
	}
	if (GHCB_MSR_INFO(msr) != 0) {
		return kvm_msr_protocol(k, v, vmpl, msr);
	}
	return kvm_ghcb_protocol(k, v, vmpl, msr);
}

/* Write the reply as KVM does: clear the valid bitmap, then write and
 * mark exit_info_1/2 and each register it returns. */
static void ghcb_reply(const struct kvm *k, struct kvm_ghcb *g,
		       const struct kvm_reply *r)
{
	static const struct {
		unsigned bit, off;
	} regs[] = {{KVM_R_RAX, GHCB_OFF_RAX},
		    {KVM_R_RBX, GHCB_OFF_RBX},
		    {KVM_R_RCX, GHCB_OFF_RCX},
		    {KVM_R_RDX, GHCB_OFF_RDX}};
	const uint64_t *val[] = {&r->rax, &r->rbx, &r->rcx, &r->rdx};
	bool mark = k->behaviour != KVM_NO_VALID_BITS;
	uint64_t info1 = k->behaviour == KVM_EXCEPTION_RESULT ? 1 : r->info1;
	unsigned i;

	if (!mark) {
		kvm_lie(k, "a GHCB reply with no valid bit set");
	}
	if (info1 != r->info1) {
		kvm_lie(k, "a GHCB reply with exit_info_1 = 1 (an exception "
			   "to inject) for a request that raised none");
	}
	memset(g->page + GHCB_OFF_VALID_BITMAP, 0, 16);
	memcpy(g->page + GHCB_OFF_SW_EXIT_INFO_1, &info1, 8);
	memcpy(g->page + GHCB_OFF_SW_EXIT_INFO_2, &r->info2, 8);
	if (mark) {
		ghcb_page_set_valid(g->page, GHCB_OFF_SW_EXIT_INFO_1);
		ghcb_page_set_valid(g->page, GHCB_OFF_SW_EXIT_INFO_2);
	}
	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		if (((r->write | r->unmark) & regs[i].bit) == 0) {
			continue;
		}
		memcpy(g->page + regs[i].off, val[i], 8);
		if (mark && (r->unmark & regs[i].bit) == 0) {
			ghcb_page_set_valid(g->page, regs[i].off);
		}
	}
}

/* The GHCB page protocol: only @vmpl's registered page, and only while
 * the RMP says it is shared; anything else KVM cannot serve and it ends
 * the guest. */
static uint64_t kvm_ghcb_protocol(struct kvm *k, struct kvm_vcpu *v,
				  unsigned vmpl, uint64_t gpa)
{
	struct kvm_ghcb g;
	struct kvm_reply r;

	memset(&r, 0, sizeof(r));
	g.gpa = gpa;
	g.vmpl = vmpl;
	g.page = gpa != 0 && gpa == v->ghcb_gpa[vmpl] ? kvm_shared_page(k, gpa)
						      : NULL;
	if (g.page == NULL) {
		kvm_kill(k, v);
		return gpa;
	}
	kvm_count(&k->stats.nae_calls);
	/* The one read of the request. */
	memcpy(g.save, g.page, sizeof(g.save));
	memcpy(&g.usage, g.page + GHCB_OFF_USAGE, sizeof(g.usage));
	if (g.usage != GHCB_USAGE_STANDARD) {
		kvm_malformed(&r, GHCB_ERR_INVALID_USAGE);
	} else if (!kvm_ghcb_has(&g, GHCB_OFF_SW_EXIT_CODE) ||
		   !kvm_ghcb_has(&g, GHCB_OFF_SW_EXIT_INFO_1) ||
		   !kvm_ghcb_has(&g, GHCB_OFF_SW_EXIT_INFO_2)) {
		kvm_malformed(&r, GHCB_ERR_MISSING_INPUT);
	} else {
		kvm_nae(k, v, &g, &r);
	}
	ghcb_reply(k, &g, &r);
	if (k->behaviour == KVM_MSR_CHANGED) {
		kvm_lie(k, "the GHCB MSR changed to the next page on return");
		return gpa + SNP_PAGE_SIZE;
	}
	return gpa;
}
