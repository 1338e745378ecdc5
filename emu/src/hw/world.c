/* SPDX-License-Identifier: MIT */
/*
 * The world switch and the hardware's part of every exit. Invariants:
 * - the VMSA is the vCPU's state: vcpu_enter() copies it into the VMCB
 *   for one VMRUN, vcpu_leave() copies it back;
 * - a VMSA is "in use" in the RMP from VMRUN until its exit is handled,
 *   so DELETE_VCPU elsewhere gets FAIL_INUSE and a VMSA never runs on two
 *   CPUs at once; before every VMRUN it passes the hardware's run checks
 *   (vmsa_model_can_run) for the VMPL it runs at;
 * - what SEV-ES does not let the hypervisor see stays here: a
 *   non-automatic exit (CPUID, port I/O, MSRs, VMMCALL, MMIO) becomes #VC
 *   in the guest, inside world_run(); only automatic exits (VMGEXIT, HLT,
 *   #NPF, CR8 writes, interrupts, a shutdown) are returned to the
 *   hypervisor (hv.c), which owns the loop and learns nothing but the
 *   exit and the GHCB MSR. This file calls nothing of the hypervisor's.
 */
#include "world.h"

#include "svsm/std.h"

#include "abi/ghcb.h"

#include "model/vmsa_model.h"

#include "arch.h"
#include "insn.h"
#include "instrument.h"
#include "machine/fpu.h"
#include "machine/lapic.h"
#include "machine/layout.h"
#include "mcpu.h"
#include "npt.h"
#include "postmortem.h"
#include "rmp.h"
#include "vc.h"
#include "walk.h"
#include "xsave.h"

#define SEV_STATUS_SEV 0x1ull
#define SEV_STATUS_ES 0x2ull
#define SEV_STATUS_FEATURE_SHIFT 2u
#define MSR_INSN_LEN 2u
#define MSR_PAT 0x277u
#define MSR_TSC_AUX 0xC0000103u
#define RFLAGS_IF (1ull << 9)
#define VMGEXIT_LEN 4u
#define MXCSR_DEFAULT 0x1F80u
#define XSAVE_MXCSR_OFF 24u
#define CR0_PG (1ull << 31)

/* Every I/O port and every MSR exits, except the MSRs SEV-ES keeps in
 * the VMSA (VMLOAD/VMSAVE move them): FS, GS, KernelGSBase, the SYSCALL
 * and SYSENTER MSRs. */
static uint8_t *msrpm;
static uint8_t *iopm;

static const uint32_t passthrough_msrs[] = {
	0xC0000100u, 0xC0000101u, 0xC0000102u, /* FS, GS, KernelGS base */
	0xC0000081u, 0xC0000082u, 0xC0000083u, 0xC0000084u, /* STAR.. */
	0x174u,	     0x175u,	  0x176u,		    /* SYSENTER */
};

/* Exits whose EXITINTINFO named an event no delivery was under way for
 * (may_cut_delivery), per CPU: reported at the machine's exit. */
static uint64_t stale_exit_int_info[MACHINE_MAX_CPUS];

static void msrpm_allow(uint32_t msr)
{
	uint32_t base, bit;

	if (msr < 0x2000u) {
		base = 0;
		bit = msr * 2;
	} else if (msr >= 0xC0000000u && msr < 0xC0002000u) {
		base = 0x800u * 8;
		bit = (msr - 0xC0000000u) * 2;
	} else {
		base = 0x1000u * 8;
		bit = (msr - 0xC0010000u) * 2;
	}
	bit += base;
	msrpm[bit / 8] &= (uint8_t) ~(3u << (bit % 8));
}

void world_cpu_init(struct mcpu *c)
{
	unsigned vmpl, i;

	if (msrpm == NULL) { /* the boot CPU, before the APs start */
		msrpm = mm_alloc_pages(2);
		memset(msrpm, 0xFF, 2 * PAGE);
		for (i = 0; i < sizeof(passthrough_msrs) / 4; i++) {
			msrpm_allow(passthrough_msrs[i]);
		}
		iopm = mm_alloc_pages(3);
		memset(iopm, 0xFF, 3 * PAGE);
	}
	for (vmpl = 0; vmpl < MACHINE_VMPLS; vmpl++) {
		c->vmcb[vmpl] = mm_alloc_pages(1);
	}
	for (vmpl = 0; vmpl <= MACHINE_VMPLS; vmpl++) {
		c->fpu[vmpl] = mm_alloc_pages(1);
	}
	c->hsave = mm_alloc_pages(1);
	c->host_save = mm_alloc_pages(1);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SVME);
	wrmsr(MSR_VM_HSAVE_PA, (uint64_t)c->hsave);
}

static void vmcb_init(struct vmcb *vmcb, unsigned vmpl)
{
	struct vmcb_control *ctl = &vmcb->control;

	memset(vmcb, 0, sizeof(*vmcb));
	/* #UD: the SNP instructions and XSAVEC; #GP: XRSTOR of a compacted
	 * area (xsave.h). */
	ctl->intercept_exc = (1u << VEC_UD) | (1u << VEC_GP);
	/* CR8 writes (exit_cr8): QEMU 7.2's own handling of one raises a
	 * pending virtual interrupt outside its big lock and aborts. */
	ctl->intercept_cr = VMCB_CR_WRITE(8);
	ctl->intercept1 = VMCB_I1_INTR | VMCB_I1_NMI | VMCB_I1_SMI |
			  VMCB_I1_INIT | VMCB_I1_CPUID | VMCB_I1_HLT |
			  VMCB_I1_INVLPGA | VMCB_I1_IOIO | VMCB_I1_MSR |
			  VMCB_I1_SHUTDOWN;
	ctl->intercept2 = VMCB_I2_VMRUN | VMCB_I2_VMMCALL | VMCB_I2_VMLOAD |
			  VMCB_I2_VMSAVE | VMCB_I2_STGI | VMCB_I2_CLGI |
			  VMCB_I2_SKINIT;
	ctl->iopm_pa = (uint64_t)iopm;
	ctl->msrpm_pa = (uint64_t)msrpm;
	ctl->asid = vmpl + 1;
	ctl->tlb_control = VMCB_TLB_FLUSH_ALL;
	ctl->int_ctl = VMCB_INT_CTL_V_INTR_MASKING;
	ctl->np_ctl = VMCB_NP_ENABLE;
	ctl->n_cr3 = npt_root(vmpl, true);
}

