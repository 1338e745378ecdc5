/* SPDX-License-Identifier: MIT */
/*
 * SEV-SNP architectural layouts the SVSM uses: the secrets page, the VMSA
 * (SEV-ES save area), SEV_FEATURES, PVALIDATE/RMPADJUST operands and return
 * codes, and the GHCB MSR-protocol requests of a call.
 * Sources: AMD 58019 Table 1 (secrets page), AMD APM vol. 2 (VMSA,
 * Table B-4), AMD APM vol. 3 (PVALIDATE, RMPADJUST), AMD 56421 (GHCB),
 * cross-checked with Linux asm/svm.h, asm/sev.h and COCONUT cpuarch.
 */
#ifndef ABI_SNP_H
#define ABI_SNP_H

#include <stddef.h>
#include <stdint.h>

#define SNP_PAGE_SIZE 0x1000ull
#define SNP_PAGE_SIZE_2M 0x200000ull
#define SNP_PAGES_PER_2M 512u

/* RMP page sizes, PVALIDATE/RMPADJUST RCX (APM vol. 3). */
#define RMP_PG_SIZE_4K 0u
#define RMP_PG_SIZE_2M 1u

/*
 * PVALIDATE / RMPADJUST EAX results (APM vol. 3), and the RMP operations
 * of the models. A type of its own, apart from the guest's result codes
 * (enum svsm_result): core_rmp_result() is the one mapping. Hardware may
 * return other values; the enum holds any 32-bit EAX.
 */
enum snp_ret {
	SNP_RET_SUCCESS = 0,
	SNP_RET_FAIL_INPUT = 1,
	SNP_RET_FAIL_PERMISSION = 2,
	SNP_RET_FAIL_INUSE = 3,
	/* RMPUPDATE: a 4 KiB update inside a 2 MiB entry (or the reverse);
	 * Linux arch/x86/include/asm/sev.h RMPUPDATE_FAIL_OVERLAP. Never a
	 * PVALIDATE/RMPADJUST result. */
	SNP_RET_FAIL_OVERLAP = 4,
	SNP_RET_FAIL_SIZEMISMATCH = 6,
	SNP_RET_EAX_MAX = 0xFFFFFFFFu,
};

/* RMPADJUST RDX attributes (APM vol. 3). */
#define RMPADJUST_VMPL_MASK 0xFFull   /* [7:0] target VMPL */
#define RMPADJUST_READ 0x100ull	      /* [8] */
#define RMPADJUST_WRITE 0x200ull      /* [9] */
#define RMPADJUST_EXEC_USER 0x400ull  /* [10] */
#define RMPADJUST_EXEC_SUPER 0x800ull /* [11] */
#define RMPADJUST_PERM_MASK 0xF00ull
#define RMPADJUST_RWX 0xF00ull
#define RMPADJUST_VMSA 0x10000ull /* [16] */
#define RMPADJUST_PERM_SHIFT 8u

#define SNP_VMPL_COUNT 4u

/* Secrets page (58019 Table 1; Linux struct snp_secrets_page). */
struct snp_secrets_page {
	uint32_t version;	       /* 0x000 */
	uint32_t imien;		       /* 0x004: bit 0 IMIEN */
	uint32_t fms;		       /* 0x008 */
	uint32_t reserved0;	       /* 0x00C */
	uint8_t gosvw[16];	       /* 0x010 */
	uint8_t vmpck[4][32];	       /* 0x020: VMPCK0..3 */
	uint8_t guest_os_area[96];     /* 0x0A0 */
	uint8_t vmsa_tweak_bitmap[64]; /* 0x100 */
	uint64_t svsm_base;	       /* 0x140 */
	uint64_t svsm_size;	       /* 0x148: 0 means no SVSM */
	uint64_t svsm_caa;	       /* 0x150 */
	uint32_t svsm_max_version;     /* 0x158 */
	uint8_t svsm_guest_vmpl;       /* 0x15C */
	uint8_t reserved1[3];	       /* 0x15D */
	uint32_t tsc_factor;	       /* 0x160 */
	uint8_t reserved2[3740];       /* 0x164 */
};

_Static_assert(sizeof(struct snp_secrets_page) == 4096,
	       "58019 Table 1: the secrets page is 4 KiB");
