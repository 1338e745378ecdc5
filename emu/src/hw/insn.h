/* SPDX-License-Identifier: MIT */
/*
 * The SNP instructions a guest executes, which QEMU's TCG does not know
 * (#UD), emulated with their architectural semantics for the VMPL that
 * executes them, each at CPL 0 only (#GP at CPL 3): PVALIDATE (VMPL0
 * only, else #GP), RMPADJUST (any VMPL, only lower-privileged VMPLs'
 * rights), INVLPGB and TLBSYNC (broadcast flush). A 4 KiB PVALIDATE or
 * RMPADJUST over a 2 MiB RMP entry is the hardware's #NPF with SIZEM, an
 * automatic exit: the hypervisor smashes the entry and the guest executes
 * the instruction again. Anything else stays #UD.
 */
#ifndef MACHINE_INSN_H
#define MACHINE_INSN_H

#include "abi/snp.h"

#include "machine/machine.h"

/* INSN_PF: a #PF the instruction's operand access raised (walk.h). */
/* INSN_SIZEM: #NPF with SIZEM, an automatic exit (world.h). */
enum insn_result { INSN_DONE, INSN_UD, INSN_GP, INSN_PF, INSN_SIZEM };

/** Emulate the instruction at RIP; for INSN_SIZEM, @sizem_gpa is the
 * page whose 2 MiB RMP entry the hypervisor must smash. */
enum insn_result insn_ud(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
			 uint64_t *sizem_gpa);

#endif /* MACHINE_INSN_H */