/* The VMSA at @gpa as the hardware reads it (NULL: none, not a page's
 * address, or not guest memory; the RMP check at VMRUN says whether it
 * may run). A VMSA address is a page's: one inside a page would make
 * the struct span the next page, which no RMP check covers. */
static struct snp_vmsa *vmsa_at(uint64_t gpa)
{
	return gpa != 0 && gpa % PAGE == 0 ? guest_ptr(gpa, PAGE) : NULL;
}

/* The VMSA the hypervisor names in its control, for what the hardware
 * reads of it outside a VMRUN (Restricted Injection at injection, the
 * state a stop prints): only a page the RMP says is a VMSA, so its
 * answers tell the hypervisor nothing of any other page. */
static const struct snp_vmsa *vmsa_named(const struct world_ctl *ctl)
{
	const struct snp_vmsa *a = vmsa_at(ctl->vmsa_gpa);
	const struct rmp_entry *e;
	bool is_vmsa;

	if (a == NULL) {
		return NULL;
	}
	rmp_lock();
	e = rmp_lookup(&machine_rmp, ctl->vmsa_gpa);
	is_vmsa = e != NULL && (e->flags & RMP_F_VMSA) != 0;
	rmp_unlock();
	return is_vmsa ? a : NULL;
}

/* VMSA -> VMCB: the fields VMRUN and VMLOAD take from the save area. */
static void vcpu_enter(struct mcpu *c, const struct snp_vmsa *a,
		       struct vmcb_save *s)
{
	s->es = a->es;
	s->cs = a->cs;
	s->ss = a->ss;
	s->ds = a->ds;
	s->fs = a->fs;
	s->gs = a->gs;
	s->gdtr = a->gdtr;
	s->ldtr = a->ldtr;
	s->idtr = a->idtr;
	s->tr = a->tr;
	s->cpl = a->cpl;
	s->efer = a->efer | EFER_SVME;
	s->cr4 = a->cr4;
	s->cr3 = a->cr3;
	s->cr0 = a->cr0;
	s->dr7 = a->dr7;
	s->dr6 = a->dr6;
	s->rflags = a->rflags;
	s->rip = a->rip;
	s->rsp = a->rsp;
	s->rax = a->rax;
	s->star = a->star;
	s->lstar = a->lstar;
	s->cstar = a->cstar;
	s->sfmask = a->sfmask;
	s->kernel_gs_base = a->kernel_gs_base;
	s->sysenter_cs = a->sysenter_cs;
	s->sysenter_esp = a->sysenter_esp;
	s->sysenter_eip = a->sysenter_eip;
	s->cr2 = a->cr2;
	s->g_pat = a->g_pat;
	c->gprs = (struct svm_gprs){
		.rbx = a->rbx,
		.rcx = a->rcx,
		.rdx = a->rdx,
		.rbp = a->rbp,
		.rsi = a->rsi,
		.rdi = a->rdi,
		.r8 = a->r8,
		.r9 = a->r9,
		.r10 = a->r10,
		.r11 = a->r11,
		.r12 = a->r12,
		.r13 = a->r13,
		.r14 = a->r14,
		.r15 = a->r15,
	};
}

/* VMCB -> VMSA after #VMEXIT, as SEV-ES hardware saves the guest. */
static void vcpu_leave(struct mcpu *c, struct snp_vmsa *a,
		       const struct vmcb *vmcb)
{
	const struct vmcb_save *s = &vmcb->save;
	const struct vmcb_control *ctl = &vmcb->control;

	a->es = s->es;
	a->cs = s->cs;
	a->ss = s->ss;
	a->ds = s->ds;
	a->fs = s->fs;
	a->gs = s->gs;
	a->gdtr = s->gdtr;
	a->ldtr = s->ldtr;
	a->idtr = s->idtr;
	a->tr = s->tr;
	a->cpl = s->cpl;
	/* EFER.SVME in the VMSA is its owner's "may run" flag: kept. */
	a->efer = (s->efer & ~EFER_SVME) | (a->efer & EFER_SVME);
	a->cr4 = s->cr4;
	a->cr3 = s->cr3;
	a->cr0 = s->cr0;
	a->dr7 = s->dr7;
	a->dr6 = s->dr6;
	a->rflags = s->rflags;
	a->rip = s->rip;
	a->rsp = s->rsp;
	a->rax = s->rax;
	a->star = s->star;
	a->lstar = s->lstar;
	a->cstar = s->cstar;
	a->sfmask = s->sfmask;
	a->kernel_gs_base = s->kernel_gs_base;
	a->sysenter_cs = s->sysenter_cs;
	a->sysenter_esp = s->sysenter_esp;
	a->sysenter_eip = s->sysenter_eip;
	a->cr2 = s->cr2;
	a->g_pat = s->g_pat;
	a->rbx = c->gprs.rbx;
	a->rcx = c->gprs.rcx;
	a->rdx = c->gprs.rdx;
	a->rbp = c->gprs.rbp;
	a->rsi = c->gprs.rsi;
	a->rdi = c->gprs.rdi;
	a->r8 = c->gprs.r8;
	a->r9 = c->gprs.r9;
	a->r10 = c->gprs.r10;
	a->r11 = c->gprs.r11;
	a->r12 = c->gprs.r12;
	a->r13 = c->gprs.r13;
	a->r14 = c->gprs.r14;
	a->r15 = c->gprs.r15;
	a->guest_exit_code = ctl->exit_code;
	a->guest_exit_info_1 = ctl->exit_info_1;
	a->guest_exit_info_2 = ctl->exit_info_2;
	a->guest_exit_int_info = ctl->exit_int_info;
}

