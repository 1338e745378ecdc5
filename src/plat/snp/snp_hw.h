/* SPDX-License-Identifier: MIT */
/*
 * The instructions and mappings the snp platform's GHCB client needs, one
 * function each. On SNP hardware they are single instructions
 * (hw_x86.c); in tests the simulator implements them with its hypervisor
 * model playing KVM (sim/src/ghcb_hv.c), so the client above this seam is
 * the same code in both.
 */
#ifndef SNP_HW_H
#define SNP_HW_H

#include <stdint.h>

#include "svsm/addr.h"

#include "abi/snp.h"

struct snp_cpu;

uint64_t snp_hw_read_ghcb_msr(void);
void snp_hw_write_ghcb_msr(uint64_t val);
/** VMGEXIT (rep; vmmcall): hand the GHCB MSR or page to the hypervisor. */
void snp_hw_vmgexit(void);
/** MSR_AMD64_SEV (0xC0010131): the features this guest was launched with. */
uint64_t snp_hw_sev_status(void);
/**
 * The SVSM's mapping of a shared (hypervisor-owned, C-bit clear) page;
 * NULL if @gpa cannot be mapped so. What it holds is hostile.
 */
void *snp_hw_map_shared(gpa_t gpa);
/** After a termination request the hypervisor never returns: stop. */
void snp_hw_halt(void) __attribute__((noreturn));
/**
 * The calling CPU's struct snp_cpu; NULL before the boot CPU set its
 * own (snp_hw_set_cpu). In the simulator every SVSM entry runs as the
 * boot CPU.
 */
struct snp_cpu *snp_hw_this_cpu(void);
void snp_hw_set_cpu(struct snp_cpu *c);
/**
 * Give the AP @c what its entry code needs before any C runs (stacks,
 * per-CPU block) and point its VMSA @v at them: RSP, and RDI, which the
 * entry code reads to find @c. The simulator runs no AP code: nothing.
 */
void snp_hw_ap_prepare(struct snp_cpu *c, struct snp_vmsa *v);

#endif /* SNP_HW_H */
