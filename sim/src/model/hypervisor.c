/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor model outside the GHCB protocol (that is ghcb_hv.c):
 * VMRUN's check of a vCPU's VMSA and its save and load of the guest's
 * registers, the host's page-state changes and its races with the SVSM's
 * PVALIDATE and RMPADJUST, AP creation, and the guest request with the
 * PSP behind it. Whether and how often VMPL0 runs is the harness's loop
 * (sim/src/harness/guest.c), which asks m->hv.
 */
#include <stdlib.h>
#include <string.h>

#include "svsm/plat.h"

#include "abi/snp.h"

#include "model/vmsa_model.h"

#include "sim_machine.h"

static struct snp_vmsa *vmsa_at(struct sim_machine *m, uint64_t gpa)
{
	return (struct snp_vmsa *)(m->mem + gpa);
}

bool sim_vcpu_runnable(struct sim_machine *m, unsigned vcpu)
{
	uint64_t gpa = m->vcpu[vcpu].vmsa_gpa;

	if (gpa == 0 || gpa >= m->cfg.guest_mem_size) {
		return false;
	}
	return vmsa_model_can_run(&m->rmp, gpa, vmsa_at(m, gpa),
				  m->cfg.guest_vmpl) == VMSA_RUN_OK;
}

/* Hardware saves the guest's registers into its VMSA on every exit. */
void sim_vcpu_exit(struct sim_machine *m, unsigned vcpu,
		   const struct sim_regs *regs, uint64_t exit_code)
{
	struct snp_vmsa *vmsa = vmsa_at(m, m->vcpu[vcpu].vmsa_gpa);

	vmsa->rax = regs->rax;
	vmsa->rcx = regs->rcx;
	vmsa->rdx = regs->rdx;
	vmsa->r8 = regs->r8;
	vmsa->r9 = regs->r9;
	vmsa->guest_exit_code = exit_code;
	vmsa->guest_exit_info_1 = 0;
	vmsa->guest_exit_info_2 = 0;
}

/* ...and VMRUN loads them from it. */
void sim_vcpu_resume(struct sim_machine *m, unsigned vcpu,
		     struct sim_regs *regs)
{
	const struct snp_vmsa *vmsa = vmsa_at(m, m->vcpu[vcpu].vmsa_gpa);

	regs->rax = vmsa->rax;
	regs->rcx = vmsa->rcx;
	regs->rdx = vmsa->rdx;
	regs->r8 = vmsa->r8;
	regs->r9 = vmsa->r9;
}

void sim_hv_set_behaviour(struct sim_machine *m, enum sim_hv_behaviour b)
{
	m->hv = b;
}

void sim_hv_during_next_guest_request(struct sim_machine *m,
				      void (*fn)(struct sim_machine *, void *),
				      void *arg)
{
	m->greq_hook = fn;
	m->greq_hook_arg = arg;
}

enum sim_status sim_hv_page_state(struct sim_machine *m, uint64_t gpa,
				  bool size_2m, bool to_private)
{
	uint64_t len = size_2m ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;
	uint32_t rc;

	if (gpa >= m->cfg.guest_mem_size || len > m->cfg.guest_mem_size - gpa) {
		return SIM_BAD_ARG;
	}
	rc = rmp_hv_page_state(&m->rmp, gpa, size_2m, to_private);
	if (rc != SNP_RET_SUCCESS) {
		return SIM_BAD_ARG;
	}
	if (to_private) {
		/* What the guest will find before it validates: host data. */
		sim_fill_stale(m, gpa, len);
	}
	return SIM_OK;
}

/* A host CPU racing the SVSM takes the last 4 KiB page of a range back
 * (shared); KVM PSMASHes a 2 MiB entry before a 4 KiB page-state change. */
static void race_share_last_page(struct sim_machine *m, uint64_t gpa,
				 bool size_2m)
{
	uint64_t len = size_2m ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;

	(void)rmp_hv_page_state(&m->rmp, gpa + len - SNP_PAGE_SIZE, false,
				false);
}

void sim_hv_after_pvalidate(struct sim_machine *m, uint64_t gpa, bool size_2m,
			    bool validate, uint32_t rc, bool unchanged)
{
	if (m->hv == SIM_HV_SHARE_AFTER_VALIDATE && validate &&
	    rc == SNP_RET_SUCCESS && !unchanged) {
		race_share_last_page(m, gpa, size_2m);
	}
}

void sim_hv_before_rmpadjust(struct sim_machine *m, uint64_t gpa, bool size_2m,
			     uint64_t attrs)
{
	if (m->hv == SIM_HV_SHARE_BEFORE_GRANT &&
	    (attrs & RMPADJUST_PERM_MASK) != 0 &&
	    (attrs & RMPADJUST_VMSA) == 0) {
		race_share_last_page(m, gpa, size_2m);
	}
}