static void fpu_reset(void *area)
{
	memset(area, 0, PAGE);
	*(uint32_t *)((uint8_t *)area + XSAVE_MXCSR_OFF) = MXCSR_DEFAULT;
}

/* The registers hold @vmpl's x87/SSE/AVX state and XCR0 (SEV-ES: the
 * VMSA's), never another VMPL's: the SVSM's keys in XMM registers must
 * not reach VMPL1. */
static void fpu_switch(struct mcpu *c, unsigned vmpl, uint64_t xcr0)
{
	if (c->fpu_vmpl == vmpl) {
		return;
	}
	fpu_save_all(c->fpu[c->fpu_vmpl]);
	fpu_load_all(c->fpu[vmpl]);
	xsetbv(0, xcr0);
	c->fpu_vmpl = vmpl;
}

/* The hardware's VMRUN checks and the in-use mark, in one step. */
static bool begin_run(struct mcpu *c, uint64_t gpa, unsigned vmpl,
		      struct snp_vmsa *a)
{
	const struct rmp_entry *e;
	bool ok;

	rmp_lock();
	e = rmp_lookup(&machine_rmp, gpa);
	ok = e != NULL &&
	     vmsa_model_can_run(&machine_rmp, gpa, a, vmpl) == VMSA_RUN_OK &&
	     (e->flags & RMP_F_IN_USE) == 0;
	if (ok) {
		rmp_vmsa_set_in_use(&machine_rmp, gpa, true);
		c->held_vmsa = gpa;
	}
	rmp_unlock();
	return ok;
}

static void end_run(struct mcpu *c)
{
	c->npf_held = false;
	if (c->held_vmsa != 0) {
		rmp_lock();
		rmp_vmsa_set_in_use(&machine_rmp, c->held_vmsa, false);
		rmp_unlock();
		c->held_vmsa = 0;
	}
}

/*
 * Whether an exit with @code can have cut an event's delivery short
 * (EXITINTINFO, APM vol. 2, 15.7.2): a nested page fault or #GP on the
 * way to the handler, a physical interrupt, NMI or SMI taken at that
 * moment, or the shutdown a failed delivery ends in. An instruction's own
 * intercept (VMGEXIT, MSR, CPUID, I/O, HLT, #UD) cannot, so a valid
 * EXITINTINFO there would be the CPU's error: it is counted, never
 * delivered. (QEMU clears only the valid bit of an event it delivered:
 * the vector and error code it leaves are no event.)
 */
static bool may_cut_delivery(uint32_t code)
{
	return code == SVM_EXIT_NPF || code == SVM_EXIT_EXCP_BASE + VEC_GP ||
	       code == SVM_EXIT_INTR || code == SVM_EXIT_NMI ||
	       code == SVM_EXIT_INTR + 2 /* SMI */ ||
	       code == SVM_EXIT_SHUTDOWN /* the delivery that failed */;
}

/*
 * Whether the event in @info was raised by the instruction at RIP itself:
 * INT n, INT3, INTO (QEMU reports all three as software interrupts;
 * hardware reports INT3 and INTO as exceptions). RIP still points at the
 * instruction when such a delivery is cut short, and an injected
 * software event returns to RIP, not past the instruction, so injecting
 * it again hands the handler the wrong return address (Linux's
 * poke_int3_handler then misses its patch site and oopses). The
 * instruction runs again instead, as KVM does with INT3 and INTO.
 */
static bool raised_by_instruction(uint64_t info)
{
	unsigned type = (unsigned)(info & EVENT_TYPE_MASK);
	unsigned vector = (unsigned)(info & 0xFFu);

	return type == EVENT_TYPE_SOFT ||
	       (type == EVENT_TYPE_EXCEPTION &&
		(vector == VEC_BP || vector == VEC_OF));
}

/* A VMSA with Restricted Injection takes no event from the hypervisor
 * but #HV, and no virtual interrupt. */
static bool restricted(const struct snp_vmsa *a)
{
	return (a->sev_features & SEV_FEAT_RESTRICTED_INJECTION) != 0;
}

static void run_once(struct mcpu *c, struct world_ctl *wc, unsigned vmpl,
		     struct snp_vmsa *a)
{
	struct vmcb *vmcb = c->vmcb[vmpl];
	struct vmcb_control *ctl = &vmcb->control;
	uint64_t gen, root;

