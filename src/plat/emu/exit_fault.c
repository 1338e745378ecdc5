/* SPDX-License-Identifier: MIT */
/*
 * Guest faults the SNP hardware would raise, and the SNP instructions the
 * guest executes, on emu.
 * #NPF: the NPT maps exactly what the RMP allows (npt.h), so a nested
 * fault is an access the RMP refuses, and the guest gets what SNP gives:
 * #VC "page not validated" for an assigned page it has not validated; for
 * every other refusal (SVSM memory, VMPL permissions, a VMSA write, MMIO)
 * hardware exits to the hypervisor, and this honest host reflects it to the
 * guest as #VC with the #NPF exit code instead of killing the guest.
 * #UD: QEMU has no PVALIDATE or RMPADJUST. PVALIDATE is a VMPL0
 * instruction, so at the guest VMPL it faults (#GP); RMPADJUST is emulated
 * on the software RMP at the guest's VMPL.
 */
#include "svsm/guest_config.h"
#include "svsm/log.h"
#include "svsm/memmap.h"
#include "svsm/plat.h"
#include "svsm/std.h"

#include "abi/snp.h"

#include "emu_rmp.h"
#include "emu_vcpu.h"
#include "guest_walk.h"
#include "npt.h"

#define SNP_INSN_LEN 4u

void exit_npf(struct emu_vcpu *v, uint64_t info1, uint64_t gpa)
{
	unsigned perm = RMP_PERM_READ;
	enum rmp_fault fault;
	uint64_t page = gpa & ~(SNP_PAGE_SIZE - 1);

	if ((info1 & NPF_WRITE) != 0) {
		perm |= RMP_PERM_WRITE;
	}
	if ((info1 & NPF_FETCH) != 0) {
		perm |= RMP_PERM_EXEC_SUPER;
	}
	if (!memmap_is_guest_ram(gpa_init(page), SNP_PAGE_SIZE)) {
		emu_inject_exception(v, VEC_VC, true, VC_NPF);
		return;
	}
	emu_rmp_lock();
	fault = rmp_check_access(&emu_rmp, svsm_guest_vmpl(), page, perm);
	if (fault == RMP_ACCESS_OK) {
		/* The RMP allows it now: another CPU changed the page after
		 * this CPU's walk. Refresh and retry, once: a second fault on
		 * the same page means the NPT cannot express the access. */
		npt_sync(page, SNP_PAGE_SIZE);
		if (v->last_npf_gpa == page) {
			fault = RMP_FAULT_NPF;
		}
	}
	emu_rmp_unlock();
	v->last_npf_gpa = fault == RMP_ACCESS_OK ? page : 0;
	if (fault == RMP_FAULT_NOT_VALIDATED) {
		emu_inject_exception(v, VEC_VC, true, VC_PAGE_NOT_VALIDATED);
	} else if (fault == RMP_FAULT_NPF) {
		emu_inject_exception(v, VEC_VC, true, VC_NPF);
	}
}

static void emulate_rmpadjust(struct emu_vcpu *v)
{
	struct snp_vmsa *a = v->vmsa;
	uint64_t gpa;
	uint32_t rc;

	if (!guest_va_to_gpa(a, a->rax, &gpa)) {
		emu_inject_exception(v, VEC_GP, true, 0);
		return;
	}
	emu_rmp_lock();
	rc = rmp_guest_rmpadjust(&emu_rmp, svsm_guest_vmpl(),
				 gpa & ~(SNP_PAGE_SIZE - 1),
				 (unsigned)(a->rcx & 1), a->rdx);
	if (rc == SNP_RET_SUCCESS) {
		npt_sync(gpa & ~(SNP_PAGE_SIZE - 1),
			 (a->rcx & 1) != 0 ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE);
	}
	emu_rmp_unlock();
	if (rc == SNP_RET_SUCCESS) {
		plat_flush_guest_tlb();
	}
	a->rax = rc;
	a->rip += SNP_INSN_LEN;
}

void exit_ud(struct emu_vcpu *v)
{
	static const uint8_t pvalidate[SNP_INSN_LEN] = {0xF2, 0x0F, 0x01, 0xFF};
	static const uint8_t rmpadjust[SNP_INSN_LEN] = {0xF3, 0x0F, 0x01, 0xFE};
	uint8_t insn[SNP_INSN_LEN];

	if (!guest_fetch(v->vmsa, v->vmsa->rip, insn, sizeof(insn))) {
		emu_inject_exception(v, VEC_UD, false, 0);
		return;
	}
	if (memcmp(insn, pvalidate, sizeof(insn)) == 0 &&
	    rmp_pvalidate_faults_at(svsm_guest_vmpl())) {
		emu_inject_exception(v, VEC_GP, true, 0);
	} else if (memcmp(insn, rmpadjust, sizeof(insn)) == 0) {
		emulate_rmpadjust(v);
	} else {
		emu_inject_exception(v, VEC_UD, false, 0);
	}
}
