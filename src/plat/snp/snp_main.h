/* SPDX-License-Identifier: MIT */
/* The snp platform's boot, request loop and platform operations. */
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
#include "snp_greq.h"

struct snp_platform {
	struct ghcb_cpu ghcb; /* the boot CPU's; entries are serialised */
	struct snp_greq greq;
	uint8_t guest_vmpl;
	uint8_t *doorbell; /* #HV doorbell page: shared, hostile */
	bool ready;	   /* GHCB registered and mapped */
	bool console_busy; /* inside the console's own GHCB call */
};

struct snp_platform *snp_platform(void);

/**
 * Boot on snp: SEV_STATUS, GHCB negotiation, hypervisor features, the
 * VMPL0 check, the boot information, the GHCB and shared pages, then
 * svsm_init(). @params is the measured boot parameter page (at
 * @params_gpa), @memory_map the loader's parameter area; the CPU list
 * comes from the loader too (IGVM VP count). Any failure terminates.
 * Returns the guest's boot VMSA.
 */
gpa_t snp_boot(const struct csvsm_boot_params *params, gpa_t params_gpa,
	       const uint8_t *memory_map, size_t map_len,
	       const uint32_t *apic_ids, unsigned cpu_count,
	       const struct vtpm_engine *vtpm);

/**
 * Start the SVSM's other CPUs (@apic_ids[1..@count)) at VMPL0 at
 * @entry_rip, each with a VMSA in SVSM memory (snp_aps.c).
 */
void snp_start_aps(struct ghcb_cpu *g, const uint32_t *apic_ids, unsigned count,
		   uint64_t entry_rip);

/** What the #HV exception entry calls (snp_hv.h). */
void snp_hv_entry(void);
/** Ask the hypervisor to run the guest's VMPL on this CPU. */
void snp_run_guest(void);
/** One iteration of the request loop: serve this entry, run the guest. */
enum request_outcome snp_serve(struct svsm_cpu *cpu);

/* The snp platform's operations that differ from the other platforms. */
void snp_console_write(const char *s, size_t len);
uint64_t snp_plat_guest_request(const void *req, void *rsp, void *certs,
				size_t *certs_len);

#endif /* SNP_MAIN_H */
