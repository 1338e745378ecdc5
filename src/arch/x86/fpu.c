/* SPDX-License-Identifier: MIT */
/*
 * The SVSM itself is compiled with -mgeneral-regs-only; the FPU is
 * enabled for the linked libraries (libcrypto, libtpms), which run inside
 * plat_simd_begin/end brackets.
 */
#include "arch.h"
#include "trap.h"

uint64_t x86_enable_fpu(void)
{
	struct cpuid_regs l1 = cpuid(1, 0);
	uint64_t xcr0 = XCR0_X87 | XCR0_SSE;
	uint64_t cr4 = read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT;

	write_cr0((read_cr0() & ~CR0_EM) | CR0_MP | CR0_NE);
	if ((l1.ecx & (1u << 26)) == 0) { /* no XSAVE */
		write_cr4(cr4);
		return xcr0;
	}
	write_cr4(cr4 | CR4_OSXSAVE);
	if ((l1.ecx & (1u << 28)) != 0 && (cpuid(0xD, 0).eax & XCR0_AVX) != 0) {
		xcr0 |= XCR0_AVX;
	}
	xsetbv(0, xcr0);
	return xcr0;
}
