/* SPDX-License-Identifier: MIT */
/*
 * What the sim platform (plat_sim.c) asks of the machine it runs on, one
 * function each: the simulated machine implements it (sim/src/model/
 * sim_hw.c), as the hardware and the simulator implement the snp
 * platform's snp_hw.h. The platform reaches the machine only through
 * these; it holds no handle on it and knows none of its fields.
 */
#ifndef SIM_HW_H
#define SIM_HW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/addr.h"

#include "abi/snp.h"

/** PVALIDATE at VMPL0 of the page at @gpa: EAX, *unchanged = rFLAGS.CF. */
enum snp_ret sim_hw_pvalidate(gpa_t gpa, bool size_2m, bool validate,
			      bool *unchanged);
/** RMPADJUST at VMPL0 of @gpa with RDX = @attrs: EAX. */
enum snp_ret sim_hw_rmpadjust(gpa_t gpa, bool size_2m, uint64_t attrs);
/** The vCPU whose VMPL0 entry runs; the boot CPU outside entries. */
const void *sim_hw_cpu_self(void);
/** Flush the guest's TLB entries (counted, nothing is cached). */
void sim_hw_flush_tlb(void);
/**
 * VMPL0's accesses to guest memory: false, touching nothing, unless
 * every page of the range is validated and the guest's.
 */
bool sim_hw_guest_read(gpa_t gpa, void *dst, size_t len);
bool sim_hw_guest_write(gpa_t gpa, const void *src, size_t len);
bool sim_hw_guest_zero(gpa_t gpa, size_t len);
bool sim_hw_guest_xchg8(gpa_t gpa, uint8_t val, uint8_t *old);
/** The SVSM's mapping of RAM it owns (plat_map_private). */
void *sim_hw_map_private(gpa_t gpa, size_t len);
/** The SVSM enters its libraries (plat_simd_begin). */
void sim_hw_library_call(void);
/** The machine's console. */
void sim_hw_console_write(const char *s, size_t len);
/** The hypervisor's SNP guest request, the PSP behind it. */
uint64_t sim_hw_guest_request(const void *req, void *rsp, void *certs,
			      size_t *certs_len);
/** @len (1..8) bytes of MMIO at @gpa: the host's devices answer. */
void sim_hw_mmio(gpa_t gpa, unsigned len, bool write, uint8_t data[8]);
/** The host makes @pages SVSM pages at @gpa shared (already rescinded). */
void sim_hw_share(gpa_t gpa, unsigned pages);
/** The VM ends with the reason recorded: never returns. */
void sim_hw_terminate(uint32_t set, uint32_t code) __attribute__((noreturn));

#endif /* SIM_HW_H */
