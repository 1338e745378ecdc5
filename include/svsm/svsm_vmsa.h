/* SPDX-License-Identifier: MIT */
/*
 * The initial state of the SVSM's own CPUs on snp: VMPL0, 64-bit mode
 * on the page tables at @cr3 (flat segments, NX and write protection on,
 * interrupts off), at the image's entry, with SNPActive and Restricted
 * Injection. The entry code tells the boot CPU from the others by RDI
 * (0: the boot CPU, RSI its boot parameters; else the CPU's own block). One
 * definition for the boot CPU's VMSA in the IGVM image (tools/igvm) and the APs
 * the SVSM starts itself (src/plat/snp/snp_aps.c), so both start the same way.
 */
#ifndef SVSM_SVSM_VMSA_H
#define SVSM_SVSM_VMSA_H

#include <stdint.h>

#include "abi/snp.h"

/* Restricted Injection: the hypervisor signals the SVSM only through #HV
 * (src/plat/snp/snp_hv.h). */
#define SVSM_VMSA_SEV_FEATURES                                                 \
	(SEV_FEAT_SNP_ACTIVE | SEV_FEAT_RESTRICTED_INJECTION)

/* The GDT selectors the entry code finds loaded (src/arch/x86/trap.h). */
#define SVSM_VMSA_SEL_CODE64 0x18u
#define SVSM_VMSA_SEL_DATA 0x10u

struct svsm_vmsa_regs {
	uint64_t rip, cr3, rsp, rdi, rsi;
};

void svsm_vmsa_init(struct snp_vmsa *v, const struct svsm_vmsa_regs *r);

/**
 * The 64-bit-mode part of a VMSA, for the SVSM's CPUs and for a guest
 * kernel started without firmware (src/core/init.c): flat code (@code_sel,
 * L set) and data (@data_sel) segments in CS, DS, ES, SS, FS and GS, a
 * 64-bit busy TSS, CR0 PE|MP|ET|NE|WP|PG, CR4 PAE|@cr4_extra, EFER
 * SVME|LME|LMA|NXE, CR3 @cr3. Every other field is the caller's.
 */
void vmsa_set_long_mode(struct snp_vmsa *v, uint16_t code_sel,
			uint16_t data_sel, uint64_t cr3, uint64_t cr4_extra);

#endif /* SVSM_SVSM_VMSA_H */
