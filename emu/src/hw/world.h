/* SPDX-License-Identifier: MIT */
/*
 * The hardware's VMPLs: one VMCB per VMPL on each CPU (ASID = VMPL + 1,
 * nested CR3 = that VMPL's view, npt.h), the VMSA as the vCPU's only
 * state (copied into the VMCB for one VMRUN and back after it), the
 * hardware's VMRUN checks, and the exits SEV-ES turns into #VC.
 *
 * The hypervisor drives (hv.c's loop, as KVM's vcpu_enter_guest or
 * bhyve's vm_run): it calls world_run(), which returns only what SEV-ES
 * hardware hands a host, an automatic exit. It writes for the hardware
 * only a struct world_ctl per VMPL, the part of the VMCB KVM owns, and
 * never reads or writes a VMSA: every field it gives is checked here
 * (the VMSA at VMRUN, an event against Restricted Injection).
 */
#ifndef MACHINE_WORLD_H
#define MACHINE_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"

/* What the hypervisor sets for one VMPL of its vCPU (the VMCB's control
 * fields KVM writes). The hardware trusts none of it: the VMSA is
 * checked at every VMRUN, an event at injection. */
struct world_ctl {
	uint64_t vmsa_gpa; /* the VMSA to run (VMSA pointer), 0: none */
	uint64_t event;	   /* EVENTINJ for the next VMRUN, 0: none */
	bool irq_window;   /* V_IRQ and the VINTR intercept */
	/* The GHCB MSR (the VMCB's GHCB GPA field): the hardware's copy at
	 * a VMGEXIT, the hypervisor's answer loaded at the next VMRUN. */
	uint64_t ghcb_msr;
};

/* The automatic exits: what world_run() hands the hypervisor. */
enum world_exit_code {
	WORLD_EXIT_VMGEXIT,  /* ghcb_msr: the GHCB MSR the guest wrote */
	WORLD_EXIT_HLT,	     /* RIP already past the HLT */
	WORLD_EXIT_NPF,	     /* gpa, info1: MMIO, or the RMP refuses it */
	WORLD_EXIT_SIZEM,    /* gpa: #NPF with SIZEM (a 2 MiB RMP entry) */
	WORLD_EXIT_CR8,	     /* cr8: a CR8 write (CR8_WRITE_TRAP) */
	WORLD_EXIT_INTR,     /* a physical interrupt, or the VINTR window */
	WORLD_EXIT_SHUTDOWN, /* a triple fault, or VMRUN refused the
				VMSA's register state (logged) */
	WORLD_EXIT_INVALID,  /* VMRUN refused the VMSA: not one (RMP),
				deleted, stopped, running elsewhere */
	WORLD_EXIT_COUNT
};

struct world_exit {
	enum world_exit_code code;
	uint64_t ghcb_msr;
	uint64_t gpa;
	uint64_t info1;
	uint64_t cr8;
};

/** This CPU's SVM state: VMCBs, save areas, EFER.SVME. */
void world_cpu_init(struct mcpu *c);
/** The VMCBs and x87/SSE state reset, before this CPU's first VMRUN. */
void world_vcpu_reset(struct mcpu *c);
/** Run @vmpl's VMSA (@ctl) on @c until an automatic exit, which is
 * returned in @e; everything else (#VC, the SNP instructions, the GHCB
 * MSR, the private walk) the hardware does here, as SEV-ES does. */
void world_run(struct mcpu *c, struct world_ctl *ctl, unsigned vmpl,
	       struct world_exit *e);
/** The hypervisor is done with the exit world_run() returned, and runs
 * @next_vmpl next: the VMSA is no longer in use. */
void world_exit_done(struct mcpu *c, unsigned next_vmpl);
/** Whether VMRUN would take @vmpl's VMSA now (false: world_run() ends
 * in WORLD_EXIT_INVALID), and if so, in @interruptible, whether it can
 * take an interrupt (@irq_ok): RFLAGS.IF and no interrupt shadow (what SEV-ES
 * shows the hypervisor, GUEST_INTERRUPT_MASK). */
bool world_runnable(struct mcpu *c, const struct world_ctl *ctl, unsigned vmpl,
		    bool *irq_ok);
/** A new VMSA for @vmpl (AP Creation): @ctl takes it, and the VMPL's
 * x87/SSE state starts in its init state (0: a destroy, none). */
void world_new_vmsa(struct mcpu *c, struct world_ctl *ctl, unsigned vmpl,
		    uint64_t gpa);
/** Inject exception @vector into @vmpl at its next VMRUN. False when
 * the hardware refuses it: a VMSA with Restricted Injection takes only
 * #HV. */
bool world_inject(struct mcpu *c, struct world_ctl *ctl, unsigned vmpl,
		  unsigned vector);
/** Inject external interrupt @vector at @vmpl's next VMRUN. False if an
 * event is already waiting, or the hardware refuses it (Restricted
 * Injection). */
bool world_inject_intr(struct mcpu *c, struct world_ctl *ctl, unsigned vector);
/** Exit (VINTR) as soon as the VMPL can take an interrupt; none for a
 * VMSA with Restricted Injection, which could never take it. */
void world_irq_window(struct mcpu *c, struct world_ctl *ctl);
/** KVM's reflection of the #NPF in hand (before world_exit_done) into
 * the guest at @vmpl: #VC with NPF's code, as the hardware raises for a
 * nested entry KVM marks with a reserved bit (MMIO). The hypervisor
 * picks no code: the only #VC it can cause is this one. */
void world_vc_npf(struct mcpu *c, unsigned vmpl);
/** The host's wait while the vCPU cannot run: until an interrupt, or
 * until @posts has a post or the host asks for a stop. */
void world_idle(struct mcpu *c, const struct ap_posts *posts);
/** The host asked the machine to stop (postmortem.h): every CPU says
 * where its vCPU is (@state: runnable, halted, held); CPU 0 then stops
 * the machine; the others stop here. */
bool world_stop_asked(const struct mcpu *c);
void world_answer_stop(struct mcpu *c, const struct world_ctl *ctl,
		       unsigned vmpl, const char *state)
	__attribute__((noreturn));
/** The VM cannot go on at @vmpl: log @why with where the VMSA is. */
void world_log_stop(struct mcpu *c, const struct world_ctl *ctl, unsigned vmpl,
		    const char *why);
/** Print the per-VMPL exit counts. */
void world_report(void);

#endif /* MACHINE_WORLD_H */
