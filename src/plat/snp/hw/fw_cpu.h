/* SPDX-License-Identifier: MIT */
/*
 * What each SVSM CPU of the snp firmware holds beyond struct snp_cpu:
 * its FS block (the stack canary, and the way to the CPU's state), its
 * descriptor tables and IST stacks. The boot CPU's is static; an AP's
 * comes from the heap (snp_hw_ap_prepare).
 */
#ifndef SNP_FW_CPU_H
#define SNP_FW_CPU_H

#include <stdint.h>

#include "svsm/memmap.h"

#include "../snp_cpu.h"
#include "../vc.h"
#include "trap.h"

#define SNP_FW_IST_ORDER 2u   /* 16 KiB per IST stack */
#define SNP_FW_STACK_ORDER 4u /* 64 KiB: the vTPM's libraries run on it */

/* At offset 0 of struct snp_fw_cpu: entry.S points FS base here. */
struct snp_fs_block {
	uint64_t self;
	struct snp_cpu *cpu; /* %fs:8 */
	uint64_t vc_depth;   /* %fs:16: #VC handlers running on this CPU */
	uint64_t reserved[2];
	uint64_t stack_canary; /* %fs:0x28 */
};

_Static_assert(__builtin_offsetof(struct snp_fs_block, stack_canary) == 0x28,
	       "GCC's stack protector reads %fs:0x28");

struct snp_fw_cpu {
	struct snp_fs_block fs; /* first: entry.S */
	struct x86_cpu_tables tables;
	void *ist_tops[X86_IST_COUNT];
};

_Static_assert(__builtin_offsetof(struct snp_fw_cpu, fs) == 0, "entry.S");

extern struct snp_fw_cpu snp_bsp_fw_cpu;

static inline struct snp_fs_block *snp_fs_block(void)
{
	struct snp_fs_block *b;

	__asm__ volatile("mov %%fs:0, %0" : "=r"(b));
	return b;
}

/* The copy of the PSP-checked CPUID page every #VC for CPUID reads. */
extern struct snp_cpuid_table snp_fw_cpuid;

/* hw/paging.c: the SVSM's page tables. */
struct csvsm_boot_params;
/**
 * Build the SVSM's page tables and switch to them: the SVSM region with
 * 4 KiB pages (its text read-only and executable, everything else
 * no-execute), every RAM range outside it with 2 MiB pages where
 * aligned (no-execute), all with the C-bit @cbit. Returns CR3; any
 * failure terminates.
 */
uint64_t snp_fw_paging_init(unsigned cbit, const struct csvsm_boot_params *p,
			    const struct mem_range *ram, unsigned n);

/* hw/insn.S: the instructions that may fault, with their fixups. */
uint32_t snp_insn_pvalidate(uint64_t va, uint64_t size, uint64_t validate,
			    bool *unchanged);
uint32_t snp_insn_rmpadjust(uint64_t va, uint64_t size, uint64_t attrs);
bool snp_insn_copy(void *dst, const void *src, size_t len);
bool snp_insn_zero(void *dst, size_t len);
bool snp_insn_xchg8(volatile uint8_t *p, uint8_t val, uint8_t *old);
void snp_insn_flush_all(void);

#endif /* SNP_FW_CPU_H */
