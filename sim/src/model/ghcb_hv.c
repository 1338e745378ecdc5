/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor behind the snp platform's GHCB client, and the seam
 * snp_hw.h for it: MSR writes land in the machine's GHCB MSR, and VMGEXIT
 * runs KVM's model (model/kvm), which answers the MSR protocol or the
 * NAE event in the registered GHCB page, changing the RMP model as KVM's
 * RMPUPDATE would. This file is only the adapter: the model's ops are the
 * simulated machine (its memory, console, PSP) and enum sim_ghcb_behaviour
 * selects the model's lies (enum kvm_behaviour, value for value), except
 * SIM_GHCB_FUZZ, the simulator's own.
 */
#include <cpuid.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/plat.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"
#include "abi/snp.h"

#include "model/psp_model.h"

#include "../../../src/plat/snp/snp_cpu.h"
#include "../../../src/plat/snp/snp_hw.h"
#include "sim_machine.h"

/* Both enums are KVM_BEHAVIOURS, value for value; the simulator's own
 * come after (the cast in the VMGEXIT below). */
_Static_assert((int)SIM_GHCB_FUZZ == (int)KVM_BEHAVIOUR_COUNT,
	       "sim_ghcb_behaviour: KVM_BEHAVIOURS first, then its own");

static struct sim_machine *hv(void)
{
	struct sim_machine *m = sim_current();

	/* snp code runs under sim_snp_run or inside an SVSM entry. */
	if (m == NULL || (m->snp_jmp == NULL && m->svsm_jmp == NULL)) {
		abort();
	}
	return m;
}

uint64_t snp_hw_read_ghcb_msr(void)
{
	return hv()->ghcb_msr;
}

void snp_hw_write_ghcb_msr(uint64_t val)
{
	hv()->ghcb_msr = val;
}

uint64_t snp_hw_sev_status(void)
{
	return hv()->snp_sev_status;
}

void sim_snp_set_sev_status(struct sim_machine *m, uint64_t status)
{
	m->snp_sev_status = status;
}

void *snp_hw_map_shared(gpa_t gpa)
{
	struct sim_machine *m = hv();

	if (gpa_val(gpa) % SNP_PAGE_SIZE != 0 ||
	    gpa_val(gpa) >= m->cfg.guest_mem_size ||
	    rmp_check_shared_access(&m->rmp, gpa_val(gpa)) != RMP_ACCESS_OK) {
		return NULL;
	}
	return m->mem + gpa_val(gpa);
}

void snp_hw_halt(void)
{
	abort(); /* the model never returns from a termination */
}

/*
 * A machine the snp way (sim_config.snp_ghcb) runs each SVSM entry as the
 * vCPU's own struct snp_cpu (sim_snp_switch_cpu). One without runs its
 * SVSM without a GHCB (tests that drive the client on pages of their
 * own): each vCPU is a distinct CPU that never came online, so the
 * console has nowhere to go and the ownership lock still tells the CPUs
 * apart.
 */
static struct snp_cpu offline_cpu[SIM_MAX_VCPUS];

struct snp_cpu *snp_hw_this_cpu(void)
{
	struct sim_machine *m = hv();

	return m->cfg.snp_ghcb ? m->snp_cpu : &offline_cpu[m->entry_cpu];
}

void snp_hw_set_cpu(struct snp_cpu *c)
{
	hv()->snp_cpu = c;
}

/* The AP's entry code is the simulator's (sim_snp_boot): it needs only
 * to find the AP's struct snp_cpu. */
void snp_hw_ap_prepare(struct snp_cpu *c, struct snp_vmsa *v)
{
	struct sim_machine *m = hv();

	(void)v;
	if (c->index >= SIM_MAX_VCPUS || c->index >= m->cfg.vcpu_count) {
		abort(); /* the SVSM started a CPU the machine lacks */
	}
	m->snp_cpus[c->index].cpu = c;
}

void sim_snp_switch_cpu(struct sim_machine *m, unsigned index)
{
	struct sim_snp_cpu *cur = &m->snp_cpus[m->snp_current];
	const struct sim_snp_cpu *next = &m->snp_cpus[index];

	if (index == m->snp_current) {
		return;
	}
	cur->ghcb_msr = m->ghcb_msr;
	cur->cpu = m->snp_cpu;
	m->ghcb_msr = next->ghcb_msr;
	m->snp_cpu = next->cpu;
	m->snp_current = index;
}

void sim_ghcb_cpu(struct sim_machine *m, unsigned index, uint64_t *ghcb_gpa,
		  uint64_t *doorbell_gpa, unsigned *run_vmpl)
{
	const struct kvm_vcpu *v = &m->kvm_vcpus[index];

	*ghcb_gpa = v->ghcb_gpa[0];
	*doorbell_gpa = v->doorbell_gpa[0];
	*run_vmpl = v->run_vmpl_count;
}

