/* SPDX-License-Identifier: MIT */
/* The SVSM's own CPUs' initial state (svsm/svsm_vmsa.h). */
#include "svsm/svsm_vmsa.h"

#include "svsm/std.h"

void svsm_vmsa_init(struct snp_vmsa *v, uint64_t entry_rip)
{
	/* Attributes in the VMSA's packed form: type, S, DPL, P, then
	 * AVL, L, D/B, G (APM vol. 2 15.5). */
	struct vmsa_seg code = {
		.selector = 0x08, .attrib = 0xC9B, .limit = 0xFFFFFFFF};
	struct vmsa_seg data = {
		.selector = 0x10, .attrib = 0xC93, .limit = 0xFFFFFFFF};

	memset(v, 0, sizeof(*v));
	v->cs = code;
	v->ds = v->es = v->ss = v->fs = v->gs = data;
	v->ldtr = (struct vmsa_seg){.attrib = 0x82, .limit = 0xFFFF};
	v->tr = (struct vmsa_seg){.attrib = 0x8B, .limit = 0xFFFF};
	v->gdtr.limit = v->idtr.limit = 0xFFFF;
	v->efer = 0x1000; /* SVME: required in an SNP VMSA */
	v->cr0 = 0x11;	  /* PE, ET */
	v->rflags = 0x2;
	v->dr6 = 0xFFFF0FF0;
	v->dr7 = 0x400;
	v->g_pat = 0x0007040600070406ull;
	v->xcr0 = 1;
	v->mxcsr = 0x1F80;
	v->x87_fcw = 0x37F;
	v->rip = entry_rip;
	v->vmpl = 0;
	v->sev_features = SVSM_VMSA_SEV_FEATURES;
}
