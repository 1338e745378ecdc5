/* SPDX-License-Identifier: MIT */
/* The four registers a CPUID leaf returns: what the CPUID instruction
 * gives on emu and what the SNP CPUID page holds on snp. */
#ifndef SVSM_CPUID_REGS_H
#define SVSM_CPUID_REGS_H

#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

#endif /* SVSM_CPUID_REGS_H */
