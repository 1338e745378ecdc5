/* SPDX-License-Identifier: MIT */
/*
 * One SVSM call, as 58019 section 5 describes it. Threats T08 (a hostile
 * hypervisor enters VMPL0 when the guest did not ask, or twice for one
 * call) and T09 (the guest changes call_pending concurrently):
 * - EFER.SVME of the caller's VMSA is cleared first so the host cannot run
 *   that vCPU while the SVSM works on its registers, and set again last;
 * - only a VMGEXIT exit with call_pending atomically taken from 1 is served,
 *   so a spurious or repeated entry changes nothing.
 * The VMSA page is SVSM-private (VMPL0-writable only), so its fields are
 * read directly; the CA is guest memory and goes through guestmem.
 * SMP: the vCPU registry (cpu->guest, and the ownership lists guestmem
 * checks) may change under another CPU's CREATE_VCPU or DELETE_VCPU, so
 * the entry checks hold vcpu_lock. The caller's own vcpu cannot go away
 * meanwhile: its VMSA is in use on this CPU, which DELETE_VCPU refuses.
 */
#include "svsm/request.h"

#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/protocol.h"

#include "abi/snp.h"
#include "abi/svsm_caa.h"
#include "abi/svsm_call.h"

static enum request_outcome
request_decline(struct snp_vmsa *vmsa, uint64_t efer, enum request_outcome why)
{
	__atomic_store_n(&vmsa->efer, efer, __ATOMIC_RELEASE);
	vcpu_registry_unlock();
	return why;
}

enum request_outcome request_process(struct svsm_cpu *cpu)
{
	struct call_ctx ctx = {0};
	struct vcpu *v;
	struct snp_vmsa *vmsa;
	uint8_t pending = 0;
	uint64_t efer;
	uint32_t result;

	vcpu_registry_lock();
	v = cpu->guest;
	if (v == NULL) {
		vcpu_registry_unlock();
		return REQUEST_NO_GUEST;
	}
	vmsa = v->vmsa;
	efer = __atomic_load_n(&vmsa->efer, __ATOMIC_ACQUIRE);
	__atomic_store_n(&vmsa->efer, efer & ~EFER_SVME, __ATOMIC_RELEASE);
	if (vmsa->guest_exit_code != SVM_EXIT_VMGEXIT) {
		return request_decline(vmsa, efer, REQUEST_NOT_VMGEXIT);
	}
	if (guestmem_xchg_u8(gpa_add(v->caa_gpa, SVSM_CAA_OFF_CALL_PENDING),
			     SVSM_CALL_PENDING_NONE, &pending) != SVSM_OK) {
		LOG_GUEST("Calling Area %llx not accessible",
			  (unsigned long long)gpa_val(v->caa_gpa));
		return request_decline(vmsa, efer, REQUEST_CAA_FAULT);
	}
	if (pending == SVSM_CALL_PENDING_NONE) {
		return request_decline(vmsa, efer, REQUEST_NOT_PENDING);
	}
	vcpu_registry_unlock(); /* protocols take the locks they need */
	ctx.cpu = cpu;
	ctx.caller = v;
	ctx.rax = vmsa->rax;
	ctx.rcx = vmsa->rcx;
	ctx.rdx = vmsa->rdx;
	ctx.r8 = vmsa->r8;
	ctx.r9 = vmsa->r9;
	if (pending != SVSM_CALL_PENDING_SET) {
		result = SVSM_ERR_INVALID_FORMAT;
	} else {
		result = protocol_dispatch(&ctx);
	}
	if (ctx.caller_deleted) {
		return REQUEST_VCPU_DELETED; /* v is gone: never resumed */
	}
	vmsa->rax = result;
	vmsa->rcx = ctx.rcx;
	vmsa->rdx = ctx.rdx;
	vmsa->r8 = ctx.r8;
	/* SVME last: the host may run the vCPU once this store is seen. */
	__atomic_store_n(&vmsa->efer, efer | EFER_SVME, __ATOMIC_RELEASE);
	return REQUEST_SERVED;
}
