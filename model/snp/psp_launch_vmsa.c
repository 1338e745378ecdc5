/* SPDX-License-Identifier: MIT */
/*
 * The VMSAs of a launch, as a QEMU+KVM host makes them (psp_launch.c).
 * KVM does not measure the bytes of an IGVM VP_CONTEXT: QEMU loads its
 * registers into the vCPU (target/i386/sev.c, sev_apply_cpu_context()),
 * KVM's setters adjust some on the way into the VMCB save area, and at
 * SNP_LAUNCH_FINISH KVM copies that area into each vCPU's VMSA and adds
 * the GPRs, XCR0, DR6, the FPU state and the VM's SEV features
 * (arch/x86/kvm/svm/sev.c, sev_es_sync_vmsa()). A vCPU the file gives
 * no VP_CONTEXT is in QEMU's reset state (target/i386/cpu.c,
 * x86_cpu_reset_hold()); with an IGVM file no firmware's SEV-ES reset
 * vector applies to it. The facts and their sources:
 * docs/running-on-snp.md, "The launch digest".
 */
#include "psp_launch_vmsa.h"

#include "svsm/std.h"

#include "abi/snp.h"

#include "psp_launch_page.h"

#define CR0_ET (1ull << 4)
#define CR0_NW (1ull << 29)
#define CR0_CD (1ull << 30)
#define CR4_MCE (1ull << 6)
#define DR6_FIXED_1 0xFFFF0FF0ull
#define DR7_FIXED_1 0x400ull
#define PAT_DEFAULT 0x0007040600070406ull
#define FCW_DEFAULT 0x37Fu
#define MXCSR_DEFAULT 0x1F80u
/* VMCB segment attributes: type 0-3, S 4, DPL 5-6, P 7, AVL 8, L 9,
 * D/B 10, G 11; QEMU's conversion keeps bits 0-11 only. */
#define ATTRIB_BITS 0xFFFu

static struct vmsa_seg seg(uint16_t selector, uint16_t attrib, uint32_t limit,
			   uint64_t base)
{
	return (struct vmsa_seg){.selector = selector,
				 .attrib = attrib,
				 .limit = limit,
				 .base = base};
}

/* A segment through QEMU's segment cache and KVM_SET_SREGS. */
static struct vmsa_seg through_kvm(struct vmsa_seg s)
{
	return seg(s.selector, s.attrib & ATTRIB_BITS, s.limit, s.base);
}

/* A descriptor table register: KVM_SET_SREGS carries base and a 16-bit
 * limit only. */
static struct vmsa_seg dtable(struct vmsa_seg s)
{
	return seg(0, 0, s.limit & 0xFFFFu, s.base);
}

const char *launch_vmsa_accept(struct launch *l, uint64_t gpa, uint32_t vp,
			       const struct snp_vmsa *v)
{
	static struct snp_vmsa rest; /* one launch at a time */
	const struct psp_launch_ops *o = l->ops;
	uint64_t extra = v->sev_features & ~SEV_FEAT_SNP_ACTIVE;
	const uint8_t *b = (const uint8_t *)&rest;
	size_t i;

	/* check_vmsa_supported(): KVM puts every VMSA at this GPA. */
	if (gpa != IGVM_SNP_VMSA_GPA) {
		return launch_refuse(l,
				     "VP_CONTEXT %u: a VMSA at 0x%llx, where "
				     "QEMU takes one only at 0x%llx",
				     vp, (unsigned long long)gpa,
				     (unsigned long long)IGVM_SNP_VMSA_GPA);
	}
	/* check_sev_features() against KVM_X86_SEV_VMSA_FEATURES. */
	if (!(v->sev_features & SEV_FEAT_SNP_ACTIVE) ||
	    (extra & ~o->vmsa_features) != 0) {
		return launch_refuse(l,
				     "VP_CONTEXT %u: SEV features 0x%llx, "
				     "where this host offers SNP and 0x%llx",
				     vp, (unsigned long long)v->sev_features,
				     (unsigned long long)o->vmsa_features);
	}
	/* sev_es_sync_vmsa() refuses a DR7 with a breakpoint. */
	if (v->dr7 != DR7_FIXED_1) {
		return launch_refuse(l, "VP_CONTEXT %u: DR7 0x%llx", vp,
				     (unsigned long long)v->dr7);
	}
	/* check_vmsa_supported(): the fields QEMU loads; every other one
	 * must be zero, or KVM would measure something else. */
	rest = *v;
	rest.es = rest.cs = rest.ss = rest.ds = rest.fs = rest.gs =
		seg(0, 0, 0, 0);
	rest.gdtr = rest.idtr = rest.ldtr = rest.tr = seg(0, 0, 0, 0);
	rest.efer = rest.cr0 = rest.cr3 = rest.cr4 = rest.xcr0 = 0;
	rest.dr6 = rest.dr7 = 0;
	rest.rax = rest.rcx = rest.rdx = rest.rbx = rest.rsp = rest.rbp = 0;
	rest.rsi = rest.rdi = 0;
	rest.r8 = rest.r9 = rest.r10 = rest.r11 = 0;
	rest.r12 = rest.r13 = rest.r14 = rest.r15 = 0;
	rest.rip = rest.rflags = rest.g_pat = rest.sev_features = 0;
	rest.x87_fcw = 0;
	rest.mxcsr = 0;
	for (i = 0; i < sizeof(rest); i++) {
		if (b[i] != 0) {
			return launch_refuse(
				l,
				"VP_CONTEXT %u: VMSA byte 0x%zx is "
				"a field QEMU does not load",
				vp, i);
		}
	}
	return NULL;
}