	fpu_switch(c, vmpl, a->xcr0 != 0 ? a->xcr0 : 1);
	if (c->pending_event[vmpl] == 0 && wc->event != 0) {
		/* Restricted Injection, enforced at VMRUN whatever the
		 * hypervisor wrote: its event is #HV or nothing. */
		if (!restricted(a) ||
		    wc->event ==
			    (VEC_HV | EVENT_TYPE_EXCEPTION | EVENT_VALID)) {
			c->pending_event[vmpl] = wc->event;
		} else {
			mlog("vCPU %u VMPL%u: event %llx refused at VMRUN "
			     "(Restricted Injection)",
			     c->index, vmpl, (unsigned long long)wc->event);
		}
		wc->event = 0;
	}
	/* An injected interrupt, delivered by the machine (vc.h: QEMU would
	 * deliver it twice now and then); EVENTINJ takes the rest. */
	if ((c->pending_event[vmpl] & EVENT_TYPE_MASK) == EVENT_TYPE_INTR &&
	    (c->pending_event[vmpl] & EVENT_VALID) != 0 &&
	    vc_deliver_intr(a, vmpl,
			    (unsigned)(c->pending_event[vmpl] & 0xFFu))) {
		c->pending_event[vmpl] = 0;
	}
	vcpu_enter(c, a, &vmcb->save);
	ctl->event_inj = c->pending_event[vmpl];
	c->pending_event[vmpl] = 0;
	/* The interrupt window: QEMU exits with VINTR once the guest has
	 * IF set and no interrupt shadow. */
	ctl->int_ctl &= ~(VMCB_INT_CTL_V_IRQ | VMCB_INT_CTL_V_INTR_PRIO(0xF) |
			  VMCB_INT_CTL_V_IGN_TPR);
	ctl->intercept1 &= ~VMCB_I1_VINTR;
	if (wc->irq_window && !restricted(a)) {
		ctl->int_ctl |= VMCB_INT_CTL_V_IRQ |
				VMCB_INT_CTL_V_INTR_PRIO(0xF) |
				VMCB_INT_CTL_V_IGN_TPR;
		ctl->intercept1 |= VMCB_I1_VINTR;
	}
	if (c->tsc_aux_loaded != c->vcpu.tsc_aux[vmpl]) {
		wrmsr(MSR_TSC_AUX, c->vcpu.tsc_aux[vmpl]);
		c->tsc_aux_loaded = c->vcpu.tsc_aux[vmpl];
	}
	/* Publish in_guest before reading the flush generation (rmp.c). */
	__atomic_store_n(&c->in_guest, true, __ATOMIC_SEQ_CST);
	gen = rmp_flush_gen();
	if (c->flush_gen_seen < gen || c->flush_self) {
		ctl->tlb_control = VMCB_TLB_FLUSH_ALL;
		c->flush_self = false;
	}
	__atomic_store_n(&c->flush_gen_seen, gen, __ATOMIC_SEQ_CST);
	/* Unpaged, every access is private (npt.h); a new root, a flush. */
	root = npt_root(vmpl, (a->cr0 & CR0_PG) != 0);
	if (ctl->n_cr3 != root) {
		ctl->n_cr3 = root;
		ctl->tlb_control = VMCB_TLB_FLUSH_ALL;
	}
	instr_at(c->index, vmpl);
	svm_run((uint64_t)vmcb, &c->gprs, (uint64_t)c->host_save);
	instr_at(c->index, INSTR_MACHINE);
	__atomic_store_n(&c->in_guest, false, __ATOMIC_SEQ_CST);
	ctl->tlb_control = 0;
	instr_exit(c->index, vmpl, ctl->exit_code);
	vcpu_leave(c, a, vmcb);
	pm_exit(c->index, vmpl, ctl, a->rip);
	a->xcr0 = fpu_xcr0();
	/* An event cut short by the exit is delivered again. */
	if ((ctl->exit_int_info & EVENT_VALID) != 0) {
		if (!may_cut_delivery((uint32_t)ctl->exit_code)) {
			stale_exit_int_info[c->index]++;
		} else if (!raised_by_instruction(ctl->exit_int_info)) {
			c->pending_event[vmpl] = ctl->exit_int_info;
		}
	}
}

static void inject_hw(struct mcpu *c, unsigned vector, bool has_error,
		      uint32_t error)
{
	uint64_t ev = vector | EVENT_TYPE_EXCEPTION | EVENT_VALID;

	if (has_error) {
		ev |= EVENT_EV | ((uint64_t)error << 32);
	}
	c->pending_event[c->vcpu.vmpl] = ev; /* the exit in hand's VMPL */
}

/* A #PF an emulated instruction's operand access raised (walk.h). */
static void inject_pf(struct mcpu *c, struct snp_vmsa *a,
		      const struct gw_fault *f)
{
	a->cr2 = f->addr;
	inject_hw(c, VEC_PF, true, f->error);
}

static void stop_log(struct mcpu *c, unsigned vmpl, const struct snp_vmsa *a,
		     const char *why)
{
	mlog("vCPU %u VMPL%u: %s at RIP %llx", c->index, vmpl, why,
	     (unsigned long long)(a != NULL ? a->rip : 0));
	if (a != NULL) {
		pm_vcpu(c->index, vmpl, a);
	}
}

void world_log_stop(struct mcpu *c, const struct world_ctl *ctl, unsigned vmpl,
		    const char *why)
{
	MCHECK(c == mcpu_this());
	stop_log(c, vmpl, vmsa_named(ctl), why);
}

/* A triple fault while the hardware delivers an event it raised itself:
 * the VM is over. */
static void shutdown(struct mcpu *c, unsigned vmpl, const struct snp_vmsa *a,
		     const char *why) __attribute__((noreturn));
static void shutdown(struct mcpu *c, unsigned vmpl, const struct snp_vmsa *a,
		     const char *why)
{
	stop_log(c, vmpl, a, why);
	world_report();
	machine_exit(MACHINE_EXIT_GUEST_SHUTDOWN);
}

/* #DE, #TS, #NP, #SS, #GP: the faults x86 calls contributory. */
static bool contributory(unsigned vector)
{
	return vector == VEC_DE || (vector >= VEC_TS && vector <= VEC_GP);
}

/*
 * A #GP the hardware raised while it delivered another exception (QEMU
 * reports the intercepted #GP with that event in EXITINTINFO): x86's
 * double-fault rules (APM vol. 2, 8.2.9), as the CPU applies them to a
 * #GP it does not intercept. After a contributory fault or #PF it is a
 * #DF; during #DF it is a triple fault: the VM shuts down. Else (an
 * interrupt, a benign exception) the #GP is delivered: false.
 */
static bool gp_in_delivery(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a)
{
	uint64_t info = c->vmcb[vmpl]->control.exit_int_info;
	unsigned vector = (unsigned)(info & 0xFFu);

	if ((info & EVENT_VALID) == 0 ||
	    (info & EVENT_TYPE_MASK) != EVENT_TYPE_EXCEPTION) {
		return false;
	}
	if (vector == VEC_DF) {
		shutdown(c, vmpl, a,
			 "shutdown (triple fault: #GP delivering "
			 "#DF)");
	}
	if (!contributory(vector) && vector != VEC_PF) {
		return false;
	}
	inject_hw(c, VEC_DF, true, 0);
	return true;
}

/* A non-automatic exit: #VC with the exit code, as SEV-ES raises it. */
static void raise_vc(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
		     uint64_t code)
{
	if (!vc_deliver(a, vmpl, VEC_VC, code)) {
		mlog("vCPU %u VMPL%u: #VC %llx, IDT %llx limit %x, RSP %llx",
		     c->index, vmpl, (unsigned long long)code,
		     (unsigned long long)a->idtr.base, a->idtr.limit,
		     (unsigned long long)a->rsp);
		shutdown(c, vmpl, a, "#VC cannot be delivered (triple fault)");
	}
}

