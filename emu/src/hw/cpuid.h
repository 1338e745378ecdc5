/* SPDX-License-Identifier: MIT */
/*
 * The CPUID this machine's CPUs report to their guests: QEMU's CPU model,
 * as an AMD EPYC with SEV-SNP reports it. SVM is hidden (a guest cannot
 * run VMs), leaf 0x8000001F names SEV, SEV-ES, SEV-SNP and VMPLs with
 * the C-bit at MACHINE_C_BIT and four VMPLs, and INVLPGB is present (the
 * machine emulates it, as every SNP CPU has it). The PSP checks a launch's
 * CPUID page against this; the hypervisor's answers come from it, as KVM
 * reports them (hv_cpuid.c: without INVLPGB, which KVM never reports and
 * which Linux would need PCID for, which QEMU's TCG lacks).
 */
#ifndef MACHINE_CPUID_H
#define MACHINE_CPUID_H

#include <stdint.h>

struct hw_cpuid {
	uint32_t eax, ebx, ecx, edx;
};

struct hw_cpuid hw_cpuid(uint32_t leaf, uint32_t subleaf);

#endif /* MACHINE_CPUID_H */
