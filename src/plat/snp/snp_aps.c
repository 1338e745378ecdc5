/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's own application processors on snp: for each AP the boot CPU
 * builds a VMPL0 VMSA in SVSM memory (svsm/svsm_vmsa.h), marks it a VMSA
 * with RMPADJUST (so no lower VMPL can touch it and the hypervisor can
 * run it) and asks the hypervisor to create the vCPU (NAE 0x8000_0013).
 * The AP entry code that such a CPU runs (its own GHCB, then the request
 * loop) is part of the snp firmware image, which does not exist yet.
 */
#include "svsm/check.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/page_state.h"
#include "svsm/svsm_vmsa.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "snp_main.h"

void snp_start_aps(struct ghcb_cpu *g, const uint32_t *apic_ids, unsigned count,
		   uint64_t entry_rip)
{
	unsigned i;

	for (i = 1; i < count; i++) {
		struct snp_vmsa *v = page_alloc(0);
		gpa_t gpa;

		if (v == NULL) {
			LOG_ERROR("snp: no memory for AP %u's VMSA", i);
			ghcb_msr_terminate(TERM_SET_CSVSM,
					   TERM_CSVSM_NO_MEMORY);
		}
		svsm_vmsa_init(v, entry_rip);
		gpa = page_to_gpa(v);
		/* SVSM heap memory, validated and VMPL0-only: setting the
		 * VMSA bit cannot fail unless an invariant broke. */
		CHECK(page_make_vmsa(gpa, 0) == SNP_RET_SUCCESS);
		ghcb_ap_create(g, apic_ids[i], gpa, 0, SVSM_VMSA_SEV_FEATURES);
	}
}