void world_vc_npf(struct mcpu *c, unsigned vmpl)
{
	/* Only into the VMSA whose exit is in hand (in use, checked at its
	 * VMRUN): the hypervisor names no page the hardware writes. */
	struct snp_vmsa *a = vmsa_at(c->held_vmsa);

	MCHECK(c == mcpu_this() && a != NULL && vmpl == c->vcpu.vmpl &&
	       c->npf_held);
	raise_vc(c, vmpl, a, VC_NPF);
}

static void exit_msr(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
		     bool write)
{
	uint32_t msr = (uint32_t)a->rcx;
	uint64_t val = (a->rdx << 32) | (uint32_t)a->rax;

	switch (msr) {
	case GHCB_MSR: /* in the VMSA on SEV-ES: no exit there */
		if (write) {
			c->vcpu.ghcb_msr[vmpl] = val;
		} else {
			val = c->vcpu.ghcb_msr[vmpl];
		}
		break;
	case MSR_SEV_STATUS:
		if (write) {
			inject_hw(c, VEC_GP, true, 0);
			return;
		}
		val = SEV_STATUS_SEV | SEV_STATUS_ES |
		      (a->sev_features << SEV_STATUS_FEATURE_SHIFT);
		break;
	case MSR_PAT: /* G_PAT, in the VMSA */
		if (write) {
			a->g_pat = val;
		} else {
			val = a->g_pat;
		}
		break;
	case MSR_TSC_AUX:
		if (write) {
			if ((val >> 32) != 0) {
				inject_hw(c, VEC_GP, true, 0);
				return;
			}
			c->vcpu.tsc_aux[vmpl] = val;
		} else {
			val = c->vcpu.tsc_aux[vmpl];
		}
		break;
	case MSR_EFER:
		if (write) {
			/* LMA is the CPU's; SVME stays as the VMSA has it. */
			a->efer = (val & ~(EFER_SVME | EFER_LMA)) |
				  (a->efer & (EFER_SVME | EFER_LMA));
		} else {
			val = a->efer;
		}
		break;
	default:
		raise_vc(c, vmpl, a, SVM_EXIT_MSR);
		return;
	}
	if (!write) {
		a->rax = (uint32_t)val;
		a->rdx = val >> 32;
	}
	a->rip += MSR_INSN_LEN;
}

/*
 * SEV: the CPU walks a guest's page tables, and fetches its instructions,
 * as private memory whatever the C-bit in CR3 or in a table entry says
 * (Linux's decompressor and OVMF's reset vector load CR3 without it;
 * OVMF's upper levels lack it too). QEMU goes through the alias each
 * names, so such an access faults on the shared alias: the nested tables
 * then map the shared alias of that page onto the private page
 * (npt_private_alias), and the access runs again over the guest's private
 * page, as on hardware, with CR3 as the guest wrote it (OVMF reads CR3
 * back and uses it as an address). A data access through the same shared
 * alias sees the guest's own private bytes until the RMP next changes that
 * page (hardware would fault it), which gives the guest nothing it could
 * not read and write through the private alias. False: the access is to
 * be judged as the private one it is.
 */
static bool private_by_hardware(struct mcpu *c, unsigned vmpl,
				const struct snp_vmsa *a, uint64_t info1,
				uint64_t gpa)
{
	uint64_t page = gpa & ~(PAGE - 1);
	unsigned perm = RMP_PERM_READ;
	bool ok;

	if ((info1 & (NPF_PT_WALK | NPF_FETCH)) == 0 ||
	    (gpa & MACHINE_C_MASK) != 0 || guest_ptr(page, PAGE) == NULL) {
		return false;
	}
	if ((info1 & NPF_WRITE) != 0) {
		perm |= RMP_PERM_WRITE;
	}
	if ((info1 & NPF_FETCH) != 0 && (info1 & NPF_PT_WALK) == 0) {
		perm |= a->cpl == 3 ? RMP_PERM_EXEC_USER : RMP_PERM_EXEC_SUPER;
	}
	rmp_lock();
	ok = npt_private_alias(&machine_rmp, vmpl, page, perm);
	rmp_unlock();
	if (ok) {
		c->flush_self = true;
	}
	return ok;
}

/* #NPF. The nested tables map exactly what the RMP allows, so this is an
 * access the RMP refuses, or one a stale translation missed. */
static bool exit_npf(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
		     uint64_t info1, uint64_t gpa, struct world_exit *e)
{
	uint64_t page = gpa & ~MACHINE_C_MASK & ~(PAGE - 1);
	unsigned perm = RMP_PERM_READ;
	enum rmp_fault fault = RMP_FAULT_NPF;

	if (private_by_hardware(c, vmpl, a, info1, gpa)) {
		return false; /* the walk or fetch runs again, privately */
	}
	if ((info1 & (NPF_PT_WALK | NPF_FETCH)) != 0) {
		gpa |= MACHINE_C_MASK; /* judged as the private access it is */
		page = gpa & ~MACHINE_C_MASK & ~(PAGE - 1);
	}
	/* Paging turned on since the VMRUN that chose the unpaged root: a
	 * shared access meets the private alias. Run again on the paged
	 * root. (Until then a shared access to a private page went through
	 * unfaulted; nothing secret crosses, as the bytes are the guest's
	 * own.) */
	if ((gpa & MACHINE_C_MASK) == 0 && (a->cr0 & CR0_PG) != 0 &&
	    c->vmcb[vmpl]->control.n_cr3 == npt_root(vmpl, false)) {
		return false;
	}
	if ((info1 & NPF_WRITE) != 0) {
		perm |= RMP_PERM_WRITE;
	}
	if ((info1 & NPF_FETCH) != 0) {
		perm |= a->cpl == 3 ? RMP_PERM_EXEC_USER : RMP_PERM_EXEC_SUPER;
	}
	if (guest_ptr(page, PAGE) != NULL) {
		rmp_lock();
		fault = (gpa & MACHINE_C_MASK) != 0
				? rmp_check_access(&machine_rmp, vmpl, page,
						   perm)
				: rmp_check_shared_access(&machine_rmp, page);
		if (fault == RMP_ACCESS_OK) {
			/* Changed after this CPU's walk: refresh, retry once.
			 */
			rmp_changed(page, PAGE);
			if (c->npf_retry_gpa == gpa) {
				fault = RMP_FAULT_NPF;
			}
		}
		rmp_unlock();
	}
	c->npf_retry_gpa = fault == RMP_ACCESS_OK ? gpa : 0;
	if (fault == RMP_ACCESS_OK) {
		c->flush_self = true; /* and retry */
		return false;
	}
	if (fault == RMP_FAULT_NOT_VALIDATED) {
		raise_vc(c, vmpl, a, VC_NPF_NOT_VALIDATED);
		return false;
	}
	/* Automatic exit to the hypervisor: MMIO (outside RAM) or an RMP
	 * violation, at the address as judged (private for a walk or a
	 * fetch, whatever the C-bit the guest's tables gave it). */
	e->gpa = gpa;
	c->npf_held = true;
	return true;
}

