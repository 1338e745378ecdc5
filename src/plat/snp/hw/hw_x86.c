/* SPDX-License-Identifier: MIT */
/*
 * snp_hw.h on SEV-SNP hardware: the GHCB MSR, VMGEXIT, SEV_STATUS, one
 * instruction each. The mappings are hw/paging.c's, the per-CPU state
 * hw/fw_main.c's.
 */
#include "../snp_hw.h"

#define MSR_AMD64_SEV 0xC0010131u
#define MSR_GHCB 0xC0010130u

static uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr"
			 :
			 : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32))
			 : "memory");
}

uint64_t snp_hw_read_ghcb_msr(void)
{
	return rdmsr(MSR_GHCB);
}

void snp_hw_write_ghcb_msr(uint64_t val)
{
	wrmsr(MSR_GHCB, val);
}

void snp_hw_vmgexit(void)
{
	__asm__ volatile("rep; vmmcall" ::: "memory");
}

uint64_t snp_hw_sev_status(void)
{
	return rdmsr(MSR_AMD64_SEV);
}

void snp_hw_halt(void)
{
	for (;;) {
		__asm__ volatile("cli; hlt");
	}
}
