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

#endif /* SNP_HW_H */
