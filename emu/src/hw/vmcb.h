/* SPDX-License-Identifier: MIT */
/*
 * The SVM VMCB (AMD APM vol. 2, appendix B): control area at 0x000, state
 * save area at 0x400. The save area's layout is the first 0x298 bytes of
 * an SEV-ES VMSA, which is why the machine can keep a vCPU's architectural
 * state in a struct snp_vmsa and move it into and out of a VMCB.
 */
#ifndef MACHINE_VMCB_H
#define MACHINE_VMCB_H

#include <stddef.h>
#include <stdint.h>

#include "abi/ghcb.h"
#include "abi/snp.h"

/* Intercept vector at 0x0C. */
#define VMCB_I1_INTR (1u << 0)
#define VMCB_I1_VINTR (1u << 4)
#define VMCB_I1_NMI (1u << 1)
#define VMCB_I1_SMI (1u << 2)
#define VMCB_I1_INIT (1u << 3)
#define VMCB_I1_CPUID (1u << 18)
#define VMCB_I1_HLT (1u << 24)
#define VMCB_I1_INVLPGA (1u << 26)
#define VMCB_I1_IOIO (1u << 27)
#define VMCB_I1_MSR (1u << 28)
#define VMCB_I1_SHUTDOWN (1u << 31)
/* Intercept vector at 0x10. */
#define VMCB_I2_VMRUN (1u << 0)
#define VMCB_I2_VMMCALL (1u << 1)
#define VMCB_I2_VMLOAD (1u << 2)
#define VMCB_I2_VMSAVE (1u << 3)
#define VMCB_I2_STGI (1u << 4)
#define VMCB_I2_CLGI (1u << 5)
#define VMCB_I2_SKINIT (1u << 6)
#define VMCB_I2_XSETBV (1u << 13)

#define VMCB_INT_CTL_V_TPR_MASK 0xFull
#define VMCB_INT_CTL_V_IRQ (1ull << 8)
#define VMCB_INT_CTL_V_INTR_PRIO(p) ((uint64_t)(p) << 16)
#define VMCB_INT_CTL_V_IGN_TPR (1ull << 20)
#define VMCB_INT_CTL_V_INTR_MASKING (1ull << 24)
#define VMCB_INT_STATE_SHADOW 1ull
#define VMCB_NP_ENABLE 1ull
#define VMCB_TLB_FLUSH_ALL 1u

/* EVENTINJ / EXITINTINFO. */
#define EVENT_TYPE_INTR (0u << 8)
#define EVENT_TYPE_EXCEPTION (3u << 8)
#define EVENT_TYPE_SOFT (4u << 8) /* INT n, and QEMU's INT3/INTO */
#define EVENT_TYPE_MASK (7u << 8)
#define EVENT_EV (1u << 11)
#define EVENT_VALID (1u << 31)

/* Exit codes (CPUID, IOIO and MSR, which #VC reports too, are in
 * abi/ghcb.h). */
#define SVM_EXIT_EXCP_BASE 0x040u
#define SVM_EXIT_UD (SVM_EXIT_EXCP_BASE + 6)
#define SVM_EXIT_INTR 0x060u
#define SVM_EXIT_NMI 0x061u
#define SVM_EXIT_VINTR 0x064u
#define SVM_EXIT_HLT 0x078u
#define SVM_EXIT_WRITE_CR8 0x018u
#define VMCB_CR_WRITE(n) (1u << (16u + (n)))
#define SVM_EXIT_SHUTDOWN 0x07Fu
#define SVM_EXIT_VMRUN 0x080u
#define SVM_EXIT_VMMCALL 0x081u
#define SVM_EXIT_VMLOAD 0x082u
#define SVM_EXIT_SKINIT 0x086u
#define SVM_EXIT_XSETBV 0x08Du
#define SVM_EXIT_NPF 0x400u
#define SVM_EXIT_INVALID 0xFFFFFFFFu /* QEMU stores it as a 32-bit value */

/*
 * The names the machine prints for exit codes (instrument.c, for the
 * bench lines and the post-mortem), as Linux's SVM_EXIT_REASONS:
 * X(code, "name"). Scripts read these names from the bench lines
 * (scripts/bench-*.sh), so a name, once printed, stays. A code not here
 * is an exception (SVM_EXIT_EXCP_BASE + vector) or "other".
 */
#define SVM_EXIT_NAMES(X)                                                      \
	X(SVM_EXIT_INTR, "INTR")                                               \
	X(SVM_EXIT_VINTR, "VINTR")                                             \
	X(SVM_EXIT_CPUID, "CPUID")                                             \
	X(SVM_EXIT_HLT, "HLT")                                                 \
	X(SVM_EXIT_IOIO, "IOIO")                                               \
	X(SVM_EXIT_MSR, "MSR")                                                 \
	X(SVM_EXIT_VMMCALL, "VMMCALL")                                         \
	X(SVM_EXIT_NPF, "NPF")

/* #NPF EXITINFO1 bits. */
#define NPF_PRESENT (1ull << 0)
#define NPF_WRITE (1ull << 1)
#define NPF_FETCH (1ull << 4)
#define NPF_FINAL_GPA (1ull << 32)
#define NPF_PT_WALK (1ull << 33)

