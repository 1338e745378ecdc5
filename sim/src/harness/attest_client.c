/* SPDX-License-Identifier: MIT */
/*
 * The guest's attestation client, after Linux (csvsm_sim.h sim_attest):
 * what snp_issue_svsm_attest_req and sev_svsm_report_new do, with their
 * buffers, sentinels and retries, so tests meet the SVSM as Linux does.
 */
#include <string.h>

#include "abi/snp.h"
#include "abi/svsm_attest.h"
#include "abi/svsm_call.h"

#include "sim_harness.h"

#define MAX_RETRIES 3u /* Linux SVSM_MAX_RETRIES */
#define PAGE SNP_PAGE_SIZE

static uint64_t page_align(uint64_t v)
{
	return (v + PAGE - 1) & ~(PAGE - 1);
}

enum sim_status sim_attest(struct sim_machine *m, unsigned vcpu,
			   const uint8_t *guid, const uint8_t nonce[64],
			   uint64_t nonce_gpa, uint64_t bufs_gpa, bool no_certs,
			   struct sim_attest_result *out)
{
	struct svsm_attest_req req;
	uint64_t report_len = PAGE, manifest_len = PAGE;
	uint64_t certs_len = no_certs ? 0 : SVSM_ATTEST_MAX_CERTS_SIZE;
	uint64_t caa;
	enum sim_status st;

	if (m == NULL || vcpu >= m->cfg.vcpu_count || out == NULL) {
		return SIM_BAD_ARG;
	}
	memset(out, 0, sizeof(*out));
	st = sim_mem_write(m, nonce_gpa, nonce, 64);
	if (st != SIM_OK) {
		return st;
	}
	caa = sim_current_caa_gpa(m, vcpu);
	for (out->calls = 1;; out->calls++) {
		struct sim_regs r;

		memset(&req, 0, sizeof(req));
		/* Linux: manifest, then certificates, then the report. */
		req.manifest.pa = bufs_gpa;
		req.manifest.len = (uint32_t)manifest_len;
		req.certificates.pa = no_certs ? 0 : bufs_gpa + manifest_len;
		req.certificates.len = (uint32_t)certs_len;
		req.report.pa = bufs_gpa + manifest_len + certs_len;
		req.report.len = (uint32_t)report_len;
		req.nonce_pa = nonce_gpa;
		req.nonce_len = 64;
		if (guid != NULL) {
			memcpy(req.service_guid, guid, 16);
		}
		st = sim_mem_write(m, caa + 8, &req,
				   guid != NULL
					   ? SVSM_ATTEST_SINGLE_REQ_SIZE
					   : SVSM_ATTEST_SERVICES_REQ_SIZE);
		if (st != SIM_OK) {
			return st;
		}
		r = (struct sim_regs){
			.rax = SVSM_CALL(SVSM_PROTOCOL_ATTEST,
					 guid != NULL
						 ? SVSM_ATTEST_SINGLE_SERVICE
						 : SVSM_ATTEST_SERVICES),
			.rcx = caa + 8,
			.rdx = ~0ull,
			.r8 = ~0ull,
		};
		st = sim_call(m, vcpu, &r);
		if (st != SIM_OK) {
			return st;
		}
		out->result = (uint32_t)r.rax;
		out->manifest_len = r.rcx;
		out->certs_len = r.rdx;
		out->report_len = r.r8;
		if (out->result != SVSM_ERR_INVALID_PARAMETER ||
		    out->calls > MAX_RETRIES) {
			break;
		}
		/* Linux: any register that changed is a length it needs. */
		if (r.rcx == caa + 8 && r.rdx == ~0ull && r.r8 == ~0ull) {
			break;
		}
		if (r.rcx != caa + 8) {
			manifest_len = page_align(r.rcx);
		}
		if (r.rdx != ~0ull) {
			certs_len = page_align(r.rdx);
		}
		if (r.r8 != ~0ull) {
			report_len = page_align(r.r8);
		}
		if (manifest_len + certs_len + report_len > 24ull * 1024) {
			break; /* past the buffers the caller gave */
		}
	}
	if (out->result != SVSM_SUCCESS) {
		return SIM_OK;
	}
	if (out->report_len > sizeof(out->report) ||
	    out->manifest_len > sizeof(out->manifest) ||
	    out->certs_len > sizeof(out->certs)) {
		return SIM_BAD_ARG;
	}
	st = sim_mem_read(m, req.report.pa, out->report, out->report_len);
	if (st == SIM_OK) {
		st = sim_mem_read(m, req.manifest.pa, out->manifest,
				  out->manifest_len);
	}
	if (st == SIM_OK && out->certs_len != 0) {
		st = sim_mem_read(m, req.certificates.pa, out->certs,
				  out->certs_len);
	}
	return st;
}
