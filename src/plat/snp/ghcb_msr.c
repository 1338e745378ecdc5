/* SPDX-License-Identifier: MIT */
/*
 * The GHCB MSR protocol (56421 section 2.3.1; spec notes 7.1). Each
 * request writes GHCBInfo/GHCBData to the GHCB MSR, exits, and reads the
 * reply back once. A reply with the wrong response code or echo is the
 * hypervisor breaking the protocol: terminate, never use it.
 */
#include "svsm/log.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"

#include "ghcb.h"
#include "snp_hw.h"

/* Lowest C-bit position an SNP host uses; the top is 51 (APM vol. 2). */
#define CBIT_MIN 32u
#define CBIT_MAX 51u

static uint64_t msr_call(uint64_t req)
{
	snp_hw_write_ghcb_msr(req);
	snp_hw_vmgexit();
	return snp_hw_read_ghcb_msr();
}

/* The reply must carry @resp; otherwise the protocol is broken. */
static uint64_t msr_expect(uint64_t req, uint64_t resp, const char *what)
{
	uint64_t v = msr_call(req);

	if (GHCB_MSR_INFO(v) != resp) {
		SNP_TERMINATE_HV(TERM_CSVSM_GHCB_RESPONSE,
				 "ghcb: %s: response code 0x%llx, not 0x%llx",
				 what, (unsigned long long)GHCB_MSR_INFO(v),
				 (unsigned long long)resp);
	}
	return v;
}

void ghcb_msr_terminate(uint32_t set, uint32_t code)
{
	snp_hw_write_ghcb_msr(GHCB_MSR_TERM(set, code));
	snp_hw_vmgexit();
	snp_hw_halt(); /* a hypervisor that returns is ignored */
}

unsigned ghcb_msr_negotiate(void)
{
	uint64_t v = msr_expect(GHCB_MSR_SEV_INFO_REQ, GHCB_MSR_SEV_INFO_RESP,
				"SEV information");
	unsigned cbit = (unsigned)GHCB_SEV_INFO_CBIT(v);

	if (GHCB_SEV_INFO_MIN(v) > GHCB_VERSION_SNP ||
	    GHCB_SEV_INFO_MAX(v) < GHCB_VERSION_SNP) {
		TERMINATE_HV_VIA(ghcb_msr_terminate, TERM_SET_GENERAL,
				 TERM_PROTOCOL_UNSUPPORTED,
				 "ghcb: hypervisor speaks versions %llu..%llu,"
				 " not 2",
				 (unsigned long long)GHCB_SEV_INFO_MIN(v),
				 (unsigned long long)GHCB_SEV_INFO_MAX(v));
	}
	if (cbit < CBIT_MIN || cbit > CBIT_MAX) {
		SNP_TERMINATE_HV(TERM_CSVSM_GHCB_RESPONSE,
				 "ghcb: C-bit position %u out of range", cbit);
	}
	return cbit;
}

uint64_t ghcb_msr_hv_features(void)
{
	const uint64_t need = GHCB_HV_FT_SNP | GHCB_HV_FT_SNP_AP_CREATION |
			      GHCB_HV_FT_SNP_MULTI_VMPL;
	uint64_t f = GHCB_MSR_DATA(msr_expect(GHCB_MSR_HV_FT_REQ,
					      GHCB_MSR_HV_FT_RESP,
					      "hypervisor features"));

	if ((f & need) != need) {
		TERMINATE_HV_VIA(ghcb_msr_terminate, TERM_SET_GENERAL,
				 TERM_SNP_FEATURES_UNSUPPORTED,
				 "ghcb: hypervisor features 0x%llx lack 0x%llx",
				 (unsigned long long)f,
				 (unsigned long long)(need & ~f));
	}
	return f;
}

void ghcb_msr_register(gpa_t gpa)
{
	uint64_t gfn = gpa_val(gpa) >> 12;
	uint64_t v = msr_expect(GHCB_MSR_REG_GPA_REQ | (gfn << 12),
				GHCB_MSR_REG_GPA_RESP, "GHCB registration");

	if (GHCB_MSR_DATA(v) != gfn) {
		SNP_TERMINATE_HV(TERM_CSVSM_GHCB_RESPONSE,
				 "ghcb: registration echoed GFN 0x%llx,"
				 " not 0x%llx",
				 (unsigned long long)GHCB_MSR_DATA(v),
				 (unsigned long long)gfn);
	}
}

void ghcb_msr_psc(gpa_t gpa, bool to_private)
{
	uint64_t v = msr_expect(GHCB_MSR_PSC(gpa_val(gpa) >> 12,
					     to_private ? GHCB_PSC_OP_PRIVATE
							: GHCB_PSC_OP_SHARED),
				GHCB_MSR_PSC_RESP, "page state change");

	if (GHCB_MSR_RESP_ERROR(v) != 0) {
		SNP_TERMINATE_HV(TERM_CSVSM_PSC_FAILED,
				 "ghcb: page state change of 0x%llx failed:"
				 " 0x%llx",
				 (unsigned long long)gpa_val(gpa),
				 (unsigned long long)GHCB_MSR_RESP_ERROR(v));
	}
}

void ghcb_msr_run_vmpl(unsigned vmpl)
{
	uint64_t v = msr_expect(GHCB_MSR_RUN_VMPL(vmpl), GHCB_MSR_RUN_VMPL_RESP,
				"run VMPL");

	if (GHCB_MSR_RESP_ERROR(v) != 0) {
		SNP_TERMINATE_HV(TERM_CSVSM_RUN_VMPL_REFUSED,
				 "ghcb: run VMPL %u refused: 0x%llx", vmpl,
				 (unsigned long long)GHCB_MSR_RESP_ERROR(v));
	}
}