struct vmcb_control {
	uint32_t intercept_cr;	      /* 0x000 */
	uint32_t intercept_dr;	      /* 0x004 */
	uint32_t intercept_exc;	      /* 0x008 */
	uint32_t intercept1;	      /* 0x00C */
	uint32_t intercept2;	      /* 0x010 */
	uint32_t intercept3;	      /* 0x014 */
	uint8_t reserved_018[0x24];   /* 0x018 */
	uint16_t pause_filter_thresh; /* 0x03C */
	uint16_t pause_filter_count;  /* 0x03E */
	uint64_t iopm_pa;	      /* 0x040 */
	uint64_t msrpm_pa;	      /* 0x048 */
	uint64_t tsc_offset;	      /* 0x050 */
	uint32_t asid;		      /* 0x058 */
	uint8_t tlb_control;	      /* 0x05C */
	uint8_t reserved_05d[3];      /* 0x05D */
	uint64_t int_ctl;	      /* 0x060 */
	uint64_t int_state;	      /* 0x068 */
	uint64_t exit_code;	      /* 0x070 */
	uint64_t exit_info_1;	      /* 0x078 */
	uint64_t exit_info_2;	      /* 0x080 */
	uint64_t exit_int_info;	      /* 0x088 */
	uint64_t np_ctl;	      /* 0x090 */
	uint64_t avic_bar;	      /* 0x098 */
	uint64_t ghcb_pa;	      /* 0x0A0 */
	uint64_t event_inj;	      /* 0x0A8 */
	uint64_t n_cr3;		      /* 0x0B0 */
	uint64_t lbr_virt;	      /* 0x0B8 */
	uint32_t clean;		      /* 0x0C0 */
	uint32_t reserved_0c4;	      /* 0x0C4 */
	uint64_t next_rip;	      /* 0x0C8 */
	uint8_t insn_len;	      /* 0x0D0 */
	uint8_t insn_bytes[15];	      /* 0x0D1 */
	uint8_t reserved_0e0[0x320];  /* 0x0E0 */
};

_Static_assert(sizeof(struct vmcb_control) == 0x400, "APM Table B-1");
_Static_assert(offsetof(struct vmcb_control, exit_code) == 0x70,
	       "APM Table B-1");
_Static_assert(offsetof(struct vmcb_control, n_cr3) == 0xB0, "APM Table B-1");

/* The state save area (APM Table B-2), offsets relative to 0x400. */
struct vmcb_save {
	struct vmsa_seg es, cs, ss, ds, fs, gs;		       /* 0x000 */
	struct vmsa_seg gdtr, ldtr, idtr, tr;		       /* 0x060 */
	uint8_t reserved_0a0[0x2B];			       /* 0x0A0 */
	uint8_t cpl;					       /* 0x0CB */
	uint32_t reserved_0cc;				       /* 0x0CC */
	uint64_t efer;					       /* 0x0D0 */
	uint8_t reserved_0d8[0x70];			       /* 0x0D8 */
	uint64_t cr4, cr3, cr0, dr7, dr6, rflags, rip;	       /* 0x148 */
	uint8_t reserved_180[0x58];			       /* 0x180 */
	uint64_t rsp;					       /* 0x1D8 */
	uint64_t s_cet, ssp, isst_addr;			       /* 0x1E0 */
	uint64_t rax;					       /* 0x1F8 */
	uint64_t star, lstar, cstar, sfmask;		       /* 0x200 */
	uint64_t kernel_gs_base;			       /* 0x220 */
	uint64_t sysenter_cs, sysenter_esp, sysenter_eip;      /* 0x228 */
	uint64_t cr2;					       /* 0x240 */
	uint8_t reserved_248[0x20];			       /* 0x248 */
	uint64_t g_pat;					       /* 0x268 */
	uint64_t dbgctl;				       /* 0x270 */
	uint64_t br_from, br_to, last_excp_from, last_excp_to; /* 0x278 */
};

#define VMCB_SAVE_SAME_AS_VMSA(f)                                              \
	_Static_assert(offsetof(struct vmcb_save, f) ==                        \
			       offsetof(struct snp_vmsa, f),                   \
		       "VMCB save area and VMSA disagree on " #f)
VMCB_SAVE_SAME_AS_VMSA(cpl);
VMCB_SAVE_SAME_AS_VMSA(efer);
VMCB_SAVE_SAME_AS_VMSA(cr4);
VMCB_SAVE_SAME_AS_VMSA(rip);
VMCB_SAVE_SAME_AS_VMSA(rsp);
VMCB_SAVE_SAME_AS_VMSA(rax);
VMCB_SAVE_SAME_AS_VMSA(cr2);
VMCB_SAVE_SAME_AS_VMSA(g_pat);
VMCB_SAVE_SAME_AS_VMSA(last_excp_to);

struct vmcb {
	struct vmcb_control control;
	struct vmcb_save save;
	uint8_t reserved[0x1000 - 0x400 - sizeof(struct vmcb_save)];
};

_Static_assert(sizeof(struct vmcb) == 4096, "one page");

/* The GPRs VMRUN does not switch (svm_run.S relies on this order). */
struct svm_gprs {
	uint64_t rbx, rcx, rdx, rbp, rsi, rdi;
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
};

void svm_run(uint64_t vmcb_pa, struct svm_gprs *gprs, uint64_t host_save_pa);

#endif /* MACHINE_VMCB_H */
