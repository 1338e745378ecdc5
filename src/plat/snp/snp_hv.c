/* SPDX-License-Identifier: MIT */
/* #HV under Restricted Injection (snp_hv.h). */
#include "snp_hv.h"

#include "svsm/log.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"

#include "snp_cpu.h"
#include "snp_hw.h"

void snp_hv_doorbell_register(struct ghcb_cpu *g, gpa_t gpa)
{
	struct ghcb_in in = {.exit_code = SVM_VMGEXIT_HV_DOORBELL,
			     .info1 = SVM_VMGEXIT_HV_DOORBELL_SET,
			     .info2 = gpa_val(gpa)};
	struct ghcb_out out;

	ghcb_call(g, &in, &out); /* a refusal is a non-zero result */
	if (out.info2 != gpa_val(gpa)) {
		/* The GPA the hypervisor says it uses must be ours. */
		SNP_TERMINATE_HV(TERM_CSVSM_GHCB_RESPONSE,
				 "snp: #HV doorbell registered at 0x%llx,"
				 " not 0x%llx",
				 (unsigned long long)out.info2,
				 (unsigned long long)gpa_val(gpa));
	}
}

void snp_hv_handle(uint8_t *doorbell)
{
	/* One atomic read-and-clear of the hypervisor's word: the copy is
	 * what is judged. */
	uint16_t events =
		__atomic_exchange_n((uint16_t *)doorbell, 0, __ATOMIC_SEQ_CST);

	if ((events & (HVDB_VECTOR_MASK | HVDB_NMI | HVDB_MC)) == 0) {
		return; /* spurious: nothing pending */
	}
	SNP_TERMINATE_HV(TERM_CSVSM_UNEXPECTED_EVENT,
			 "snp: #HV signalled events 0x%x; the SVSM asks for"
			 " none",
			 events);
}

void snp_hv_entry(void)
{
	struct snp_cpu *c = snp_hw_this_cpu();

	/* An #HV before this CPU registered its doorbell page: nothing
	 * the SVSM asked for can be pending. */
	if (c == NULL || !c->online) {
		SNP_TERMINATE_HV(TERM_CSVSM_UNEXPECTED_EVENT,
				 "snp: #HV before the doorbell was"
				 " registered");
	}
	snp_hv_handle(c->doorbell);
}
