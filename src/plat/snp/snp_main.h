/* SPDX-License-Identifier: MIT */
/* The snp platform's boot and request loop: the top of the platform. */
#ifndef SNP_MAIN_H
#define SNP_MAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/request.h"
#include "svsm/svsm.h"
#include "svsm/vcpu.h"
#include "svsm/vtpm.h"

#include "abi/csvsm_boot.h"

#include "ghcb.h"
#include "snp_cpu.h"

/**
 * Boot on snp: SEV_STATUS, GHCB negotiation, hypervisor features, the
 * VMPL0 check, the boot information, the GHCB and shared pages, then
 * svsm_init(). @params is the measured boot parameter page (at
 * @params_gpa), @memory_map the loader's parameter area; the CPU list
 * comes from the loader too (IGVM VP count). Then the other CPUs start
 * (on the page tables at @cr3) and the guest's boot VMSA is created at
 * its VMPL on the boot CPU's APIC ID. Any failure terminates. Returns
 * the guest's boot VMSA.
 */
gpa_t snp_boot(const struct csvsm_boot_params *params, gpa_t params_gpa,
	       const uint8_t *memory_map, size_t map_len,
	       const uint32_t *apic_ids, unsigned cpu_count,
	       const struct vtpm_engine *vtpm, uint64_t cr3);

/**
 * Start the SVSM's other CPUs (@apic_ids[1..@count)) at VMPL0 at
 * @entry_rip on the page tables at @cr3, each with a VMSA, a struct
 * snp_cpu and GHCB and doorbell pages from the heap (snp_aps.c).
 */
void snp_start_aps(struct ghcb_cpu *g, const uint32_t *apic_ids, unsigned count,
		   uint64_t entry_rip, uint64_t cr3);

/** Ask the hypervisor to run the guest's VMPL on this CPU. */
void snp_run_guest(void);
/** One iteration of the request loop: serve this entry, run the guest. */
enum request_outcome snp_serve(struct svsm_cpu *cpu);

#endif /* SNP_MAIN_H */