void sim_hv_after_rmpadjust(struct sim_machine *m, uint64_t gpa, bool was_vmsa)
{
	const struct rmp_entry *e = rmp_lookup(&m->rmp, gpa);

	if (m->hv == SIM_HV_SHARE_AFTER_VMSA_CLEARED && was_vmsa && e != NULL &&
	    (e->flags & RMP_F_VMSA) == 0) {
		(void)rmp_hv_unassign(&m->rmp, gpa, false);
	}
}

enum sim_status sim_hv_psmash(struct sim_machine *m, uint64_t gpa)
{
	return rmp_hv_psmash(&m->rmp, gpa) == SNP_RET_SUCCESS ? SIM_OK
							      : SIM_BAD_ARG;
}

enum sim_status sim_ap_create(struct sim_machine *m, unsigned vcpu,
			      uint64_t vmsa_gpa, uint64_t caa_gpa)
{
	if (vcpu >= m->cfg.vcpu_count || (vmsa_gpa % SNP_PAGE_SIZE) != 0 ||
	    vmsa_gpa >= m->cfg.guest_mem_size) {
		return SIM_BAD_ARG;
	}
	/* KVM accepts the GPA; whether it can run is decided at VMRUN. */
	m->vcpu[vcpu].vmsa_gpa = vmsa_gpa;
	if (!m->vcpu[vcpu].has_caa) {
		m->vcpu[vcpu].initial_caa_gpa = caa_gpa;
	}
	m->vcpu[vcpu].caa_gpa = caa_gpa;
	m->vcpu[vcpu].has_caa = true;
	return sim_vcpu_runnable(m, vcpu) ? SIM_OK : SIM_NOT_RUNNABLE;
}

enum sim_status sim_vcpu_set_running(struct sim_machine *m, unsigned vcpu,
				     bool running)
{
	if (vcpu >= m->cfg.vcpu_count) {
		return SIM_BAD_ARG;
	}
	if (running && !sim_vcpu_runnable(m, vcpu)) {
		return SIM_NOT_RUNNABLE;
	}
	m->vcpu[vcpu].running = running;
	rmp_vmsa_set_in_use(&m->rmp, m->vcpu[vcpu].vmsa_gpa, running);
	return SIM_OK;
}

enum sim_status sim_vmsa_read(const struct sim_machine *m, unsigned vcpu,
			      void *buf4k)
{
	uint64_t gpa;

	if (vcpu >= m->cfg.vcpu_count || m->vcpu[vcpu].vmsa_gpa == 0) {
		return SIM_BAD_ARG;
	}
	gpa = m->vcpu[vcpu].vmsa_gpa;
	memcpy(buf4k, m->mem + gpa, SNP_PAGE_SIZE);
	return SIM_OK;
}

void sim_linux_ap_vmsa(void *vmsa4k, uint8_t vmpl, uint64_t sev_features)
{
	struct snp_vmsa *v = vmsa4k;

	memset(v, 0, sizeof(*v));
	v->efer = EFER_SVME;
	v->vmpl = vmpl;
	v->sev_features = sev_features;
	v->cs = (struct vmsa_seg){.selector = 0x9900,
				  .attrib = 0x9A,
				  .limit = 0xFFFF,
				  .base = 0x99000};
	v->ds = (struct vmsa_seg){.attrib = 0x92, .limit = 0xFFFF};
	v->es = v->ds;
	v->fs = v->ds;
	v->gs = v->ds;
	v->ss = v->ds;
	v->ldtr = (struct vmsa_seg){.attrib = 0x82, .limit = 0xFFFF};
	v->tr = (struct vmsa_seg){.attrib = 0x83, .limit = 0xFFFF};
	v->gdtr.limit = 0xFFFF;
	v->idtr.limit = 0xFFFF;
	v->cr0 = 0x60000010ull;
	v->dr6 = 0xFFFF0FF0ull;
	v->dr7 = 0x400;
	v->rflags = 2;
	v->g_pat = 0x0007040600070406ull;
	v->xcr0 = 1;
	v->mxcsr = 0x1F80;
	v->x87_ftw = 0x5555;
	v->x87_fcw = 0x40;
}

uint64_t sim_vmsa_gpa(const struct sim_machine *m, unsigned vcpu)
{
	return vcpu < m->cfg.vcpu_count ? m->vcpu[vcpu].vmsa_gpa : 0;
}

/* The launch digest of what the PSP launched (sim_launch): the SVSM
 * region as zero pages, its first page the secrets page, then the guest's
 * secrets and Calling Area pages. Computed at the first request; a ZERO
 * page's digest needs no contents, so later writes cannot change it. */
