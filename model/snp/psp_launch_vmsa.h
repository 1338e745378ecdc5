/* SPDX-License-Identifier: MIT */
/*
 * Inside the PSP's launch: the VMSAs (psp_launch_vmsa.c), which the
 * directive walk (psp_launch.c) checks and builds. Not an interface.
 */
#ifndef SNPMODEL_PSP_LAUNCH_VMSA_H
#define SNPMODEL_PSP_LAUNCH_VMSA_H

#include "abi/snp.h"

#include "psp_launch_page.h"

/**
 * QEMU's and KVM's checks of the VMSA @v of VP_CONTEXT @vp at @gpa: NULL,
 * or the refusal.
 */
const char *launch_vmsa_accept(struct launch *l, uint64_t gpa, uint32_t vp,
			       const struct snp_vmsa *v);
/**
 * The VMSA KVM measures for a vCPU QEMU loaded from @img (accepted), or,
 * @img NULL, for one in QEMU's reset state with RDX @signature; with the
 * VM's @sev_features.
 */
void launch_vmsa_build(const struct snp_vmsa *img, uint32_t signature,
		       uint64_t sev_features, struct snp_vmsa *out);

#endif /* SNPMODEL_PSP_LAUNCH_VMSA_H */
