/* SPDX-License-Identifier: MIT */
/*
 * snp_hw.h on SEV-SNP hardware: the GHCB MSR, VMGEXIT, SEV_STATUS, one
 * instruction each (src/arch/x86/arch.h); PVALIDATE, RMPADJUST and the
 * guest accesses through the fault-tolerant routines of hw/insn.S. Memory
 * is identity-mapped (hw/paging.c), so a GPA is also the VA the
 * instructions take: a guest page that is not validated raises #VC,
 * which the trap handler turns into a failed access, never an SVSM
 * crash. The per-CPU state is hw_cpu.c's (fw_cpu.h).
 *
 * Threat: a guest page the guest made shared is hypervisor-owned; a
 * private (C-bit) access to it is an RMP fault the hypervisor sees as
 * #NPF. What KVM does then (convert the page, or stop the VM) is its
 * choice and cannot expose SVSM data: the access reads or writes only
 * that guest page.
 */
#include "../snp_hw.h"
#include "arch.h"
#include "fw_cpu.h"

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

enum snp_ret snp_hw_pvalidate(gpa_t gpa, bool size_2m, bool validate,
			      bool *unchanged)
{
	return snp_insn_pvalidate(gpa_val(gpa), size_2m ? 1 : 0,
				  validate ? 1 : 0, unchanged);
}

enum snp_ret snp_hw_rmpadjust(gpa_t gpa, bool size_2m, uint64_t attrs)
{
	return snp_insn_rmpadjust(gpa_val(gpa), size_2m ? 1 : 0, attrs);
}

bool snp_hw_guest_read(gpa_t gpa, void *dst, size_t len)
{
	return snp_insn_copy(dst, (const void *)gpa_val(gpa), len);
}

bool snp_hw_guest_write(gpa_t gpa, const void *src, size_t len)
{
	return snp_insn_copy((void *)gpa_val(gpa), src, len);
}

bool snp_hw_guest_zero(gpa_t gpa, size_t len)
{
	return snp_insn_zero((void *)gpa_val(gpa), len);
}

bool snp_hw_guest_xchg8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	return snp_insn_xchg8((volatile uint8_t *)gpa_val(gpa), val, old);
}

void *snp_hw_map_private(gpa_t gpa, size_t len)
{
	(void)len;
	return (void *)gpa_val(gpa);
}

void snp_hw_flush_tlb(void)
{
	snp_insn_flush_all();
}

/* Each VMPL's VMSA holds its own SIMD registers: nothing to switch. */
void snp_hw_library_call(void)
{
}
