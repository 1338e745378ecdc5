/* SPDX-License-Identifier: MIT */
/*
 * Exceptions taken by the snp firmware (arch_trap, src/arch/x86/trap.h).
 *   #VC: what SEV-ES intercepts in the SVSM's own code (CPUID, MSRs,
 *        port I/O) is emulated (vc.c). A #VC at a fixup site (hw/insn.S:
 *        a guest page that is not validated) fails that access. #VC never
 *        nests: the handler itself runs nothing that traps.
 *   #HV: Restricted Injection's doorbell (snp_hv.c).
 *   #GP or #PF at a fixup site: PVALIDATE or RMPADJUST refused an
 *        operand, or a guest access went astray; that call fails.
 *   anything else: an SVSM bug: dump the registers and panic.
 */
#include "trap.h"

#include "svsm/check.h"
#include "svsm/log.h"
#include "svsm/terminate.h"

#include "../snp_hv.h"
#include "../vc.h"
#include "fw_cpu.h"

struct fixup {
	uint64_t insn, recover;
};

extern const struct fixup __fixup_start[];
extern const struct fixup __fixup_end[];

static bool fixup(struct trap_frame *f)
{
	const struct fixup *x;

	for (x = __fixup_start; x < __fixup_end; x++) {
		if (x->insn == f->rip) {
			f->rip = x->recover;
			return true;
		}
	}
	return false;
}

static void vc(struct trap_frame *f)
{
	struct snp_fs_block *b = snp_fs_block();
	struct vc_regs r = {.rax = f->rax,
			    .rbx = f->rbx,
			    .rcx = f->rcx,
			    .rdx = f->rdx,
			    .rip = f->rip};

	if (fixup(f)) {
		return;
	}
	if (b->vc_depth != 0) {
		/* The handler's own stack is being reused: nothing on it
		 * can be trusted any more. */
		SNP_TERMINATE_HV(TERM_CSVSM_UNEXPECTED_VC,
				 "snp: #VC inside the #VC handler");
	}
	b->vc_depth++;
	/* The instruction is the SVSM's own text (read-only, ours): the
	 * handler decodes it in place. */
	snp_vc_handle(b->cpu != NULL && b->cpu->online ? &b->cpu->ghcb : NULL,
		      &snp_fw_cpuid, &r, f->error, (const uint8_t *)f->rip);
	f->rax = r.rax;
	f->rbx = r.rbx;
	f->rcx = r.rcx;
	f->rdx = r.rdx;
	f->rip = r.rip;
	b->vc_depth--;
}

void arch_trap(struct trap_frame *f)
{
	struct snp_fs_block *b = snp_fs_block();

	switch (f->vector) {
	case X86_VEC_VC:
		vc(f);
		return;
	case X86_VEC_HV:
		snp_hv_entry();
		return;
	case X86_VEC_PF:
	case X86_VEC_GP:
		if (fixup(f)) {
			return;
		}
		break;
	default:
		break;
	}
	x86_trap_dump(f, b->cpu != NULL ? b->cpu->index : 0u);
	panic("unexpected exception in the SVSM");
}
