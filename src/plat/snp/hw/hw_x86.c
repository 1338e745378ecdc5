/* SPDX-License-Identifier: MIT */
/*
 * snp_hw.h on SEV-SNP hardware: the GHCB MSR, VMGEXIT, SEV_STATUS, one
 * instruction each (src/arch/x86/arch.h). The mappings are hw/paging.c's,
 * the per-CPU state hw/fw_main.c's.
 */
#include "../snp_hw.h"
#include "arch.h"

#define MSR_GHCB 0xC0010130u

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
	return rdmsr(MSR_SEV_STATUS);
}

void snp_hw_halt(void)
{
	halt_forever();
}
