/* SPDX-License-Identifier: MIT */
/*
 * Guest MSR accesses. Every MSR exits (the MSR permission map is all
 * ones, threat T11): the guest never reaches a host MSR, in particular not
 * EFER.SVME, VM_HSAVE_PA or VM_CR, which would hand it the SVSM's SVM state.
 * Served:
 * - the GHCB MSR, per vCPU (SEV-ES keeps it in the VMSA; QEMU has no
 *   SEV-ES, so it exits here: 3 exits per MSR-protocol call);
 * - SEV_STATUS, from the VMSA's SEV_FEATURES, as SNP reports it;
 * - EFER, with SVME kept set (QEMU gap 9).
 * Any other MSR raises #GP, as a missing MSR does on hardware.
 */
#include "abi/snp.h"

#include "arch.h"
#include "emu_vcpu.h"

#define MSR_INSN_LEN 2u
#define SEV_STATUS_ENABLED 0x1ull    /* SEV */
#define SEV_STATUS_ES_ENABLED 0x2ull /* SEV-ES */
#define SEV_STATUS_FEATURE_SHIFT 2u  /* SEV_FEATURES bit n = status n + 2 */

static bool msr_read(const struct emu_vcpu *v, uint32_t msr, uint64_t *val)
{
	switch (msr) {
	case GHCB_MSR:
		*val = v->ghcb_msr;
		return true;
	case MSR_SEV_STATUS:
		*val = SEV_STATUS_ENABLED | SEV_STATUS_ES_ENABLED |
		       (v->vmsa->sev_features << SEV_STATUS_FEATURE_SHIFT);
		return true;
	case MSR_EFER:
		*val = v->vmsa->efer;
		return true;
	default:
		return false;
	}
}

static bool msr_write(struct emu_vcpu *v, uint32_t msr, uint64_t val)
{
	switch (msr) {
	case GHCB_MSR:
		v->ghcb_msr = val;
		return true;
	case MSR_EFER:
		/* LMA is the CPU's; SVME stays as the SVSM set it. */
		v->vmsa->efer = (val & ~(EFER_SVME | EFER_LMA)) |
				(v->vmsa->efer & (EFER_SVME | EFER_LMA));
		return true;
	default:
		return false;
	}
}

void exit_msr(struct emu_vcpu *v, bool write)
{
	struct snp_vmsa *a = v->vmsa;
	uint32_t msr = (uint32_t)a->rcx;
	uint64_t val;

	if (write) {
		val = (a->rdx << 32) | (uint32_t)a->rax;
		if (!msr_write(v, msr, val)) {
			emu_inject_exception(v, VEC_GP, true, 0);
			return;
		}
	} else {
		if (!msr_read(v, msr, &val)) {
			emu_inject_exception(v, VEC_GP, true, 0);
			return;
		}
		a->rax = (uint32_t)val;
		a->rdx = val >> 32;
	}
	a->rip += MSR_INSN_LEN;
}