void launch_vmsa_build(const struct snp_vmsa *img, uint32_t signature,
		       uint64_t sev_features, struct snp_vmsa *out)
{
	memset(out, 0, sizeof(*out));
	if (img == NULL) {
		/* x86_cpu_reset_hold(): real mode at F000:FFF0. */
		out->cs = seg(0xF000, 0x9B, 0xFFFF, 0xFFFF0000);
		out->es = out->ss = out->ds = seg(0, 0x93, 0xFFFF, 0);
		out->fs = out->gs = out->es;
		out->ldtr = seg(0, 0x82, 0xFFFF, 0);
		out->tr = seg(0, 0x8B, 0xFFFF, 0);
		out->gdtr = out->idtr = seg(0, 0, 0xFFFF, 0);
		out->cr0 = 0x60000000ull | CR0_ET;
		out->rflags = 0x2;
		out->rip = 0xFFF0;
		out->rdx = signature;
		out->dr6 = DR6_FIXED_1;
		out->dr7 = DR7_FIXED_1;
		out->xcr0 = 1;
		out->g_pat = PAT_DEFAULT;
		out->x87_fcw = FCW_DEFAULT;
		out->mxcsr = MXCSR_DEFAULT;
	} else {
		/* sev_apply_cpu_context(), field by field. */
		out->es = through_kvm(img->es);
		out->cs = through_kvm(img->cs);
		out->ss = through_kvm(img->ss);
		out->ds = through_kvm(img->ds);
		out->fs = through_kvm(img->fs);
		out->gs = through_kvm(img->gs);
		out->ldtr = through_kvm(img->ldtr);
		/* QEMU (10.x) loads TR's base from the VMSA's LDTR base. */
		out->tr = through_kvm(img->tr);
		out->tr.base = img->ldtr.base;
		out->gdtr = dtable(img->gdtr);
		out->idtr = dtable(img->idtr);
		out->efer = img->efer;
		out->cr0 = img->cr0;
		out->cr3 = img->cr3;
		out->cr4 = img->cr4;
		out->xcr0 = img->xcr0;
		out->g_pat = img->g_pat;
		out->dr6 = img->dr6;
		out->dr7 = img->dr7;
		out->rflags = img->rflags;
		out->rip = img->rip;
		out->rsp = img->rsp;
		out->rax = img->rax;
		out->rcx = img->rcx;
		out->rdx = img->rdx;
		out->rbx = img->rbx;
		out->rbp = img->rbp;
		out->rsi = img->rsi;
		out->rdi = img->rdi;
		out->r8 = img->r8;
		out->r9 = img->r9;
		out->r10 = img->r10;
		out->r11 = img->r11;
		out->r12 = img->r12;
		out->r13 = img->r13;
		out->r14 = img->r14;
		out->r15 = img->r15;
		out->x87_fcw = img->x87_fcw;
		out->mxcsr = img->mxcsr;
	}
	/* KVM's setters: svm_set_efer() sets SVME, svm_set_cr0() clears CD
	 * and NW (KVM_X86_QUIRK_CD_NW_CLEARED, on unless QEMU turns it
	 * off), svm_set_cr4() adds the host's CR4.MCE (set on Linux hosts),
	 * svm_set_segment() takes the CPL from SS.DPL. */
	out->efer |= EFER_SVME;
	out->cr0 &= ~(CR0_CD | CR0_NW);
	out->cr4 |= CR4_MCE;
	out->cpl = (uint8_t)((out->ss.attrib >> 5) & 3u);
	/* sev_es_sync_vmsa(): the VM's features, the same for every vCPU. */
	out->sev_features = sev_features | SEV_FEAT_SNP_ACTIVE;
}