static uint64_t vmsa_gpr(const struct snp_vmsa *a, unsigned r)
{
	const uint64_t regs[16] = {
		a->rax, a->rcx, a->rdx, a->rbx, a->rsp, a->rbp, a->rsi, a->rdi,
		a->r8,	a->r9,	a->r10, a->r11, a->r12, a->r13, a->r14, a->r15};

	return regs[r & 15u];
}

/*
 * MOV to CR8, intercepted (vmcb_init): the TPR's priority class. With
 * SEV-ES, KVM takes CR8 writes as a trap (CR8_WRITE_TRAP) and keeps its
 * local APIC's TPR in step: the hardware role sets the VMCB's V_TPR, from
 * which the CPU answers reads of CR8, and tells the hypervisor. The forms:
 * [REX] 0F 22 /r with REX.R (CR8), and AMD's LOCK 0F 22 /r (CR0 with LOCK:
 * CR8). Anything else is #UD.
 */
static bool exit_cr8(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
		     uint64_t *cr8)
{
	uint8_t b[4];
	unsigned at = 0, rex = 0;
	uint64_t v;

	if (!gw_read(a, vmpl, a->rip, b, sizeof(b), true)) {
		inject_hw(c, VEC_UD, false, 0);
		return false;
	}
	if (b[0] == 0xF0 || (b[0] & 0xF0u) == 0x40u) {
		rex = b[0] == 0xF0 ? 0 : b[0];
		at = 1;
	}
	if (at == 0 || b[at] != 0x0F || b[at + 1] != 0x22 ||
	    (b[at + 2] & 0xC0u) != 0xC0u || ((b[at + 2] >> 3) & 7u) != 0 ||
	    (b[0] != 0xF0 && (rex & 4u) == 0)) {
		inject_hw(c, VEC_UD, false, 0);
		return false;
	}
	v = vmsa_gpr(a, (b[at + 2] & 7u) | ((rex & 1u) << 3));
	if ((v & ~VMCB_INT_CTL_V_TPR_MASK) != 0) {
		inject_hw(c, VEC_GP, true, 0); /* reserved bits */
		return false;
	}
	c->vmcb[vmpl]->control.int_ctl =
		(c->vmcb[vmpl]->control.int_ctl & ~VMCB_INT_CTL_V_TPR_MASK) | v;
	a->rip += at + 3;
	*cr8 = v; /* a trap to the hypervisor: the write is done */
	return true;
}

static bool exit_vmmcall(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a)
{
	static const uint8_t vmgexit[VMGEXIT_LEN] = {0xF3, 0x0F, 0x01, 0xD9};
	uint8_t insn[VMGEXIT_LEN];

	if (gw_read(a, vmpl, a->rip, insn, sizeof(insn), true) &&
	    memcmp(insn, vmgexit, sizeof(insn)) == 0) {
		/* An automatic exit: SEV-ES reports RIP after it, and the
		 * VMSA records the exit (the SVSM reads it). */
		a->rip += VMGEXIT_LEN;
		a->guest_exit_code = SVM_EXIT_VMGEXIT;
		return true;
	}
	raise_vc(c, vmpl, a, SVM_EXIT_VMMCALL);
	return false;
}

/* The hardware's part of the exit in @c's VMCB for @vmpl. True: an
 * automatic exit, for the hypervisor (@e); false: handled (#VC, the SNP
 * instructions, the GHCB MSR, ...), the VMSA runs again. */
static bool dispatch(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
		     struct world_exit *e)
{
	const struct vmcb_control *ctl = &c->vmcb[vmpl]->control;
	uint32_t code = (uint32_t)ctl->exit_code;