_Static_assert(offsetof(struct snp_secrets_page, vmpck) == 0x020,
	       "58019 Table 1: VMPCK0 at 0x020");
_Static_assert(offsetof(struct snp_secrets_page, guest_os_area) == 0x0A0,
	       "58019 Table 1: guest OS area at 0x0A0");
_Static_assert(offsetof(struct snp_secrets_page, svsm_base) == 0x140,
	       "58019 Table 1: SVSM_BASE at 0x140");
_Static_assert(offsetof(struct snp_secrets_page, svsm_size) == 0x148,
	       "58019 Table 1: SVSM_SIZE at 0x148");
_Static_assert(offsetof(struct snp_secrets_page, svsm_caa) == 0x150,
	       "58019 Table 1: SVSM_CAA at 0x150");
_Static_assert(offsetof(struct snp_secrets_page, svsm_max_version) == 0x158,
	       "58019 Table 1: SVSM_MAX_VERSION at 0x158");
_Static_assert(offsetof(struct snp_secrets_page, svsm_guest_vmpl) == 0x15C,
	       "58019 Table 1: SVSM_GUEST_VMPL at 0x15C");
_Static_assert(offsetof(struct snp_secrets_page, tsc_factor) == 0x160,
	       "58019 Table 1: TSC_FACTOR at 0x160");

/* A VMSA segment register: selector, attributes, limit, base. */
struct vmsa_seg {
	uint16_t selector;
	uint16_t attrib;
	uint32_t limit;
	uint64_t base;
};

_Static_assert(sizeof(struct vmsa_seg) == 16, "APM Table B-4: 16-byte segment");

/*
 * The VMSA, one 4 KiB page (APM vol. 2 Table B-4, SEV-ES save area; Linux
 * struct sev_es_save_area, EXPECTED_SEV_ES_SAVE_AREA_SIZE = 0x670).
 */
struct snp_vmsa {
	struct vmsa_seg es, cs, ss, ds, fs, gs;		  /* 0x000 */
	struct vmsa_seg gdtr, ldtr, idtr, tr;		  /* 0x060 */
	uint64_t pl0_ssp, pl1_ssp, pl2_ssp, pl3_ssp;	  /* 0x0A0 */
	uint64_t u_cet;					  /* 0x0C0 */
	uint8_t reserved_0c8[2];			  /* 0x0C8 */
	uint8_t vmpl;					  /* 0x0CA */
	uint8_t cpl;					  /* 0x0CB */
	uint8_t reserved_0cc[4];			  /* 0x0CC */
	uint64_t efer;					  /* 0x0D0 */
	uint8_t reserved_0d8[104];			  /* 0x0D8 */
	uint64_t xss;					  /* 0x140 */
	uint64_t cr4;					  /* 0x148 */
	uint64_t cr3;					  /* 0x150 */
	uint64_t cr0;					  /* 0x158 */
	uint64_t dr7;					  /* 0x160 */
	uint64_t dr6;					  /* 0x168 */
	uint64_t rflags;				  /* 0x170 */
	uint64_t rip;					  /* 0x178 */
	uint64_t dr0, dr1, dr2, dr3;			  /* 0x180 */
	uint64_t dr0_mask, dr1_mask, dr2_mask, dr3_mask;  /* 0x1A0 */
	uint8_t reserved_1c0[24];			  /* 0x1C0 */
	uint64_t rsp;					  /* 0x1D8 */
	uint64_t s_cet;					  /* 0x1E0 */
	uint64_t ssp;					  /* 0x1E8 */
	uint64_t isst_addr;				  /* 0x1F0 */
	uint64_t rax;					  /* 0x1F8 */
	uint64_t star, lstar, cstar, sfmask;		  /* 0x200 */
	uint64_t kernel_gs_base;			  /* 0x220 */
	uint64_t sysenter_cs, sysenter_esp, sysenter_eip; /* 0x228 */
	uint64_t cr2;					  /* 0x240 */
	uint8_t reserved_248[32];			  /* 0x248 */
	uint64_t g_pat;					  /* 0x268 */
	uint64_t dbgctl;				  /* 0x270 */
	uint64_t br_from, br_to;			  /* 0x278 */
	uint64_t last_excp_from, last_excp_to;		  /* 0x288 */
	uint8_t reserved_298[80];			  /* 0x298 */
	uint32_t pkru;					  /* 0x2E8 */
	uint32_t tsc_aux;				  /* 0x2EC */
	uint64_t tsc_scale;				  /* 0x2F0 */
	uint64_t tsc_offset;				  /* 0x2F8 */
	uint64_t reg_prot_nonce;			  /* 0x300 */
	uint64_t rcx, rdx, rbx;				  /* 0x308 */
	uint64_t reserved_320;				  /* 0x320 */
	uint64_t rbp, rsi, rdi;				  /* 0x328 */
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;	  /* 0x340 */
	uint8_t reserved_380[16];			  /* 0x380 */
	uint64_t guest_exit_info_1;			  /* 0x390 */
	uint64_t guest_exit_info_2;			  /* 0x398 */
	uint64_t guest_exit_int_info;			  /* 0x3A0 */
	uint64_t guest_nrip;				  /* 0x3A8 */
	uint64_t sev_features;				  /* 0x3B0 */
	uint64_t vintr_ctrl;				  /* 0x3B8 */
	uint64_t guest_exit_code;			  /* 0x3C0 */
	uint64_t virtual_tom;				  /* 0x3C8 */
	uint64_t tlb_id;				  /* 0x3D0 */
	uint64_t pcpu_id;				  /* 0x3D8 */
	uint64_t event_inj;				  /* 0x3E0 */
	uint64_t xcr0;					  /* 0x3E8 */
	uint8_t reserved_3f0[16];			  /* 0x3F0 */
	uint64_t x87_dp;				  /* 0x400 */
	uint32_t mxcsr;					  /* 0x408 */
	uint16_t x87_ftw, x87_fsw, x87_fcw, x87_fop;	  /* 0x40C */
	uint16_t x87_ds, x87_cs;			  /* 0x414 */
	uint64_t x87_rip;				  /* 0x418 */
	uint8_t fpreg_x87[80];				  /* 0x420 */
	uint8_t fpreg_xmm[256];				  /* 0x470 */
	uint8_t fpreg_ymm[256];				  /* 0x570 */
	uint8_t reserved_670[0x1000 - 0x670];		  /* 0x670 */
};

