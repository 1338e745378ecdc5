/* SPDX-License-Identifier: MIT */
/*
 * The hardware's VMPLs: one VMCB per VMPL on each CPU (ASID = VMPL + 1,
 * nested CR3 = that VMPL's view, npt.h), the VMSA as the vCPU's only
 * state (copied into the VMCB for one VMRUN and back after it), the
 * hardware's VMRUN checks, and the exits SEV-ES turns into #VC. What the
 * hypervisor may ask of the hardware is below; it cannot read or write a
 * VMSA.
 */
#ifndef MACHINE_WORLD_H
#define MACHINE_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "machine.h"

/** This CPU's SVM state: VMCBs, save areas, EFER.SVME. */
void world_cpu_init(struct mcpu *c);
/** Serve this CPU's vCPU for ever. */
void world_loop(struct mcpu *c) __attribute__((noreturn));

/* For the hypervisor (hv.c). */
/** SNP Run VMPL: from the next VMRUN this vCPU runs at @vmpl (or waits
 * for a VMSA there). */
void world_run_vmpl(struct mcpu *c, unsigned vmpl);
/** AP creation: give vCPU @target the VMSA at @gpa for @vmpl (or take
 * it away, @destroy). The hardware checks it at VMRUN. */
void world_post(struct mcpu *target, unsigned vmpl, uint64_t gpa, bool destroy);
/** Inject @vector into the vCPU's VMSA at @vmpl at its next VMRUN. False
 * when the hardware refuses it: a VMSA with Restricted Injection takes
 * only #HV. */
bool world_inject(struct mcpu *c, unsigned vmpl, unsigned vector);
/** Inject external interrupt @vector into the VMSA at @vmpl at its next
 * VMRUN. False if an event is already waiting there, or the hardware
 * refuses it (Restricted Injection). */
bool world_inject_intr(struct mcpu *c, unsigned vmpl, unsigned vector);
/** Exit (VINTR) as soon as @vmpl can take an interrupt. */
void world_irq_window(struct mcpu *c, unsigned vmpl);
/** HLT: the vCPU waits for an event. */
void world_halt(struct mcpu *c);
/** AP reset hold: the vCPU waits for a new VMSA (AP Creation). */
void world_hold(struct mcpu *c);
/** KVM's reflection of an exit into the guest: #VC with @code. */
void world_vc(struct mcpu *c, unsigned vmpl, uint64_t code);
/** Print the per-VMPL exit counts. */
void world_report(void);

#endif /* MACHINE_WORLD_H */