	if (code != SVM_EXIT_NPF) {
		c->npf_retry_gpa = 0;
	}
	/* An instruction completed or skipped, or an event delivered, ends
	 * the interrupt shadow (KVM clears it when it skips one): a guest's
	 * "sti; hlt" takes its interrupt after the HLT. */
	if (code != SVM_EXIT_INTR && code != SVM_EXIT_NMI &&
	    code != SVM_EXIT_VINTR && code != SVM_EXIT_NPF) {
		c->vmcb[vmpl]->control.int_state &= ~VMCB_INT_STATE_SHADOW;
	}
	switch (code) {
	case SVM_EXIT_VMMCALL:
		e->code = WORLD_EXIT_VMGEXIT;
		e->ghcb_msr = c->vcpu.ghcb_msr[vmpl];
		return exit_vmmcall(c, vmpl, a);
	case SVM_EXIT_MSR:
		exit_msr(c, vmpl, a, ctl->exit_info_1 == 1);
		return false;
	case SVM_EXIT_CPUID:
	case SVM_EXIT_IOIO:
		raise_vc(c, vmpl, a, code);
		return false;
	case SVM_EXIT_NPF:
		e->code = WORLD_EXIT_NPF;
		e->info1 = ctl->exit_info_1;
		return exit_npf(c, vmpl, a, ctl->exit_info_1, ctl->exit_info_2,
				e);
	case SVM_EXIT_UD: {
		struct gw_fault f;
		enum insn_result r = insn_ud(c, vmpl, a, &e->gpa);

		if (r == INSN_UD) {
			r = xsave_ud(c, vmpl, a, &f);
		}
		switch (r) {
		case INSN_DONE:
			break;
		case INSN_SIZEM: /* executed again once the hypervisor
				    smashed the 2 MiB entry */
			e->code = WORLD_EXIT_SIZEM;
			return true;
		case INSN_UD:
			inject_hw(c, VEC_UD, false, 0);
			break;
		case INSN_GP:
			inject_hw(c, VEC_GP, true, 0);
			break;
		case INSN_PF:
			inject_pf(c, a, &f);
			break;
		}
		return false;
	}
	case SVM_EXIT_EXCP_BASE + VEC_GP: {
		struct gw_fault f;
		enum insn_result r = INSN_GP;

		/* XRSTOR of a compacted area when an instruction raised the
		 * #GP; a #GP on the way to a handler is delivery's. */
		if ((ctl->exit_int_info & EVENT_VALID) == 0) {
			r = xsave_gp(c, vmpl, a, &f);
		}
		if (r == INSN_PF) {
			inject_pf(c, a, &f);
		} else if (r != INSN_DONE && !gp_in_delivery(c, vmpl, a)) {
			/* the guest's own #GP */
			inject_hw(c, VEC_GP, true, (uint32_t)ctl->exit_info_1);
		}
		return false;
	}
	case SVM_EXIT_VINTR: /* the window is open: the hypervisor injects */
		e->code = WORLD_EXIT_INTR;
		return true;
	case SVM_EXIT_INTR:
	case SVM_EXIT_NMI:
		/* The IPI handler runs (EOI) in the one-instruction window. */
		__asm__ volatile("sti; nop; cli" ::: "memory");
		e->code = WORLD_EXIT_INTR;
		return true;
	case SVM_EXIT_WRITE_CR8:
		e->code = WORLD_EXIT_CR8;
		return exit_cr8(c, vmpl, a, &e->cr8);
	case SVM_EXIT_HLT:
		a->rip += 1;
		e->code = WORLD_EXIT_HLT;
		return true;
	case SVM_EXIT_SHUTDOWN:
		stop_log(c, vmpl, a, "shutdown (triple fault)");
		e->code = WORLD_EXIT_SHUTDOWN;
		return true;
	case SVM_EXIT_VMRUN:
	case SVM_EXIT_VMLOAD:
	case SVM_EXIT_VMLOAD + 1: /* VMSAVE */
	case SVM_EXIT_VMLOAD + 2: /* STGI */
	case SVM_EXIT_VMLOAD + 3: /* CLGI */
	case SVM_EXIT_SKINIT:
		inject_hw(c, VEC_UD, false, 0);
		return false;
	case SVM_EXIT_INVALID:
		stop_log(c, vmpl, a, "VMRUN refused the VMSA's state");
		e->code = WORLD_EXIT_SHUTDOWN;
		return true;
	default:
		/* An exit this machine never asked for: its own bug, not the
		 * guest's shutdown. */
		machine_panic("vCPU %u VMPL%u: unexpected exit %x", c->index,
			      vmpl, code);
	}
}

void world_vcpu_reset(struct mcpu *c)
{
	unsigned vmpl;

	/* Once, before the first VMRUN: SNP keeps a vCPU's state in its
	 * VMSAs, which no host resets. */
	MCHECK(c == mcpu_this() && !c->reset_done);
	c->reset_done = true;
	for (vmpl = 0; vmpl < MACHINE_VMPLS; vmpl++) {
		vmcb_init(c->vmcb[vmpl], vmpl);
	}
	/* The registers are the machine's own, nobody's; each VMPL's x87
	 * state starts at its first VMSA's first run (vmsa_switch). */
	c->fpu_vmpl = MACHINE_VMPLS;
	instr_at(c->index, INSTR_MACHINE);
}

void world_new_vmsa(struct mcpu *c, struct world_ctl *ctl, unsigned vmpl,
		    uint64_t gpa)
{
	MCHECK(c == mcpu_this() && vmpl < MACHINE_VMPLS);
	/* The hardware notes the change at the next VMRUN (vmsa_ran): the
	 * hypervisor only names the page. */
	ctl->vmsa_gpa = gpa;
}

/* An event of the hardware's own waits at some VMPL: it goes first. */
static bool hw_event_pending(const struct mcpu *c)
{
	unsigned vmpl;

	for (vmpl = 0; vmpl < MACHINE_VMPLS; vmpl++) {
		if (c->pending_event[vmpl] != 0) {
			return true;
		}
	}
	return false;
}

static bool restricted_injection(const struct world_ctl *ctl)
{
	const struct snp_vmsa *a = vmsa_named(ctl);

	return a != NULL &&
	       (a->sev_features & SEV_FEAT_RESTRICTED_INJECTION) != 0;
}

bool world_inject(struct mcpu *c, struct world_ctl *ctl, unsigned vmpl,
		  unsigned vector)
{
	MCHECK(c == mcpu_this());
	if (restricted_injection(ctl) && vector != VEC_HV) {
		mlog("vCPU %u VMPL%u: injection of vector %u refused "
		     "(Restricted Injection)",
		     c->index, vmpl, vector);
		return false;
	}
	ctl->event = vector | EVENT_TYPE_EXCEPTION | EVENT_VALID;
	return true;
}

bool world_inject_intr(struct mcpu *c, struct world_ctl *ctl, unsigned vector)
{
	/* The hardware's own event (an exception, one cut short) goes
	 * first. */
	MCHECK(c == mcpu_this());
	if (ctl->event != 0 || hw_event_pending(c)) {
		return false;
	}
	if (restricted_injection(ctl)) {
		return false; /* refused, as hardware refuses it */
	}
	ctl->event = (vector & 0xFFu) | EVENT_TYPE_INTR | EVENT_VALID;
	return true;
}