_Static_assert(sizeof(struct snp_vmsa) == 4096, "APM Table B-4: 4 KiB VMSA");
_Static_assert(offsetof(struct snp_vmsa, vmpl) == 0x0CA,
	       "APM Table B-4: VMPL at 0x0CA");
_Static_assert(offsetof(struct snp_vmsa, cpl) == 0x0CB,
	       "APM Table B-4: CPL at 0x0CB");
_Static_assert(offsetof(struct snp_vmsa, efer) == 0x0D0,
	       "APM Table B-4: EFER at 0x0D0");
_Static_assert(offsetof(struct snp_vmsa, xss) == 0x140,
	       "APM Table B-4: XSS at 0x140");
_Static_assert(offsetof(struct snp_vmsa, cr3) == 0x150,
	       "APM Table B-4: CR3 at 0x150");
_Static_assert(offsetof(struct snp_vmsa, rip) == 0x178,
	       "APM Table B-4: RIP at 0x178");
_Static_assert(offsetof(struct snp_vmsa, rsp) == 0x1D8,
	       "APM Table B-4: RSP at 0x1D8");
_Static_assert(offsetof(struct snp_vmsa, rax) == 0x1F8,
	       "APM Table B-4 / 58019 5: RAX at 0x1F8");
_Static_assert(offsetof(struct snp_vmsa, cr2) == 0x240,
	       "APM Table B-4: CR2 at 0x240");
_Static_assert(offsetof(struct snp_vmsa, g_pat) == 0x268,
	       "APM Table B-4: G_PAT at 0x268");
_Static_assert(offsetof(struct snp_vmsa, pkru) == 0x2E8,
	       "APM Table B-4: PKRU at 0x2E8");
_Static_assert(offsetof(struct snp_vmsa, rcx) == 0x308,
	       "APM Table B-4 / 58019 5: RCX at 0x308");
_Static_assert(offsetof(struct snp_vmsa, rdx) == 0x310,
	       "APM Table B-4 / 58019 5: RDX at 0x310");