static struct sim_machine *machine(struct kvm *k)
{
	return k->ctx;
}

static void terminate(struct sim_machine *m, uint32_t set, uint32_t code)
{
	m->snp_term_set = set;
	m->snp_term_code = code;
	if (m->snp_jmp != NULL) {
		longjmp(*m->snp_jmp, 1);
	}
	sim_vm_end(m, set, code); /* from an SVSM entry: the VM ends */
}

/* The model's ops: the simulated machine. */
static uint8_t *op_page(struct kvm *k, uint64_t gpa)
{
	struct sim_machine *m = machine(k);

	return gpa < m->cfg.guest_mem_size ? m->mem + gpa : NULL;
}

static void op_rmp_nolock(struct kvm *k)
{
	(void)k; /* one host thread runs the machine */
}

/* A page the host just made private holds whatever it held before (a
 * PSMASH leaves validated pages alone): stale bytes. */
static void op_rmp_changed(struct kvm *k, uint64_t gpa, uint64_t len)
{
	struct sim_machine *m = machine(k);
	uint64_t off;

	for (off = 0; off < len; off += SNP_PAGE_SIZE) {
		const struct rmp_entry *e = rmp_lookup(&m->rmp, gpa + off);

		if (e != NULL && (e->flags & RMP_F_ASSIGNED) != 0 &&
		    (e->flags & RMP_F_VALIDATED) == 0) {
			sim_fill_stale(m, gpa + off, SNP_PAGE_SIZE);
		}
	}
}

/* COM1 output is the machine's console; IN reads SIM_GHCB_IN_VALUE. */
static void op_io(struct kvm *k, struct kvm_vcpu *v, uint16_t port,
		  unsigned size, bool in, uint32_t *val)
{
	struct sim_machine *m = machine(k);

	(void)v;
	(void)size;
	if (in) {
		*val = SIM_GHCB_IN_VALUE;
		return;
	}
	if (port != 0x3F8) {
		m->ghcb.last_out_port = port;
		m->ghcb.last_out_value = *val;
		return;
	}
	m->ghcb.console_bytes++;
	if (m->console_len + 1 < SIM_CONSOLE_SIZE) {
		m->console[m->console_len++] = (char)*val;
		m->console[m->console_len] = '\0';
		if (m->cfg.log_stderr) {
			(void)fputc((char)*val, stderr);
		}
	}
}

static bool op_msr(struct kvm *k, struct kvm_vcpu *v, bool write, uint32_t msr,
		   uint64_t *val)
{
	struct sim_machine *m = machine(k);

	(void)v;
	if (write) {
		m->ghcb.last_wrmsr = msr;
		m->ghcb.last_wrmsr_value = *val;
	} else {
		*val = SIM_GHCB_RDMSR(msr);
	}
	return true;
}

static void op_cpuid(struct kvm *k, uint32_t leaf, uint32_t subleaf,
		     uint64_t xcr0, uint32_t out[4])
{
	(void)k;
	(void)xcr0;
	__cpuid_count(leaf, subleaf, out[0], out[1], out[2], out[3]);
}

static bool op_run_vmpl(struct kvm *k, struct kvm_vcpu *v, unsigned vmpl)
{
	(void)k; /* the harness runs the guest (sim/src/harness/guest.c) */
	(void)v;
	(void)vmpl;
	return true;
}

static uint64_t op_ap_create(struct kvm *k, struct kvm_vcpu *v,
			     unsigned request, uint32_t apic_id,
			     uint64_t vmsa_gpa, unsigned vmpl,
			     uint64_t sev_features)
{
	(void)k; /* sim starts its CPUs itself (snp_hw_ap_prepare) */
	(void)v;
	(void)request;
	(void)apic_id;
	(void)vmsa_gpa;
	(void)vmpl;
	(void)sev_features;
	return 0;
}

/* The same hypervisor as the direct path (sim_hv_guest_request, with its
 * SIM_HV_GREQ_* behaviours). */
static uint64_t op_guest_request(struct kvm *k, const void *req, void *rsp,
				 void *certs, size_t *certs_len)
{
	return sim_hv_guest_request(machine(k), req, rsp, certs, certs_len);
}

static void op_terminate(struct kvm *k, struct kvm_vcpu *v, uint32_t set,
			 uint32_t code)
{
	(void)v;
	terminate(machine(k), set, code);
}

/* The host's devices (vblk_sim.c); anything else reads all ones. */
static bool op_mmio(struct kvm *k, struct kvm_vcpu *v, uint64_t gpa,
		    unsigned len, bool write, uint8_t data[8])
{
	(void)v;
	sim_hv_mmio(machine(k), gpa, len, write, data);
	return true;
}

