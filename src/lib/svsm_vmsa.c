/* SPDX-License-Identifier: MIT */
/* The SVSM's own CPUs' initial state (svsm/svsm_vmsa.h). */
#include "svsm/svsm_vmsa.h"

#include "svsm/std.h"

#include "abi/x86_regs.h"

void vmsa_set_long_mode(struct snp_vmsa *v, uint16_t code_sel,
			uint16_t data_sel, uint64_t cr3, uint64_t cr4_extra)
{
	/* Attributes in the VMSA's packed form: type, S, DPL, P, then
	 * AVL, L, D/B, G (APM vol. 2 15.5). Code: execute/read, accessed,
	 * L set, D clear (64-bit); data: read/write, accessed. */
	struct vmsa_seg code = {
		.selector = code_sel, .attrib = 0xA9B, .limit = 0xFFFFFFFF};
	struct vmsa_seg data = {
		.selector = data_sel, .attrib = 0xC93, .limit = 0xFFFFFFFF};

	v->cs = code;
	v->ds = v->es = v->ss = v->fs = v->gs = data;
	v->tr = (struct vmsa_seg){.attrib = 0x8B, .limit = 0xFFFF};
	v->efer = EFER_SVME | EFER_LME | EFER_LMA | EFER_NXE;
	v->cr0 = CR0_PE | CR0_MP | CR0_ET | CR0_NE | CR0_WP | CR0_PG;
	v->cr4 = CR4_PAE | cr4_extra;
	v->cr3 = cr3;
}

void svsm_vmsa_init(struct snp_vmsa *v, const struct svsm_vmsa_regs *r)
{
	memset(v, 0, sizeof(*v));
	vmsa_set_long_mode(v, SVSM_VMSA_SEL_CODE64, SVSM_VMSA_SEL_DATA, r->cr3,
			   0);
	/* FS and GS null: their bases are MSRs, the entry code sets FS. */
	v->fs = v->gs = (struct vmsa_seg){.attrib = 0, .limit = 0xFFFFFFFF};
	v->ldtr = (struct vmsa_seg){.attrib = 0x82, .limit = 0xFFFF};
	/* No IDT until the entry code loads one: an exception before then
	 * shuts the VM down, which is what it must do. */
	v->gdtr.limit = v->idtr.limit = 0;
	v->rflags = 0x2; /* IF clear: the SVSM takes no interrupts */
	v->dr6 = 0xFFFF0FF0;
	v->dr7 = 0x400;
	v->g_pat = 0x0007040600070406ull;
	v->xcr0 = 1;
	v->mxcsr = 0x1F80;
	v->x87_fcw = 0x37F;
	v->rip = r->rip;
	v->rsp = r->rsp;
	v->rdi = r->rdi;
	v->rsi = r->rsi;
	v->vmpl = 0;
	v->sev_features = SVSM_VMSA_SEV_FEATURES;
}