_Static_assert(offsetof(struct snp_vmsa, r8) == 0x340,
	       "APM Table B-4 / 58019 5: R8 at 0x340");
_Static_assert(offsetof(struct snp_vmsa, r9) == 0x348,
	       "APM Table B-4 / 58019 5: R9 at 0x348");
_Static_assert(offsetof(struct snp_vmsa, guest_exit_info_1) == 0x390,
	       "APM Table B-4: guest exit info 1 at 0x390");
_Static_assert(offsetof(struct snp_vmsa, sev_features) == 0x3B0,
	       "APM Table B-4: SEV_FEATURES at 0x3B0");
_Static_assert(offsetof(struct snp_vmsa, guest_exit_code) == 0x3C0,
	       "APM Table B-4: guest exit code at 0x3C0");
_Static_assert(offsetof(struct snp_vmsa, virtual_tom) == 0x3C8,
	       "APM Table B-4: VIRTUAL_TOM at 0x3C8");
_Static_assert(offsetof(struct snp_vmsa, xcr0) == 0x3E8,
	       "APM Table B-4: XCR0 at 0x3E8");
_Static_assert(offsetof(struct snp_vmsa, mxcsr) == 0x408,
	       "APM Table B-4: MXCSR at 0x408");
_Static_assert(offsetof(struct snp_vmsa, x87_ftw) == 0x40C,
	       "APM Table B-4: x87 FTW at 0x40C");
_Static_assert(offsetof(struct snp_vmsa, x87_fcw) == 0x410,
	       "APM Table B-4: x87 FCW at 0x410");
_Static_assert(offsetof(struct snp_vmsa, fpreg_x87) == 0x420,
	       "APM Table B-4: x87 registers at 0x420");
_Static_assert(offsetof(struct snp_vmsa, fpreg_ymm) == 0x570,
	       "APM Table B-4: YMM high halves at 0x570");
_Static_assert(offsetof(struct snp_vmsa, reserved_670) == 0x670,
	       "Linux EXPECTED_SEV_ES_SAVE_AREA_SIZE = 0x670");

#define EFER_SVME (1ull << 12)

/* The VMGEXIT exit code seen in a VMSA that called (APM, 58019 section 5). */
#define SVM_EXIT_VMGEXIT 0x403ull

/*
 * SEV_FEATURES (VMSA 0x3B0) bits = SEV_STATUS MSR bits >> 2
 * (APM vol. 2, Linux SVM_SEV_FEAT_*).
 */
#define SEV_FEAT_SNP_ACTIVE (1ull << 0)
#define SEV_FEAT_VTOM (1ull << 1)
#define SEV_FEAT_REFLECT_VC (1ull << 2)
#define SEV_FEAT_RESTRICTED_INJECTION (1ull << 3)
#define SEV_FEAT_ALTERNATE_INJECTION (1ull << 4)
#define SEV_FEAT_DEBUG_SWAP (1ull << 5)
#define SEV_FEAT_PREVENT_HOST_IBS (1ull << 6)
#define SEV_FEAT_BTB_ISOLATION (1ull << 7)
#define SEV_FEAT_VMPL_SSS (1ull << 8)
#define SEV_FEAT_SECURE_TSC (1ull << 9)
#define SEV_FEAT_VMGEXIT_PARAMETER (1ull << 10)
#define SEV_FEAT_IBS_VIRTUALIZATION (1ull << 12)
#define SEV_FEAT_VMSA_REG_PROT (1ull << 14)
#define SEV_FEAT_SMT_PROTECTION (1ull << 15)
#define SEV_FEAT_SECURE_AVIC (1ull << 16)
#define SEV_FEAT_IBPB_ON_ENTRY (1ull << 21)

/* GHCB MSR protocol (AMD 56421 section 2.3.1; 58019 section 5). */
#define GHCB_MSR 0xC0010130u
#define GHCB_MSR_INFO_MASK 0xFFFull
#define GHCB_MSR_RUN_VMPL_REQ 0x016ull
#define GHCB_MSR_RUN_VMPL_RESP 0x017ull
#define GHCB_MSR_RUN_VMPL_SHIFT 32u /* [39:32] target VMPL */

#endif /* ABI_SNP_H */
