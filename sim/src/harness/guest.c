/* SPDX-License-Identifier: MIT */
/*
 * The guest side of an SVSM call, and the hypervisor's run loop that
 * enters the SVSM. The guest model follows Linux
 * (svsm_perform_msr_protocol): call_pending = 1, VMGEXIT with the
 * run-VMPL0 request, then the registers and an atomic exchange of
 * call_pending with 0. The hypervisor's behaviour (m->hv,
 * sim_hv_set_behaviour) decides whether, and how often, VMPL0 runs in
 * between; each run is an entry made here. The loop is the top: it asks
 * the machine (VMRUN's check, the exit's save, the load) and runs the
 * SVSM, and neither calls it back.
 */
#include <setjmp.h>
#include <string.h>

#include "svsm/request.h"
#include "svsm/vcpu.h"

#include "abi/snp.h"
#include "abi/svsm_caa.h"
#include "abi/svsm_call.h"

#include "../../../src/plat/snp/snp_hv.h"
#include "../../../src/plat/snp/snp_main.h"
#include "sim_harness.h"

/* An exit that is not VMGEXIT: a physical interrupt (SVM_EXIT_INTR). */
#define SIM_EXIT_INTR 0x60ull

void sim_enter_svsm(struct sim_machine *m, uint32_t apic_id)
{
	/* An entry may nest in another CPU's wait on the host
	 * (sim_hv_during_next_guest_request): restore what that one had. */
	jmp_buf *outer_jmp = m->svsm_jmp;
	unsigned outer_cpu = m->snp_current;
	unsigned outer_entry = m->entry_cpu;
	struct svsm_cpu *cpu;
	enum request_outcome out;
	jmp_buf jmp;

	if (m->terminated) {
		return;
	}
	m->stats.svsm_entries++;
	m->svsm_jmp = &jmp;
	m->entry_cpu = apic_id < m->cfg.vcpu_count ? apic_id : 0;
	if (setjmp(jmp) != 0) {
		m->svsm_jmp = outer_jmp;
		m->entry_cpu = outer_entry;
		sim_bench_svsm_end(m);
		sim_snp_switch_cpu(m, outer_cpu);
		return; /* plat_terminate() recorded the reason */
	}
	/* snp: the entry runs on this vCPU's VMPL0, with its own GHCB once
	 * it is online (APIC ID = index in the model). */
	if (m->cfg.snp_ghcb && apic_id < m->cfg.vcpu_count &&
	    m->snp_cpus[apic_id].cpu != NULL) {
		sim_snp_switch_cpu(m, apic_id);
	}
	sim_bench_svsm_begin(m);
	cpu = cpu_by_apic(apic_id);
	/* snp: the platform's request loop body, which ends in run-VMPL. */
	out = cpu == NULL	? REQUEST_NO_GUEST
	      : m->cfg.snp_ghcb ? snp_serve(cpu)
				: request_process(cpu);
	sim_bench_svsm_end(m);
	m->svsm_jmp = outer_jmp;
	m->entry_cpu = outer_entry;
	sim_snp_switch_cpu(m, outer_cpu);
	if (out == REQUEST_SERVED || out == REQUEST_VCPU_DELETED) {
		m->stats.calls_served++;
	} else {
		m->stats.entries_declined++;
	}
}

static bool guest_xchg_pending(struct sim_machine *m, uint64_t caa, uint8_t val,
			       uint8_t *old)
{
	uint64_t gpa = caa + SVSM_CAA_OFF_CALL_PENDING;

	if (!sim_guest_access(m, gpa, 1, RMP_PERM_READ | RMP_PERM_WRITE)) {
		return false;
	}
	*old = __atomic_exchange_n(m->mem + gpa, val, __ATOMIC_SEQ_CST);
	return true;
}

enum sim_status sim_call(struct sim_machine *m, unsigned vcpu,
			 struct sim_regs *regs)
{
	return sim_call_pending(m, vcpu, regs, SVSM_CALL_PENDING_SET);
}

enum sim_status sim_call_pending(struct sim_machine *m, unsigned vcpu,
				 struct sim_regs *regs, uint8_t pending)
{
	struct sim_regs before;
	uint64_t caa;
	uint8_t old = 0;

	if (m == NULL || regs == NULL || vcpu >= m->cfg.vcpu_count) {
		return SIM_BAD_ARG;
	}
	if (m->terminated) {
		return SIM_TERMINATED;
	}
	caa = m->vcpu[vcpu].caa_gpa;
	if (!sim_vcpu_runnable(m, vcpu) || m->vcpu[vcpu].running) {
		return SIM_NOT_RUNNABLE;
	}
	if (!m->vcpu[vcpu].has_caa ||
	    !guest_xchg_pending(m, caa, pending, &old)) {
		return SIM_GUEST_FAULT;
	}
	before = *regs;
	if (m->hv == SIM_HV_SPURIOUS_ENTRY) {
		/* An interrupt arrives after call_pending is set... */
		sim_vcpu_exit(m, vcpu, regs, SIM_EXIT_INTR);
		sim_enter_svsm(m, vcpu);
	}
	sim_vcpu_exit(m, vcpu, regs, SVM_EXIT_VMGEXIT);
	if (m->hv != SIM_HV_REFUSE_RUN_VMPL) {
		sim_enter_svsm(m, vcpu);
	}
	if (m->hv == SIM_HV_DOUBLE_ENTRY) {
		sim_enter_svsm(m, vcpu);
	}
	if (m->terminated) {
		return SIM_TERMINATED;
	}
	if (!sim_vcpu_runnable(m, vcpu)) {
		return SIM_NOT_RUNNABLE; /* e.g. it deleted its own VMSA */
	}
	sim_vcpu_resume(m, vcpu, regs);
	if (!guest_xchg_pending(m, caa, SVSM_CALL_PENDING_NONE, &old)) {
		return SIM_GUEST_FAULT;
	}
	if (m->hv == SIM_HV_SPURIOUS_ENTRY) {
		/* ...and a later VMGEXIT that is not a call (a #VC MSR
		 * exchange, say) finds the old registers and no call. */
		sim_vcpu_exit(m, vcpu, regs, SVM_EXIT_VMGEXIT);
		sim_enter_svsm(m, vcpu);
	}
	if (old != SVSM_CALL_PENDING_NONE) {
		*regs = before;
		return SIM_NOT_SERVED;
	}
	if (SVSM_CALL_PROTOCOL(before.rax) == SVSM_PROTOCOL_CORE &&
	    SVSM_CALL_ID(before.rax) == SVSM_CORE_REMAP_CA &&
	    (uint32_t)regs->rax == SVSM_SUCCESS) {
		m->vcpu[vcpu].caa_gpa = before.rcx;
	}
	return SIM_OK;
}

static void hv_entry(void *arg)
{
	(void)arg;
	snp_hv_entry();
}

bool sim_ghcb_inject_hv(struct sim_machine *m, uint16_t events)
{
	uint64_t db = m->kvm_vcpus[m->snp_current].doorbell_gpa[0];

	if (db == 0 || m->terminated) {
		return false;
	}
	memcpy(m->mem + db, &events, sizeof(events));
	return sim_svsm_call(m, hv_entry, NULL);
}