static const struct kvm_ops sim_kvm_ops = {
	.page = op_page,
	.rmp_lock = op_rmp_nolock,
	.rmp_unlock = op_rmp_nolock,
	.rmp_changed = op_rmp_changed,
	.io = op_io,
	.msr = op_msr,
	.cpuid = op_cpuid,
	.run_vmpl = op_run_vmpl,
	.ap_create = op_ap_create,
	.guest_request = op_guest_request,
	.mmio = op_mmio,
	.terminate = op_terminate,
};

bool sim_kvm_init(struct sim_machine *m)
{
	unsigned i;

	m->kvm_vcpus = calloc(m->cfg.vcpu_count, sizeof(*m->kvm_vcpus));
	if (m->kvm_vcpus == NULL) {
		return false;
	}
	for (i = 0; i < m->cfg.vcpu_count; i++) {
		m->kvm_vcpus[i].index = i;
		m->kvm_vcpus[i].apic_id = i;
	}
	m->kvm = (struct kvm){
		.ops = &sim_kvm_ops,
		.ctx = m,
		.rmp = &m->rmp,
		.c_bit = 51,
		.vcpus = m->kvm_vcpus,
		.nr_vcpus = m->cfg.vcpu_count,
	};
	return true;
}

void sim_kvm_free(struct sim_machine *m)
{
	free(m->kvm_vcpus);
	m->kvm_vcpus = NULL;
}

/* SIM_GHCB_FUZZ: every NAE reply is the fuzzer's page (on the page the
 * model would have answered in). */
static void fuzz_reply(struct sim_machine *m)
{
	uint64_t gpa = m->ghcb_msr;

	if (gpa != m->kvm_vcpus[m->snp_current].ghcb_gpa[0] ||
	    gpa >= m->cfg.guest_mem_size ||
	    rmp_check_shared_access(&m->rmp, gpa) != RMP_ACCESS_OK) {
		terminate(m, 0, 0); /* KVM would kill such a guest */
	}
	m->kvm.stats.nae_calls++;
	memcpy(m->mem + gpa, m->ghcb_fuzz_reply, sizeof(m->ghcb_fuzz_reply));
	m->ghcb_msr = m->ghcb_fuzz_msr;
}

void snp_hw_vmgexit(void)
{
	struct sim_machine *m = hv();

	if (m->ghcb_hv == SIM_GHCB_FUZZ && GHCB_MSR_INFO(m->ghcb_msr) == 0) {
		fuzz_reply(m);
		return;
	}
	m->kvm.behaviour = m->ghcb_hv == SIM_GHCB_FUZZ
				   ? KVM_HONEST
				   : (enum kvm_behaviour)m->ghcb_hv;
	/* The SVSM is the VMPL0 of the current vCPU. */
	m->ghcb_msr = kvm_vmgexit(&m->kvm, &m->kvm_vcpus[m->snp_current], 0,
				  m->ghcb_msr);
}

void sim_ghcb_set_behaviour(struct sim_machine *m, enum sim_ghcb_behaviour b)
{
	m->ghcb_hv = b;
}

void sim_ghcb_fuzz_reply(struct sim_machine *m, const void *page, size_t len,
			 uint64_t msr)
{
	memset(m->ghcb_fuzz_reply, 0, sizeof(m->ghcb_fuzz_reply));
	memcpy(m->ghcb_fuzz_reply, page,
	       len < sizeof(m->ghcb_fuzz_reply) ? len
						: sizeof(m->ghcb_fuzz_reply));
	m->ghcb_fuzz_msr = msr;
	m->ghcb_hv = SIM_GHCB_FUZZ;
}

void sim_ghcb_get_stats(const struct sim_machine *m, struct sim_ghcb_stats *s)
{
	const struct kvm_stats *k = &m->kvm.stats;
	const struct kvm_vcpu *v = &m->kvm_vcpus[m->snp_current];

	*s = m->ghcb;
	s->msr_calls = k->msr_calls;
	s->nae_calls = k->nae_calls;
	s->psc_calls = k->psc_calls;
	s->run_vmpl = k->run_vmpl;
	s->ap_created = k->ap_created;
	s->guest_requests = k->guest_requests;
	s->ap_apic_id = k->ap_apic_id;
	s->ap_vmsa_gpa = k->ap_vmsa_gpa;
	s->ap_info1 = k->ap_info1;
	s->ap_vmsa_ok = k->ap_vmsa_ok;
	s->registered_gpa = v->ghcb_gpa[0];
	s->doorbell_gpa = v->doorbell_gpa[0];
}
