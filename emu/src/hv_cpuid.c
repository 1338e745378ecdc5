/* SPDX-License-Identifier: MIT */
#include "hv_cpuid.h"

#include "cpuid.h"

/* The leaves a guest's CPUID page carries (Linux reads them early). */
static const uint32_t cpuid_leaves[][2] = {
	{0x0, 0},	  {0x1, 0},	    {0x7, 0},
	{0xD, 0},	  {0xD, 1},	    {0x80000000u, 0},
	{0x80000001u, 0}, {0x80000008u, 0}, {0x8000001Fu, 0},
};
#define LEAF7_EBX_SHA (1u << 29) /* SHA-NI: the machine's CPU has none */

void hv_cpuid_fill(struct snp_cpuid_table *t, bool lie)
{
	unsigned i, n = sizeof(cpuid_leaves) / sizeof(cpuid_leaves[0]);

	for (i = 0; i < n; i++) {
		struct hw_cpuid r =
			hw_cpuid(cpuid_leaves[i][0], cpuid_leaves[i][1]);
		struct snp_cpuid_fn *fn = &t->fn[i];

		fn->eax_in = cpuid_leaves[i][0];
		fn->ecx_in = cpuid_leaves[i][1];
		fn->xcr0_in = fn->eax_in == 0xD ? 1 : 0;
		fn->eax = r.eax;
		fn->ebx = r.ebx;
		fn->ecx = r.ecx;
		fn->edx = r.edx;
		if (lie && fn->eax_in == 0x7) {
			fn->ebx |= LEAF7_EBX_SHA;
		}
	}
	t->count = n;
}

void hv_cpuid(uint32_t leaf, uint32_t subleaf, uint64_t xcr0, uint32_t out[4])
{
	struct hw_cpuid r = hw_cpuid(leaf, subleaf);

	/* Leaf 0xD's sizes are for the XCR0 the registers hold, which is
	 * the guest's while its exit is served (world.c switches XCR0 with
	 * the VMPL). */
	(void)xcr0;
	out[0] = r.eax;
	out[1] = r.ebx;
	out[2] = r.ecx;
	out[3] = r.edx;
}
