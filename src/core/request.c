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
 * SMP: the whole entry runs under the ownership lock (svsm/owner_lock.h),
 * which a handler drops only around a wait on the host or a TPM command.
 * Meanwhile the caller's vcpu is marked in_call, so DELETE_VCPU from
 * another vCPU fails with FAIL_INUSE instead of freeing the record and
 * handing back the VMSA page this function still writes the results to.
 */
#include "svsm/request.h"

#include "svsm/check.h"
#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/owner_lock.h"
#include "svsm/protocol.h"

#include "abi/snp.h"
#include "abi/svsm_caa.h"
#include "abi/svsm_call.h"

static enum request_outcome
request_decline(struct snp_vmsa *vmsa, uint64_t efer, enum request_outcome why)
{
	__atomic_store_n(&vmsa->efer, efer, __ATOMIC_RELEASE);
	owner_unlock();
	return why;
}

enum request_outcome request_process(struct svsm_cpu *cpu)
{
	struct call_ctx ctx = {0};
	struct vcpu *v;
	struct snp_vmsa *vmsa;
	uint8_t pending = 0;
	uint64_t efer;
	enum svsm_result result;

	owner_lock();
	v = cpu->guest;
	if (v == NULL) {
		owner_unlock();
		return REQUEST_NO_GUEST;
	}
	/* One VMPL0 VMSA per APIC ID: it cannot be entered while it waits
	 * on the host inside a call of this vCPU. */
	CHECK(!v->in_call);
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
	v->in_call = true;
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
	CHECK(owner_lock_held());
	if (ctx.caller_deleted) {
		owner_unlock();
		return REQUEST_VCPU_DELETED; /* v is gone: never resumed */
	}
	v->in_call = false;
	vmsa->rax = result;
	vmsa->rcx = ctx.rcx;
	vmsa->rdx = ctx.rdx;
	vmsa->r8 = ctx.r8;
	/* SVME last: the host may run the vCPU once this store is seen. */
	__atomic_store_n(&vmsa->efer, efer | EFER_SVME, __ATOMIC_RELEASE);
	owner_unlock();
	return REQUEST_SERVED;
}
