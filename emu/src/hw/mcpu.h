/* SPDX-License-Identifier: MIT */
/*
 * The hardware's per-CPU state (struct mcpu): the VMCBs, the save areas,
 * the x87/SSE state per VMPL, the TLB shoot-down bookkeeping. Only the
 * hardware role (world.c, insn.c, xsave.c, rmp.c, cpus.c) and the
 * machine's own observers (instrument, postmortem) include this; the
 * hypervisor (hv*.c) sees struct mcpu only as an opaque handle, so it
 * cannot read a VMCB's save area or a VMSA through it.
 */
#ifndef MACHINE_MCPU_H
#define MACHINE_MCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"
#include "trap.h"
#include "vmcb.h"

/* The guest vCPU's state the hardware keeps besides its VMSAs (which
 * the hypervisor names, struct world_ctl): the VMPL that ran last, and
 * what SEV-ES keeps in the VMSA that QEMU cannot: the GHCB MSR. */
struct mvcpu {
	unsigned vmpl;
	uint64_t ghcb_msr[MACHINE_VMPLS];
	/* A VMGEXIT was handed to the hypervisor: its answer (the GHCB
	 * MSR) is loaded at that VMPL's next VMRUN, and only then. */
	bool ghcb_reply_due[MACHINE_VMPLS];
	/* TSC_AUX per VMPL (SEV-ES keeps it per VMSA; never intercepted,
	 * as KVM leaves it to a guest with RDTSCP). */
	uint64_t tsc_aux[MACHINE_VMPLS];
};

/* SVM state per physical CPU: one VMCB per VMPL (ASID = VMPL + 1). */
struct mcpu {
	unsigned index;
	uint32_t apic_id;
	struct x86_cpu_tables tables;
	void *hsave;
	void *host_save;
	struct vmcb *vmcb[MACHINE_VMPLS];
	struct svm_gprs gprs;
	struct mvcpu vcpu;
	/* An event the hardware delivers at a VMPL's next VMRUN: one it
	 * raised itself or one an exit cut short. Per VMPL, so one VMPL's
	 * never reaches another (nor, past Restricted Injection, VMPL0). */
	uint64_t pending_event[MACHINE_VMPLS];
	uint64_t tsc_aux_loaded; /* TSC_AUX in this CPU's register */
	/* TLB shoot-down (rmp.c). */
	bool in_guest;
	uint64_t flush_gen_seen;
	uint64_t npf_retry_gpa;
	bool flush_self; /* flush this CPU's guest TLB at the next VMRUN */
	bool online;
	/* The x87/SSE/AVX state of each VMPL's VMSA (SEV-ES keeps it in the
	 * VMSA; QEMU's VMRUN leaves it in the registers): XSAVE areas, and
	 * the VMPL whose state the registers hold now. */
	void *fpu[MACHINE_VMPLS + 1]; /* [MACHINE_VMPLS]: nobody's */
	unsigned fpu_vmpl;
	/* The VMSA whose state fpu[vmpl] and pending_event[vmpl] are, as
	 * the hardware last ran it (0: none): another VMSA at that VMPL
	 * starts in the init state with nothing pending. The hardware's
	 * own record, so the hypervisor resets no VMSA's state by naming it
	 * again. */
	uint64_t vmsa_ran[MACHINE_VMPLS];
	uint64_t held_vmsa; /* the VMSA marked in use, 0 = none */
	bool npf_held;	    /* the exit in hand is an #NPF (world_vc_npf) */
	bool reset_done;    /* world_vcpu_reset: once */
};

#endif /* MACHINE_MCPU_H */
