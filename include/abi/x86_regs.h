/* SPDX-License-Identifier: MIT */
/*
 * x86-64 control-register and EFER bits (AMD APM vol. 2, 3.1): what the
 * SVSM writes into VMSAs (svsm_vmsa.c, init.c) and the firmware platforms
 * into their own registers (src/arch/x86/arch.h).
 */
#ifndef ABI_X86_REGS_H
#define ABI_X86_REGS_H

#define EFER_SCE (1ull << 0)
#define EFER_LME (1ull << 8)
#define EFER_LMA (1ull << 10)
#define EFER_NXE (1ull << 11)

#define CR0_PE (1ull << 0)
#define CR0_MP (1ull << 1)
#define CR0_EM (1ull << 2)
#define CR0_ET (1ull << 4)
#define CR0_NE (1ull << 5)
#define CR0_WP (1ull << 16)
#define CR0_PG (1ull << 31)
#define CR4_PAE (1ull << 5)
#define CR4_OSFXSR (1ull << 9)
#define CR4_OSXMMEXCPT (1ull << 10)
#define CR4_LA57 (1ull << 12)
#define CR4_OSXSAVE (1ull << 18)

#endif /* ABI_X86_REGS_H */
