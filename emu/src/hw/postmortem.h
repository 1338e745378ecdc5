/* SPDX-License-Identifier: MIT */
/*
 * The post-mortem: an instrument of the hardware role, not a part of the
 * machine's behaviour, that says where each vCPU was when a run ended
 * badly, so the next reader knows whose bug it is (docs/emu.md, "When a
 * run stops"). It keeps each CPU's last exits (VMPL, exit code, RIP, exit
 * information) and the last SVSM call its vCPU made, and prints them
 * when the machine stops for any reason but the guest's own power-off,
 * reset or pass: a termination, a shutdown, a panic, or a stop the host
 * asked for with an NMI (emu-run.sh's timeout, QMP inject-nmi).
 *
 * Threats: none to the guest; it reads VMSAs as the hardware may and
 * prints guest register values to the machine's console, which on a real
 * host no one would see (it is the machine's debugging view, never the
 * hypervisor role's: hv*.c never include it). Nothing the machine does
 * depends on it.
 */
#ifndef MACHINE_POSTMORTEM_H
#define MACHINE_POSTMORTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"
#include "vmcb.h"

struct snp_vmsa;

/** CPU @cpu's VMRUN at @vmpl ended as @ctl says, with the guest at @rip. */
void pm_exit(unsigned cpu, unsigned vmpl, const struct vmcb_control *ctl,
	     uint64_t rip);
/** The vCPU on CPU @cpu asked VMPL0 to serve @rax (an SVSM call). */
void pm_call(unsigned cpu, uint64_t rax);

/** Whether the host asked for a stop (machine_stop_request(), stop.h)
 * and this CPU has not answered yet. */
bool pm_pending(unsigned cpu);
/**
 * Answer a stop request on @c: print where its vCPU is (@a: the VMSA of
 * @vmpl, NULL if it has none; @state: what the hypervisor has it do,
 * runnable, halted or held); on the boot CPU, then wait a moment for
 * the others' answers. The caller then stops the machine (the boot CPU)
 * or halts for good (the others).
 */
void pm_answer(struct mcpu *c, unsigned vmpl, const struct snp_vmsa *a,
	       const char *state);

/** Print @a's control registers and the page-table entries that map its
 * RIP and IDT, as a walk reads them now (a shutdown's why). */
void pm_vcpu(unsigned cpu, unsigned vmpl, const struct snp_vmsa *a);

/** Print every CPU's last exits and SVSM call (once per run): the
 * reporter the machine's top hands the stop path (machine_on_bad_end(),
 * stop.h), so a run that ends badly prints it. */
void pm_print(void);

#endif /* MACHINE_POSTMORTEM_H */
