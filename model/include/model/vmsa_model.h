/* SPDX-License-Identifier: MIT */
/*
 * What the hardware checks before it runs a VMSA (VMRUN of an SEV-SNP
 * guest, AMD APM vol. 2 15.36.8): shared by emu and sim.
 */
#ifndef SVSM_VMSA_MODEL_H
#define SVSM_VMSA_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/snp.h"

#include "model/snpmodel.h"

enum vmsa_run_check {
	VMSA_RUN_OK = 0,
	VMSA_RUN_NOT_VMSA, /* the RMP entry lacks the VMSA bit */
	VMSA_RUN_NO_SVME,  /* EFER.SVME clear: VMEXIT_INVALID */
	VMSA_RUN_BAD_VMPL, /* the VMSA's VMPL field is not the one asked */
	VMSA_RUN_NOT_SNP,  /* SEV_FEATURES lacks SNPActive */
};

enum vmsa_run_check vmsa_model_can_run(const struct rmp *rmp, uint64_t gpa,
				       const struct snp_vmsa *vmsa,
				       unsigned vmpl);

#endif /* SVSM_VMSA_MODEL_H */
