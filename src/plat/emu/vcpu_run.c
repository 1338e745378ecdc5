/* SPDX-License-Identifier: MIT */
/*
 * The world switch and exit dispatch of the emu platform: what SNP
 * hardware does around a VMPL1 vCPU. Invariants:
 * - the VMSA is the vCPU's state; the VMCB only carries it across one
 *   VMRUN (vcpu_enter / vcpu_leave);
 * - a VMSA is "in use" in the RMP from VMRUN until its exit is handled
 *   (emu_vcpu_release), so DELETE_VCPU from another CPU gets FAIL_INUSE
 *   while it runs, a VMSA never runs on two CPUs at once, and the exit
 *   handlers' writes to it (RIP past HLT or VMGEXIT, the exit code: the
 *   hardware's part of an exit here) never reach a page DELETE_VCPU has
 *   handed back. A VMGEXIT releases it before the SVSM serves the call,
 *   as on hardware, where VMPL1's VMSA does not run while VMPL0 does;
 * - before every VMRUN the VMSA passes the hardware's run checks
 *   (vmsa_model_can_run): a VMSA the SVSM has stopped (EFER.SVME clear)
 *   or deleted never runs, and the vCPU is unloaded.
 */
#include "svsm/check.h"
#include "svsm/guest_config.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/plat.h"
#include "svsm/std.h"
#include "svsm/terminate.h"
#include "svsm/vmsa_model.h"

#include "arch.h"
#include "emu_rmp.h"
#include "emu_vcpu.h"
#include "host.h"
#include "lapic.h"
#include "npt.h"
#include "smp.h"

#define EMU_GUEST_ASID 1u

/* MSR and I/O permission maps, shared by every VMCB: every MSR access
 * exits (the guest's MSRs are emulated or refused, never the host's),
 * every port passes through to QEMU's devices. */
static uint8_t *msrpm;
static uint8_t *iopm;

static void *zalloc_pages(unsigned order)
{
	void *p = page_alloc(order);

	if (p == NULL) {
		TERMINATE_HV(TERM_CSVSM_NO_MEMORY,
			     "emu: no memory for SVM structures");
	}
	memset(p, 0, 4096u << order);
	return p;
}

void emu_vcpu_cpu_init(struct emu_cpu *cpu)
{
	struct emu_vcpu *v = obj_alloc(sizeof(*v));

	CHECK(v != NULL);
	memset(v, 0, sizeof(*v));
	if (msrpm == NULL) { /* the BSP, before the APs start */
		msrpm = zalloc_pages(1);
		memset(msrpm, 0xFF, 8192);
		iopm = zalloc_pages(2); /* 12 KiB used, all zero */
	}
	v->vmcb = zalloc_pages(0);
	cpu->hsave = zalloc_pages(0);
	cpu->host_save = zalloc_pages(0);
	cpu->vcpu = v;
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SVME);
	wrmsr(MSR_VM_HSAVE_PA, (uint64_t)cpu->hsave);
}

static void vmcb_init_control(struct vmcb_control *c)
{
	memset(c, 0, sizeof(*c));
	c->intercept_exc = 1u << VEC_UD; /* PVALIDATE, RMPADJUST */
	c->intercept1 = VMCB_I1_INTR | VMCB_I1_NMI | VMCB_I1_SMI |
			VMCB_I1_INIT | VMCB_I1_HLT | VMCB_I1_INVLPGA |
			VMCB_I1_MSR | VMCB_I1_SHUTDOWN;
	c->intercept2 = VMCB_I2_VMRUN | VMCB_I2_VMMCALL | VMCB_I2_VMLOAD |
			VMCB_I2_VMSAVE | VMCB_I2_STGI | VMCB_I2_CLGI |
			VMCB_I2_SKINIT;
	c->iopm_pa = (uint64_t)iopm;
	c->msrpm_pa = (uint64_t)msrpm;
	c->asid = EMU_GUEST_ASID;
	c->tlb_control = VMCB_TLB_FLUSH_ALL;
	c->int_ctl = VMCB_INT_CTL_V_INTR_MASKING;
	c->np_ctl = VMCB_NP_ENABLE;
	c->n_cr3 = npt_root_pa();
}

