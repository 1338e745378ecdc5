/* SPDX-License-Identifier: MIT */
/*
 * The snp platform's #VC work: what the SVSM itself does that SEV-ES
 * intercepts (CPUID, MSR accesses, port I/O), emulated from the CPUID
 * page or through the GHCB. The exception entry (IST stack, saved
 * registers) calls snp_vc_handle() with the frame; the decision logic
 * here is the same on hardware and in the simulator.
 */
#ifndef SNP_VC_H
#define SNP_VC_H

#include <stdbool.h>
#include <stdint.h>

#include "svsm/cpuid_regs.h"

#include "abi/snp_cpuid.h"

#include "ghcb.h"

/** The table is usable: 1..64 entries, as Linux requires. */
bool snp_cpuid_table_ok(const struct snp_cpuid_table *t);

/**
 * CPUID @leaf/@subleaf from the table, as Linux's snp_cpuid() finds it:
 * indexed leaves match the subleaf too; leaf 0xD sub-leaves 0 and 1 only
 * from the entry for XCR0 = 1, XSS = 0 (sizes of the base area); a leaf
 * absent but within the standard or extended range reads as zeros.
 * False for a leaf outside both ranges (the caller decides).
 */
bool snp_cpuid_lookup(const struct snp_cpuid_table *t, uint32_t leaf,
		      uint32_t subleaf, struct cpuid_regs *out);

/* The general registers a #VC frame carries that emulation touches. */
struct vc_regs {
	uint64_t rax, rbx, rcx, rdx;
	uint64_t rip;
};

/**
 * Emulate the instruction at @insn (at least 15 readable bytes) that
 * raised #VC with @exit_code, and advance rip past it. CPUID comes from
 * @cpuid; RDMSR/WRMSR and IN/OUT go through the GHCB, and a reply that
 * lacks the registers it must return terminates. An exit the SVSM never
 * causes terminates with TERM_CSVSM_UNEXPECTED_VC. @g is NULL before
 * the CPU's GHCB is registered: then only CPUID is served.
 */
void snp_vc_handle(struct ghcb_cpu *g, const struct snp_cpuid_table *cpuid,
		   struct vc_regs *r, uint64_t exit_code, const uint8_t *insn);

#endif /* SNP_VC_H */
