/* SPDX-License-Identifier: MIT */
/*
 * #VC, and injected interrupts (vc_deliver_intr), delivered by the
 * machine. An SEV-ES guest's intercepted CPUID,
 * port I/O, MSR access or MMIO does not exit to the hypervisor: the CPU
 * raises #VC (vector 29) in the guest with the exit code as error code,
 * and the guest's handler asks the hypervisor through the GHCB. QEMU's
 * event injection drops the error code of vector 29, so the machine
 * delivers it itself, as the CPU does in 64-bit mode: the IDT gate, its
 * IST stack (or the current one, or RSP0 from CPL 3), the frame SS, RSP,
 * RFLAGS, CS, RIP, error code, then RIP and CS from the gate and IF, TF,
 * NT, RF cleared. Without long mode (EFER.LMA clear) in protected mode,
 * as OVMF's reset vector takes its first #VC (flat 32-bit, paging off),
 * the 8-byte 32-bit gate, a 32-bit frame EFLAGS, CS, EIP, error code on
 * the current stack and CS loaded from the GDT (CPL 0 and paging off
 * only). Real mode is not served. A delivery that cannot be made (no
 * gate, stack not writable) is a triple fault for the guest, as on
 * hardware: false, the reason logged where the CPU's #GP/#NP/#SS would
 * have been.
 */
#ifndef MACHINE_VC_H
#define MACHINE_VC_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/snp.h"

#define VEC_DE 0u
#define VEC_BP 3u
#define VEC_OF 4u
#define VEC_UD 6u
#define VEC_DF 8u
#define VEC_TS 10u
#define VEC_NP 11u
#define VEC_SS 12u
#define VEC_GP 13u
#define VEC_PF 14u
#define VEC_HV 28u
#define VEC_VC 29u
/* #VC error codes (exit codes) the hardware itself raises. */
#define VC_NPF 0x400u
#define VC_NPF_NOT_VALIDATED 0x404u

bool vc_deliver(struct snp_vmsa *v, unsigned vmpl, unsigned vector,
		uint64_t error);
/**
 * An external interrupt, delivered the same way with no error code: the
 * hardware role's VMRUN of an injected interrupt (EVENTINJ type INTR).
 * QEMU 7.2 delivers such an injection and leaves it as its CPU's pending
 * exception (helper_vmrun sets exception_index to the vector), which it
 * delivers a second time, as a fault at the handler's first instruction,
 * if the vCPU thread is kicked before its next exception (a cross-CPU
 * TLB flush; every round-robin turn with one TCG thread): Linux then
 * runs its entry code twice, the second time without SWAPGS. False: not
 * deliverable so (the caller leaves it to EVENTINJ).
 */
bool vc_deliver_intr(struct snp_vmsa *v, unsigned vmpl, unsigned vector);

#endif /* MACHINE_VC_H */