bool emu_vcpu_load(struct emu_cpu *cpu, uint64_t gpa)
{
	struct emu_vcpu *v = cpu->vcpu;
	struct snp_vmsa *vmsa = (struct snp_vmsa *)gpa;
	enum vmsa_run_check why;

	if (v->vmsa_gpa != 0) {
		emu_vcpu_unload(cpu);
	}
	emu_rmp_lock();
	why = vmsa_model_can_run(&emu_rmp, gpa, vmsa, svsm_guest_vmpl());
	emu_rmp_unlock();
	if (why != VMSA_RUN_OK) {
		LOG_NOTICE("host: VMSA %llx cannot run on CPU %u (check %d)",
			   (unsigned long long)gpa, cpu->index, (int)why);
		return false;
	}
	vmcb_init_control(&v->vmcb->control);
	memset(&v->vmcb->save, 0, sizeof(v->vmcb->save));
	v->vmsa_gpa = gpa;
	v->vmsa = vmsa;
	v->ghcb_msr = 0;
	v->ghcb_gpa = 0;
	v->pending_event = 0;
	return true;
}

void emu_vcpu_unload(struct emu_cpu *cpu)
{
	struct emu_vcpu *v = cpu->vcpu;

	v->vmsa_gpa = 0;
	v->vmsa = NULL;
}

void emu_inject_exception(struct emu_vcpu *v, unsigned vector, bool has_error,
			  uint32_t error)
{
	uint64_t ev = vector | EVENT_TYPE_EXCEPTION | EVENT_VALID;

	if (has_error) {
		ev |= EVENT_EV | ((uint64_t)error << 32);
	}
	v->pending_event = ev;
}

