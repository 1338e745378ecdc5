/* SPDX-License-Identifier: MIT */
/*
 * XSAVEC and XRSTOR of a compacted area: every SEV-SNP CPU has them, and
 * Linux as an SNP guest refuses a CPUID table whose leaf 0xD.1 lacks
 * both XSAVEC and XSAVES; QEMU 7.2's TCG has neither (XSAVEC is #UD,
 * XRSTOR of a compacted area #GP). The hardware role emulates them with
 * their architectural semantics over the registers, which hold the
 * running VMPL's state while its exit is handled (world.c): XSAVEC is
 * the standard XSAVE of the requested components, written in the
 * compacted format; XRSTOR of a compacted area is the standard XRSTOR of
 * the same components after the reverse move. The operand is decoded
 * from the instruction (ModRM, SIB, displacement, RIP-relative, FS/GS)
 * and reached through the guest's page tables with the CPU's checks
 * (gw_operand_*, walk.h): the guest's page rights at its CPL, #PF where
 * the CPU raises one, accessed and dirty bits.
 */
#ifndef MACHINE_XSAVE_H
#define MACHINE_XSAVE_H

#include <stdbool.h>

#include "abi/snp.h"

#include "insn.h"
#include "machine/machine.h"
#include "walk.h"

/** #UD: XSAVEC (INSN_DONE), a fault it raises (INSN_GP, or INSN_PF as
 * *@f says), or not XSAVEC (INSN_UD). */
enum insn_result xsave_ud(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
			  struct gw_fault *f);
/** #GP: XRSTOR of a compacted area, now done (INSN_DONE) or faulting on
 * its operand (INSN_PF, as *@f says); else the #GP is the instruction's
 * own (INSN_GP). */
enum insn_result xsave_gp(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
			  struct gw_fault *f);

#endif /* MACHINE_XSAVE_H */