void world_irq_window(struct mcpu *c, struct world_ctl *ctl)
{
	(void)c;
	/* A VMSA with Restricted Injection takes no virtual interrupt
	 * either: no window that could never be used. */
	if (!restricted_injection(ctl)) {
		ctl->irq_window = true;
	}
}

/* Whether @vmpl takes an interrupt now: RFLAGS.IF and no interrupt
 * shadow (SEV-ES hardware shows the hypervisor exactly this much). */
static bool interruptible(struct mcpu *c, unsigned vmpl,
			  const struct snp_vmsa *a)
{
	return (a->rflags & RFLAGS_IF) != 0 &&
	       (c->vmcb[vmpl]->control.int_state & VMCB_INT_STATE_SHADOW) == 0;
}

bool world_runnable(struct mcpu *c, const struct world_ctl *ctl, unsigned vmpl,
		    bool *irq_ok)
{
	const struct snp_vmsa *a = vmsa_at(ctl->vmsa_gpa);
	const struct rmp_entry *e;
	bool ok;

	MCHECK(c == mcpu_this() && vmpl < MACHINE_VMPLS);
	*irq_ok = false;
	if (a == NULL) {
		return false;
	}
	rmp_lock();
	e = rmp_lookup(&machine_rmp, ctl->vmsa_gpa);
	ok = e != NULL &&
	     vmsa_model_can_run(&machine_rmp, ctl->vmsa_gpa, a, vmpl) ==
		     VMSA_RUN_OK &&
	     (e->flags & RMP_F_IN_USE) == 0;
	rmp_unlock();
	/* Only a VMSA's interrupt state, not a bit of any page it names. */
	*irq_ok = ok && interruptible(c, vmpl, a);
	return ok;
}

void world_idle(struct mcpu *c, const struct ap_posts *posts)
{
	instr_at(c->index, INSTR_IDLE);
	__asm__ volatile("cli" ::: "memory");
	if (!ap_post_any(posts) && !pm_pending(c->index)) {
		/* STI's shadow covers HLT: no wake-up is lost between (an
		 * NMI is: the host's grace period covers that). */
		__asm__ volatile("sti; hlt; cli" ::: "memory");
	}
	instr_at(c->index, INSTR_MACHINE);
}

bool world_stop_asked(const struct mcpu *c)
{
	return pm_pending(c->index);
}

void world_answer_stop(struct mcpu *c, const struct world_ctl *ctl,
		       unsigned vmpl, const char *state)
{
	MCHECK(c == mcpu_this());
	pm_answer(c, vmpl, vmsa_named(ctl), state);
	if (c->index != 0) {
		halt_forever();
	}
	mlog("stop: the host asked the machine to stop (NMI)");
	world_report();
	machine_exit(MACHINE_EXIT_HOST_STOP);
}

/* Another VMSA runs at @vmpl: it starts in the x87/SSE init state
 * with no event pending (a new VMSA's are so; the registers' state, if
 * it was this VMPL's, is the old VMSA's and nobody's now). */
static void vmsa_switch(struct mcpu *c, unsigned vmpl, uint64_t gpa)
{
	fpu_reset(c->fpu[vmpl]);
	if (c->fpu_vmpl == vmpl) {
		c->fpu_vmpl = MACHINE_VMPLS;
	}
	c->pending_event[vmpl] = 0;
	c->vmsa_ran[vmpl] = gpa;
}

void world_run(struct mcpu *c, struct world_ctl *ctl, unsigned vmpl,
	       struct world_exit *e)
{
	uint64_t gpa = ctl->vmsa_gpa;
	struct snp_vmsa *a = vmsa_at(gpa);
	bool first;

	MCHECK(c == mcpu_this() && vmpl < MACHINE_VMPLS);
	end_run(c); /* a hypervisor that did not say it was done */
	if (c->vcpu.ghcb_reply_due[vmpl]) {
		c->vcpu.ghcb_msr[vmpl] = ctl->ghcb_msr;
		c->vcpu.ghcb_reply_due[vmpl] = false;
	}
	for (first = true;; first = false) {
		*e = (struct world_exit){.code = WORLD_EXIT_INVALID};
		/* Deleted, stopped (EFER.SVME clear), running elsewhere:
		 * VMRUN fails. */
		if (a == NULL || !begin_run(c, gpa, vmpl, a)) {
			break;
		}
		if (c->vmsa_ran[vmpl] != gpa) {
			vmsa_switch(c, vmpl, gpa);
		}
		/* The host's stop (an NMI) is answered between VMRUNs. */
		if (pm_pending(c->index)) {
			e->code = WORLD_EXIT_INTR;
			break;
		}
		/* The window the hypervisor waits for is open before this
		 * VMRUN: its interrupt goes in at the next. */
		if (!first && ctl->irq_window && interruptible(c, vmpl, a)) {
			e->code = WORLD_EXIT_INTR;
			break;
		}
		c->vcpu.vmpl = vmpl;
		run_once(c, ctl, vmpl, a);
		if (dispatch(c, vmpl, a, e)) {
			break;
		}
		end_run(c);
	}
	ctl->irq_window = false; /* asked for again before each run */
	if (e->code == WORLD_EXIT_VMGEXIT) {
		ctl->ghcb_msr = e->ghcb_msr;
		c->vcpu.ghcb_reply_due[vmpl] = true;
	}
}

void world_exit_done(struct mcpu *c, unsigned next_vmpl)
{
	const struct snp_vmsa *a = vmsa_at(c->held_vmsa);

	if (a != NULL && c->vcpu.vmpl != 0 && next_vmpl == 0) {
		instr_call(c->index, a->rax); /* run VMPL0: a call */
		pm_call(c->index, a->rax);
	}
	end_run(c);
}

void world_report(void)
{
	unsigned i, n = mcpu_count();

	/* Exits per vCPU and VMPL are the instrument's (instr_report). */
	for (i = 0; i < n; i++) {
		if (i < MACHINE_MAX_CPUS && stale_exit_int_info[i] != 0) {
			mlog("vCPU %u: %llu exits with a stale EXITINTINFO "
			     "(ignored)",
			     i, (unsigned long long)stale_exit_int_info[i]);
		}
	}
	instr_report();
}
