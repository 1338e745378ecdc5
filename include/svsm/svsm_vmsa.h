/* SPDX-License-Identifier: MIT */
/*
 * The initial state of the SVSM's own CPUs on snp: VMPL0, 32-bit
 * protected mode with flat segments and paging off, at the image's entry,
 * with SNPActive and Restricted Injection. One definition for the boot
 * CPU's VMSA in the IGVM image (tools/igvm) and the APs the SVSM starts
 * itself (src/plat/snp/snp_aps.c), so both start the same way.
 */
#ifndef SVSM_SVSM_VMSA_H
#define SVSM_SVSM_VMSA_H

#include <stdint.h>

#include "abi/snp.h"

/* Restricted Injection: the hypervisor signals the SVSM only through #HV
 * (src/plat/snp/snp_hv.h). */
#define SVSM_VMSA_SEV_FEATURES                                                 \
	(SEV_FEAT_SNP_ACTIVE | SEV_FEAT_RESTRICTED_INJECTION)

void svsm_vmsa_init(struct snp_vmsa *v, uint64_t entry_rip);

#endif /* SVSM_SVSM_VMSA_H */
