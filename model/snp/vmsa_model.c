/* SPDX-License-Identifier: MIT */
#include "model/vmsa_model.h"

enum vmsa_run_check vmsa_model_can_run(const struct rmp *rmp, uint64_t gpa,
				       const struct snp_vmsa *vmsa,
				       unsigned vmpl)
{
	const struct rmp_entry *e = rmp_lookup(rmp, gpa);
	uint8_t need = RMP_F_ASSIGNED | RMP_F_VALIDATED | RMP_F_VMSA;

	/* A VMSA is a page: an address inside one names no VMSA (the
	 * struct there would span the next page, which this check never
	 * sees). */
	if ((gpa & (SNP_PAGE_SIZE - 1)) != 0 || e == NULL ||
	    (e->flags & need) != need) {
		return VMSA_RUN_NOT_VMSA;
	}
	if ((vmsa->efer & EFER_SVME) == 0) {
		return VMSA_RUN_NO_SVME;
	}
	if (vmsa->vmpl != vmpl) {
		return VMSA_RUN_BAD_VMPL;
	}
	if ((vmsa->sev_features & SEV_FEAT_SNP_ACTIVE) == 0) {
		return VMSA_RUN_NOT_SNP;
	}
	return VMSA_RUN_OK;
}
