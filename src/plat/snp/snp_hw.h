/* SPDX-License-Identifier: MIT */
/*
 * The instructions and mappings the snp platform needs, one function
 * each: its GHCB client's and those of its platform operations
 * (plat_snp.c). On SNP hardware they are single instructions or
 * fault-tolerant copies (hw/hw_x86.c over hw/insn.S); in the simulator
 * the hypervisor model plays KVM (sim/src/model/ghcb_hv.c) and the RMP model
 * and guest memory play the CPU (sim/src/model/snp_insn_sim.c), so the code
 * above this seam is the same in both.
 */
#ifndef SNP_HW_H
#define SNP_HW_H

#include <stdbool.h>
#include <stddef.h>
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

/*
 * The CPU at VMPL0 on guest memory. A GPA is the guest's; the hardware
 * side reaches it through the SVSM's identity map (hw/paging.c).
 */
/**
 * PVALIDATE of the page at @gpa (@size_2m: a 2 MiB page): EAX, and
 * *unchanged = rFLAGS.CF. A fault is SNP_RET_FAIL_INPUT.
 */
enum snp_ret snp_hw_pvalidate(gpa_t gpa, bool size_2m, bool validate,
			      bool *unchanged);
/** RMPADJUST of @gpa with RDX = @attrs: EAX; a fault is FAIL_INPUT. */
enum snp_ret snp_hw_rmpadjust(gpa_t gpa, bool size_2m, uint64_t attrs);
/**
 * Private (C-bit) accesses to guest pages that fail instead of faulting:
 * false when a page is not validated (the #VC hardware raises) or not
 * the guest's (the #NPF), or not RAM.
 */
bool snp_hw_guest_read(gpa_t gpa, void *dst, size_t len);
bool snp_hw_guest_write(gpa_t gpa, const void *src, size_t len);
bool snp_hw_guest_zero(gpa_t gpa, size_t len);
bool snp_hw_guest_xchg8(gpa_t gpa, uint8_t val, uint8_t *old);
/** The SVSM's private mapping of memory it owns (plat_map_private). */
void *snp_hw_map_private(gpa_t gpa, size_t len);
/** Flush the TLB entries of every ASID and VMPL on this CPU. */
void snp_hw_flush_tlb(void);
/**
 * The SVSM is about to run its linked libraries (plat_simd_begin), one
 * of the points where it may have left the ownership lock. Hardware:
 * nothing. The simulator replays another CPU's calls here
 * (sim_during_next_library_call).
 */
void snp_hw_library_call(void);

#endif /* SNP_HW_H */
