/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor (KVM's part) behind the snp platform's GHCB client, and
 * the seam snp_hw.h for it: MSR writes land in the model's GHCB MSR, and
 * VMGEXIT runs the model, which answers the MSR protocol or the NAE event
 * in the registered GHCB page, changing the RMP model as KVM's RMPUPDATE
 * would. enum sim_ghcb_behaviour makes it lie in one way at a time.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/plat.h"
#include "svsm/psp_model.h"

#include "abi/ghcb.h"
#include "abi/snp.h"

#include "../../src/plat/snp/snp_hw.h"
#include "../../src/plat/snp/snp_main.h"
#include "sim_internal.h"

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

/* The model runs every SVSM entry on one host thread, as the boot CPU. */
struct snp_cpu *snp_hw_this_cpu(void)
{
	return hv()->snp_cpu;
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
	cur->registered_gpa = m->ghcb.registered_gpa;
	cur->doorbell_gpa = m->ghcb.doorbell_gpa;
	cur->cpu = m->snp_cpu;
	m->ghcb_msr = next->ghcb_msr;
	m->ghcb.registered_gpa = next->registered_gpa;
	m->ghcb.doorbell_gpa = next->doorbell_gpa;
	m->snp_cpu = next->cpu;
	m->snp_current = index;
}

void sim_ghcb_cpu(struct sim_machine *m, unsigned index, uint64_t *ghcb_gpa,
		  uint64_t *doorbell_gpa, unsigned *run_vmpl)
{
	unsigned cur = m->snp_current;

	sim_snp_switch_cpu(m, index);
	*ghcb_gpa = m->ghcb.registered_gpa;
	*doorbell_gpa = m->ghcb.doorbell_gpa;
	*run_vmpl = m->snp_cpus[index].run_vmpl;
	sim_snp_switch_cpu(m, cur);
}

static void terminate(struct sim_machine *m, uint32_t set, uint32_t code)
{
	m->snp_term_set = set;
	m->snp_term_code = code;
	if (m->snp_jmp != NULL) {
		longjmp(*m->snp_jmp, 1);
	}
	m->terminated = true; /* from an SVSM entry: the VM ends */
	m->term_set = set;
	m->term_code = code;
	longjmp(*m->svsm_jmp, 1);
}

/* RMPUPDATE for one page, as KVM does on a PSC (PSMASH first inside a
 * 2 MiB entry). */
static uint64_t psc_page(struct sim_machine *m, uint64_t gfn, unsigned op)
{
	uint64_t gpa = gfn << 12;
	uint32_t rc;

	if (m->ghcb_hv == SIM_GHCB_PSC_LIE) {
		return 0;
	}
	if (m->ghcb_hv == SIM_GHCB_PSC_WRONG_PAGE) {
		gpa += SNP_PAGE_SIZE;
	}
	if (gpa >= m->cfg.guest_mem_size) {
		return 1;
	}
	rc = rmp_hv_page_state(&m->rmp, gpa, false, op == GHCB_PSC_OP_PRIVATE);
	if (rc == SNP_RET_SUCCESS && op == GHCB_PSC_OP_PRIVATE) {
		sim_fill_stale(m, gpa, SNP_PAGE_SIZE);
	}
	return rc == SNP_RET_SUCCESS ? 0 : 1;
}

static void msr_protocol(struct sim_machine *m)
{
	uint64_t v = m->ghcb_msr;
	uint64_t reply;

	m->ghcb.msr_calls++;
	switch (GHCB_MSR_INFO(v)) {
	case GHCB_MSR_SEV_INFO_REQ:
		reply = GHCB_MSR_SEV_INFO_RESP | (51ull << 24) | (1ull << 32) |
			((m->ghcb_hv == SIM_GHCB_OLD_VERSION ? 1ull : 2ull)
			 << 48);
		break;
	case GHCB_MSR_HV_FT_REQ:
		reply = GHCB_MSR_HV_FT_RESP |
			((GHCB_HV_FT_SNP | GHCB_HV_FT_SNP_AP_CREATION |
			  (m->ghcb_hv == SIM_GHCB_NO_MULTI_VMPL
				   ? 0
				   : GHCB_HV_FT_SNP_MULTI_VMPL))
			 << 12);
		break;
	case GHCB_MSR_REG_GPA_REQ: {
		uint64_t gfn = GHCB_MSR_DATA(v);

		m->ghcb.registered_gpa = gfn << 12;
		if (m->ghcb_hv == SIM_GHCB_WRONG_ECHO) {
			gfn++;
		}
		reply = GHCB_MSR_REG_GPA_RESP | (gfn << 12);
		break;
	}
	case GHCB_MSR_PSC_REQ:
		m->ghcb.psc_calls++;
		reply = GHCB_MSR_PSC_RESP |
			(psc_page(m, (v >> 12) & GHCB_GFN_MASK,
				  (unsigned)((v >> 52) & 0xF))
			 << 32);
		if (m->ghcb_hv == SIM_GHCB_PSC_ERROR) {
			reply |= 1ull << 32;
		}
		break;
	case GHCB_MSR_RUN_VMPL_REQ:
		m->ghcb.run_vmpl++;
		m->snp_cpus[m->snp_current].run_vmpl++;
		reply = GHCB_MSR_RUN_VMPL_RESP |
			(m->ghcb_hv == SIM_GHCB_REFUSE_RUN_VMPL ? 1ull << 32
								: 0);
		break;
	case GHCB_MSR_TERM_REQ:
		terminate(m, (uint32_t)((v >> 12) & 0xF),
			  (uint32_t)((v >> 16) & 0xFF));
		return;
	default:
		reply = 0xFFF; /* unknown request: KVM ends the guest */
		break;
	}
	if (m->ghcb_hv == SIM_GHCB_WRONG_RESPONSE_CODE &&
	    GHCB_MSR_INFO(v) != GHCB_MSR_SEV_INFO_REQ) {
		reply ^= 0x100;
	}
	m->ghcb_msr = reply;
}

static uint64_t rd(const uint8_t *p, unsigned off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static void wr(uint8_t *p, unsigned off, uint64_t v, bool mark)
{
	memcpy(p + off, &v, 8);
	if (mark) {
		ghcb_page_set_valid(p, off);
	}
}

/* The PSC buffer in the GHCB's shared buffer; returns exit_info_2. */
static uint64_t nae_psc(struct sim_machine *m, uint8_t *buf)
{
	uint16_t cur, end;
	unsigned budget = m->ghcb_hv == SIM_GHCB_PSC_PARTIAL ? 3 : 253;

	m->ghcb.psc_calls++;
	memcpy(&cur, buf, 2);
	memcpy(&end, buf + 2, 2);
	if (end >= GHCB_PSC_MAX_ENTRIES) {
		return (1ull << 32) | 1;
	}
	if (m->ghcb_hv == SIM_GHCB_PSC_STALL) {
		return 0; /* back at once, nothing done */
	}
	if (m->ghcb_hv == SIM_GHCB_PSC_BACKWARDS && cur == 0 && end > 0) {
		cur = 1; /* pretend one was done ... */
		memcpy(buf, &cur, 2);
		return 0;
	}
	if (m->ghcb_hv == SIM_GHCB_PSC_BACKWARDS) {
		cur = 0; /* ... then go back */
		memcpy(buf, &cur, 2);
		return 0;
	}
	while (cur <= end && budget-- > 0) {
		uint64_t e;

		memcpy(&e, buf + GHCB_PSC_HDR_SIZE + (size_t)8 * cur, 8);
		if (psc_page(m, GHCB_PSC_ENTRY_GFN(e),
			     (unsigned)GHCB_PSC_ENTRY_OP(e)) != 0) {
			return (1ull << 32) | 2;
		}
		cur++;
	}
	memcpy(buf, &cur, 2);
	return m->ghcb_hv == SIM_GHCB_PSC_ERROR ? 0x100ull << 32 : 0;
}

/* The guest request NAE: the same hypervisor as the direct path
 * (sim_hv_guest_request, with its SIM_HV_GREQ_* behaviours), reached
 * through the GHCB: pages named by GPA, the certificate buffer's size in
 * RBX pages, the pages it needs back in RBX on INVALID_LEN. */
static uint64_t nae_guest_request(struct sim_machine *m, uint8_t *g, bool ext,
				  uint64_t *rbx, bool *set_rbx)
{
	uint64_t req = rd(g, GHCB_OFF_SW_EXIT_INFO_1);
	uint64_t rsp = rd(g, GHCB_OFF_SW_EXIT_INFO_2);
	uint64_t certs = ext ? rd(g, GHCB_OFF_RAX) : 0;
	uint64_t pages = ext ? rd(g, GHCB_OFF_RBX) : 0;
	size_t len = (size_t)(pages * SNP_PAGE_SIZE);
	uint64_t ret;

	if (req + SNP_PAGE_SIZE > m->cfg.guest_mem_size ||
	    rsp + SNP_PAGE_SIZE > m->cfg.guest_mem_size ||
	    rmp_check_shared_access(&m->rmp, req) != RMP_ACCESS_OK ||
	    rmp_check_shared_access(&m->rmp, rsp) != RMP_ACCESS_OK) {
		return 0xFFFF; /* not shared pages: KVM refuses */
	}
	if (ext && (pages > 64 || certs >= m->cfg.guest_mem_size ||
		    len > m->cfg.guest_mem_size - certs)) {
		return 0xFFFF; /* certificates outside RAM: KVM refuses */
	}
	ret = sim_hv_guest_request(m, m->mem + req, m->mem + rsp,
				   ext ? m->mem + certs : NULL,
				   ext ? &len : NULL);
	if (ext && (ret >> 32) == PLAT_GREQ_VMM_INVALID_LEN) {
		*rbx = (len + SNP_PAGE_SIZE - 1) / SNP_PAGE_SIZE;
		*set_rbx = m->ghcb_hv != SIM_GHCB_CERTS_NO_RBX;
	}
	return ret;
}

static void nae(struct sim_machine *m, uint8_t *g)
{
	uint64_t code = rd(g, GHCB_OFF_SW_EXIT_CODE);
	uint64_t info2 = 0, rbx = 0, reply_rax = 0, reply_rdx = 0;
	bool set_rbx = false, set_rax = false, set_rdx = false;
	bool mark = m->ghcb_hv != SIM_GHCB_NO_VALID_BITS;

	m->ghcb.nae_calls++;
	if (m->ghcb_hv == SIM_GHCB_FUZZ) {
		/* The reply is whatever the fuzzer says it is. */
		memcpy(g, m->ghcb_fuzz_reply, sizeof(m->ghcb_fuzz_reply));
		m->ghcb_msr = m->ghcb_fuzz_msr;
		return;
	}
	switch (code) {
	case SVM_VMGEXIT_PSC:
		info2 = nae_psc(m, g + GHCB_OFF_SHARED_BUFFER);
		break;
	case SVM_VMGEXIT_SNP_RUN_VMPL:
		m->ghcb.run_vmpl++;
		m->snp_cpus[m->snp_current].run_vmpl++;
		info2 = m->ghcb_hv == SIM_GHCB_REFUSE_RUN_VMPL ? 1 : 0;
		break;
	case SVM_EXIT_MSR:
		if (rd(g, GHCB_OFF_SW_EXIT_INFO_1) == 1) {
			m->ghcb.last_wrmsr = (uint32_t)rd(g, GHCB_OFF_RCX);
			m->ghcb.last_wrmsr_value =
				(uint32_t)rd(g, GHCB_OFF_RAX) |
				(rd(g, GHCB_OFF_RDX) << 32);
		} else {
			uint64_t v = SIM_GHCB_RDMSR(rd(g, GHCB_OFF_RCX));

			reply_rax = (uint32_t)v;
			reply_rdx = v >> 32;
			set_rax = set_rdx = true;
		}
		break;
	case SVM_EXIT_IOIO: { /* COM1 output is the machine's console */
		uint64_t info1 = rd(g, GHCB_OFF_SW_EXIT_INFO_1);
		char ch = (char)rd(g, GHCB_OFF_RAX);

		if (info1 & SVM_IOIO_TYPE_IN) {
			reply_rax = SIM_GHCB_IN_VALUE;
			set_rax = true;
			break;
		}
		if ((info1 >> 16) != 0x3F8) {
			m->ghcb.last_out_port = (uint32_t)(info1 >> 16);
			m->ghcb.last_out_value = (uint32_t)rd(g, GHCB_OFF_RAX);
			break;
		}
		m->ghcb.console_bytes++;
		if ((info1 & 1) == 0 && (info1 >> 16) == 0x3F8 &&
		    m->console_len + 1 < SIM_CONSOLE_SIZE) {
			m->console[m->console_len++] = ch;
			m->console[m->console_len] = '\0';
			if (m->cfg.log_stderr) {
				(void)fputc(ch, stderr);
			}
		}
		break;
	}
	case SVM_VMGEXIT_HV_DOORBELL:
		if (rd(g, GHCB_OFF_SW_EXIT_INFO_1) ==
			    SVM_VMGEXIT_HV_DOORBELL_SET &&
		    rmp_check_shared_access(&m->rmp,
					    rd(g, GHCB_OFF_SW_EXIT_INFO_2)) ==
			    RMP_ACCESS_OK) {
			m->ghcb.doorbell_gpa = rd(g, GHCB_OFF_SW_EXIT_INFO_2);
			info2 = m->ghcb.doorbell_gpa;
			if (m->ghcb_hv == SIM_GHCB_DOORBELL_ELSEWHERE) {
				info2 += SNP_PAGE_SIZE;
			}
		}
		break;
	case SVM_VMGEXIT_AP_CREATION: {
		uint64_t vmsa = rd(g, GHCB_OFF_SW_EXIT_INFO_2);
		const struct rmp_entry *e = vmsa < m->cfg.guest_mem_size
						    ? rmp_lookup(&m->rmp, vmsa)
						    : NULL;

		m->ghcb.ap_created++;
		m->ghcb.ap_info1 = rd(g, GHCB_OFF_SW_EXIT_INFO_1);
		m->ghcb.ap_apic_id = (uint32_t)(m->ghcb.ap_info1 >> 32);
		m->ghcb.ap_vmsa_gpa = vmsa;
		/* KVM runs only a page the guest made a VMSA. */
		m->ghcb.ap_vmsa_ok = e != NULL && (e->flags & RMP_F_VMSA);
		break;
	}
	case SVM_VMGEXIT_GUEST_REQUEST:
	case SVM_VMGEXIT_EXT_GUEST_REQUEST:
		m->ghcb.guest_requests++;
		info2 = nae_guest_request(m, g,
					  code == SVM_VMGEXIT_EXT_GUEST_REQUEST,
					  &rbx, &set_rbx);
		break;
	default:
		break;
	}
	/* KVM clears the bitmap, then marks what it writes. */
	memset(g + GHCB_OFF_VALID_BITMAP, 0, 16);
	wr(g, GHCB_OFF_SW_EXIT_INFO_1,
	   m->ghcb_hv == SIM_GHCB_EXCEPTION_RESULT ? 1 : 0, mark);
	wr(g, GHCB_OFF_SW_EXIT_INFO_2, info2, mark);
	if (set_rbx || rbx != 0) {
		wr(g, GHCB_OFF_RBX, rbx, mark && set_rbx);
	}
	if (set_rax) {
		wr(g, GHCB_OFF_RAX, reply_rax,
		   mark && m->ghcb_hv != SIM_GHCB_MSR_NO_RAX);
	}
	if (set_rdx) {
		wr(g, GHCB_OFF_RDX, reply_rdx, mark);
	}
	if (m->ghcb_hv == SIM_GHCB_MSR_CHANGED) {
		m->ghcb_msr += SNP_PAGE_SIZE;
	}
}

void snp_hw_vmgexit(void)
{
	struct sim_machine *m = hv();
	uint64_t v = m->ghcb_msr;

	if (GHCB_MSR_INFO(v) != 0) {
		msr_protocol(m);
		return;
	}
	/* The GHCB page protocol: only the registered, shared page. */
	if (v != m->ghcb.registered_gpa || v >= m->cfg.guest_mem_size ||
	    rmp_check_shared_access(&m->rmp, v) != RMP_ACCESS_OK) {
		terminate(m, 0, 0); /* KVM would kill such a guest */
	}
	nae(m, m->mem + v);
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
	*s = m->ghcb;
}

bool sim_snp_run(struct sim_machine *m, void (*fn)(void *), void *arg,
		 uint32_t *set, uint32_t *code)
{
	jmp_buf jmp;

	m->snp_jmp = &jmp;
	if (setjmp(jmp) != 0) {
		m->snp_jmp = NULL;
		if (set != NULL) {
			*set = m->snp_term_set;
		}
		if (code != NULL) {
			*code = m->snp_term_code;
		}
		return false;
	}
	fn(arg);
	m->snp_jmp = NULL;
	return true;
}

bool sim_uses_snp_platform(const struct sim_machine *m)
{
	return m->cfg.snp_ghcb;
}

static void hv_entry(void *arg)
{
	(void)arg;
	snp_hv_entry();
}

bool sim_ghcb_inject_hv(struct sim_machine *m, uint16_t events)
{
	if (m->ghcb.doorbell_gpa == 0 || m->terminated) {
		return false;
	}
	memcpy(m->mem + m->ghcb.doorbell_gpa, &events, sizeof(events));
	return sim_svsm_call(m, hv_entry, NULL);
}
