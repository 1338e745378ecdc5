/* SPDX-License-Identifier: MIT */
/*
 * The SEV-SNP CPUID page (SNP firmware ABI 56860, CPUID page format;
 * Linux struct snp_cpuid_table): up to 64 CPUID results the hypervisor
 * proposes and the PSP checks against the CPU at launch, which the guest
 * then trusts instead of asking the hypervisor.
 */
#ifndef ABI_SNP_CPUID_H
#define ABI_SNP_CPUID_H

#include <stdint.h>

#define SNP_CPUID_MAX 64u

struct snp_cpuid_fn {
	uint32_t eax_in, ecx_in;
	uint64_t xcr0_in, xss_in;
	uint32_t eax, ebx, ecx, edx;
	uint64_t reserved;
} __attribute__((packed));
_Static_assert(sizeof(struct snp_cpuid_fn) == 48, "Linux snp_cpuid_fn");

struct snp_cpuid_table {
	uint32_t count;
	uint32_t rsvd1;
	uint64_t rsvd2;
	struct snp_cpuid_fn fn[SNP_CPUID_MAX];
} __attribute__((packed));
_Static_assert(sizeof(struct snp_cpuid_table) == 16 + 64 * 48,
	       "Linux snp_cpuid_table: 3088 bytes");

#endif /* ABI_SNP_CPUID_H */