static void psp_measure(struct sim_machine *m)
{
	const struct sim_config *c = &m->cfg;
	uint64_t gpa;

	for (gpa = c->svsm_base; gpa < c->svsm_base + c->svsm_size;
	     gpa += SNP_PAGE_SIZE) {
		(void)psp_launch_digest_page(
			m->psp.measurement, gpa,
			gpa == c->svsm_base ? PSP_PAGE_SECRETS : PSP_PAGE_ZERO,
			NULL);
	}
	(void)psp_launch_digest_page(m->psp.measurement, c->guest_secrets_gpa,
				     PSP_PAGE_ZERO, NULL);
	(void)psp_launch_digest_page(m->psp.measurement, c->guest_caa_gpa,
				     PSP_PAGE_ZERO, NULL);
	m->psp_measured = true;
}

uint64_t sim_hv_guest_request(struct sim_machine *m, const void *req, void *rsp,
			      void *certs, size_t *certs_len)
{
	/* The shared pages: what the hypervisor sees and may change. */
	static uint8_t shared_req[SNP_PAGE_SIZE], shared_rsp[SNP_PAGE_SIZE];
	uint64_t ret;

	if (m->stats.guest_requests < SIM_GREQ_LOG) {
		if (m->greq_log == NULL) {
			m->greq_log =
				calloc(SIM_GREQ_LOG, sizeof(*m->greq_log));
			if (m->greq_log == NULL) {
				abort(); /* the host is out of memory */
			}
		}
		memcpy(m->greq_log[m->stats.guest_requests], req,
		       SNP_PAGE_SIZE);
	}
	m->stats.guest_requests++;
	if (m->greq_hook != NULL) {
		void (*fn)(struct sim_machine *, void *) = m->greq_hook;

		m->greq_hook = NULL;
		fn(m, m->greq_hook_arg);
	}
	sim_bench_model_begin(m); /* the PSP is the machine's, not the SVSM's */
	if (!m->psp_measured) {
		psp_measure(m);
	}
	sim_bench_model_end(m);
	if (m->greq_busy_left > 0) {
		m->greq_busy_left--;
		return (uint64_t)PLAT_GREQ_VMM_BUSY << 32;
	}
	switch (m->hv) {
	case SIM_HV_GREQ_BUSY:
		return (uint64_t)PLAT_GREQ_VMM_BUSY << 32;
	case SIM_HV_GREQ_REFUSE:
		return PSP_STATUS_INVALID_PARAM;
	default:
		break;
	}
	if (certs != NULL && m->hv == SIM_HV_GREQ_CERTS_LIE) {
		*certs_len = 100;
		return (uint64_t)PLAT_GREQ_VMM_INVALID_LEN << 32;
	}
	if (certs != NULL && m->hv == SIM_HV_GREQ_CERTS_TOO_BIG) {
		*certs_len = 8 * SNP_PAGE_SIZE;
		return (uint64_t)PLAT_GREQ_VMM_INVALID_LEN << 32;
	}
	memcpy(shared_req, req, SNP_PAGE_SIZE);
	sim_bench_model_begin(m);
	ret = psp_host_guest_request(&m->psp, shared_req, shared_rsp, certs,
				     certs_len);
	sim_bench_model_end(m);
	if (ret != 0) {
		return ret;
	}
	if (m->hv == SIM_HV_GREQ_REPLAY) {
		if (m->greq_have_first) {
			memcpy(shared_rsp, m->greq_first_rsp, SNP_PAGE_SIZE);
		} else {
			memcpy(m->greq_first_rsp, shared_rsp, SNP_PAGE_SIZE);
			m->greq_have_first = true;
		}
	}
	if (m->hv == SIM_HV_GREQ_CORRUPT) {
		shared_rsp[0x60 + 0x30] ^= 0x04;
	}
	memcpy(rsp, shared_rsp, SNP_PAGE_SIZE);
	return 0;
}

void sim_hv_set_clock_rate(struct sim_machine *m, unsigned percent)
{
	m->clock_rate_pct = percent;
}

void sim_hv_greq_busy_for(struct sim_machine *m, unsigned n)
{
	m->greq_busy_left = n;
}

bool sim_hv_greq_seen(const struct sim_machine *m, unsigned i,
		      uint8_t page[4096])
{
	if (i >= SIM_GREQ_LOG || i >= m->stats.guest_requests ||
	    m->greq_log == NULL) {
		return false;
	}
	memcpy(page, m->greq_log[i], SNP_PAGE_SIZE);
	return true;
}

void sim_psp_set_fault(struct sim_machine *m, int fault)
{
	m->psp.fault = (enum psp_fault)fault;
}

uint32_t sim_psp_reports(const struct sim_machine *m)
{
	return m->psp.reports;
}

uint64_t sim_psp_last_seqno(const struct sim_machine *m)
{
	return m->psp.last_seqno[0];
}

void sim_psp_set_identity(struct sim_machine *m, const uint8_t *chip_secret,
			  const uint8_t *measurement)
{
	if (chip_secret != NULL) {
		memcpy(m->psp.chip_secret, chip_secret,
		       sizeof(m->psp.chip_secret));
	}
	if (measurement != NULL) {
		memcpy(m->psp.measurement, measurement,
		       sizeof(m->psp.measurement));
	}
}