/* VMSA -> VMCB: the fields VMRUN and VMLOAD take from the save area. */
static void vcpu_enter(struct emu_vcpu *v)
{
	const struct snp_vmsa *a = v->vmsa;
	struct vmcb_save *s = &v->vmcb->save;

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
	s->efer = a->efer | EFER_SVME; /* QEMU gap 9: VMMCALL needs SVME */
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
	v->gprs = (struct svm_gprs){
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
static void vcpu_leave(struct emu_vcpu *v)
{
	struct snp_vmsa *a = v->vmsa;
	const struct vmcb_save *s = &v->vmcb->save;
	const struct vmcb_control *c = &v->vmcb->control;

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
	/* EFER.SVME in the VMSA is the SVSM's "may run" flag: keep it. */
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
	a->rbx = v->gprs.rbx;
	a->rcx = v->gprs.rcx;
	a->rdx = v->gprs.rdx;
	a->rbp = v->gprs.rbp;
	a->rsi = v->gprs.rsi;
	a->rdi = v->gprs.rdi;
	a->r8 = v->gprs.r8;
	a->r9 = v->gprs.r9;
	a->r10 = v->gprs.r10;
	a->r11 = v->gprs.r11;
	a->r12 = v->gprs.r12;
	a->r13 = v->gprs.r13;
	a->r14 = v->gprs.r14;
	a->r15 = v->gprs.r15;
	a->guest_exit_code = (uint32_t)c->exit_code;
	a->guest_exit_info_1 = c->exit_info_1;
	a->guest_exit_info_2 = c->exit_info_2;
	a->guest_exit_int_info = c->exit_int_info;
}

/* The hardware's VMRUN checks, and the in-use mark, in one step. */
static bool vcpu_begin_run(struct emu_vcpu *v)
{
	const struct rmp_entry *e;
	bool ok;

	emu_rmp_lock();
	e = rmp_lookup(&emu_rmp, v->vmsa_gpa);
	ok = vmsa_model_can_run(&emu_rmp, v->vmsa_gpa, v->vmsa,
				svsm_guest_vmpl()) == VMSA_RUN_OK &&
	     (e->flags & RMP_F_IN_USE) == 0;
	if (ok) {
		rmp_vmsa_set_in_use(&emu_rmp, v->vmsa_gpa, true);
		v->held_gpa = v->vmsa_gpa;
	}
	emu_rmp_unlock();
	return ok;
}

void emu_vcpu_release(struct emu_vcpu *v)
{
	if (v->held_gpa == 0) {
		return;
	}
	emu_rmp_lock();
	rmp_vmsa_set_in_use(&emu_rmp, v->held_gpa, false);
	emu_rmp_unlock();
	v->held_gpa = 0;
}

static void vcpu_run_once(struct emu_cpu *cpu, struct emu_vcpu *v)
{
	struct vmcb_control *c = &v->vmcb->control;
	uint64_t gen;

	vcpu_enter(v);
	c->event_inj = v->pending_event;
	v->pending_event = 0;
	/* Publish in_guest before reading the flush generation (smp.c). */
	__atomic_store_n(&cpu->in_guest, true, __ATOMIC_SEQ_CST);
	gen = smp_flush_gen();
	if (cpu->flush_gen_seen < gen) {
		c->tlb_control = VMCB_TLB_FLUSH_ALL;
	}
	__atomic_store_n(&cpu->flush_gen_seen, gen, __ATOMIC_SEQ_CST);
	svm_run((uint64_t)v->vmcb, &v->gprs, (uint64_t)cpu->host_save);
	__atomic_store_n(&cpu->in_guest, false, __ATOMIC_SEQ_CST);
	c->tlb_control = 0;
	v->exits++;
	vcpu_leave(v);
	/* An event cut short by the exit (a #NPF while delivering it) is
	 * delivered again once the exit is handled. */
	if ((c->exit_int_info & EVENT_VALID) != 0) {
		v->pending_event = c->exit_int_info;
	}
}

static void vcpu_dispatch(struct emu_cpu *cpu, struct emu_vcpu *v)
{
	const struct vmcb_control *c = &v->vmcb->control;
	uint32_t code = (uint32_t)c->exit_code;

	if (code != SVM_EXIT_NPF) {
		v->last_npf_gpa = 0; /* the guest made progress */
	}
	switch (code) {
	case SVM_EXIT_VMMCALL:
		exit_vmmcall(cpu, v);
		break;
	case SVM_EXIT_MSR:
		exit_msr(v, c->exit_info_1 == 1);
		break;
	case SVM_EXIT_NPF:
		exit_npf(v, c->exit_info_1, c->exit_info_2);
		break;
	case SVM_EXIT_UD:
		exit_ud(v);
		break;
	case SVM_EXIT_INTR:
	case SVM_EXIT_NMI:
		host_interrupt(cpu);
		break;
	case SVM_EXIT_HLT:
		host_hlt(cpu, v);
		break;
	case SVM_EXIT_SHUTDOWN:
		host_guest_shutdown(cpu, v, "shutdown (triple fault)");
		break;
	case SVM_EXIT_VMRUN:
	case SVM_EXIT_VMLOAD:
	case SVM_EXIT_VMLOAD + 1: /* VMSAVE */
	case SVM_EXIT_VMLOAD + 2: /* STGI */
	case SVM_EXIT_VMLOAD + 3: /* CLGI */
	case SVM_EXIT_SKINIT:
		emu_inject_exception(v, VEC_UD, false, 0);
		break;
	case SVM_EXIT_INVALID:
		host_guest_shutdown(cpu, v, "VMRUN refused the vCPU state");
		break;
	default:
		LOG_NOTICE("host: unexpected exit %x at RIP %llx", code,
			   (unsigned long long)v->vmsa->rip);
		host_guest_shutdown(cpu, v, "unhandled exit");
		break;
	}
}

void emu_cpu_loop(struct emu_cpu *cpu)
{
	struct emu_vcpu *v = cpu->vcpu;

	for (;;) {
		host_poll_requests(cpu);
		if (v->vmsa_gpa == 0) {
			host_idle(cpu);
			continue;
		}
		if (!vcpu_begin_run(v)) {
			/* Deleted, stopped, or running elsewhere. */
			LOG_INFO("host: vCPU %llx stops on CPU %u",
				 (unsigned long long)v->vmsa_gpa, cpu->index);
			emu_vcpu_unload(cpu);
			continue;
		}
		vcpu_run_once(cpu, v);
		vcpu_dispatch(cpu, v);
		emu_vcpu_release(v);
	}
}
