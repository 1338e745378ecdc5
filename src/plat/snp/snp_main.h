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

/*
 * One of the SVSM's CPUs. Each registers its own GHCB and #HV doorbell
 * page (the hypervisor keeps one GHCB MSR per vCPU) and uses only its
 * own: no lock is needed, and a page made shared is touched by no other
 * CPU afterwards.
 */
struct snp_cpu {
	struct ghcb_cpu ghcb;
	gpa_t ghcb_gpa, doorbell_gpa; /* private pages until it comes online */
	uint8_t *doorbell;	      /* #HV doorbell page: shared, hostile */
	uint32_t apic_id;
	unsigned index;	   /* 0: the boot CPU */
	bool online;	   /* GHCB registered and mapped */
	bool console_busy; /* inside the console's own GHCB call */
};

struct snp_platform {
	struct snp_cpu boot_cpu;
	struct snp_greq greq; /* serialised by the guest-message lock */
	uint8_t guest_vmpl;
	bool ready; /* the boot CPU's GHCB registered and mapped */
};

struct snp_platform *snp_platform(void);

/**
 * Bring @c online on the calling CPU, which must be @c's: make its GHCB
 * page shared and register it (MSR protocol), then share and register
 * its #HV doorbell page. Any failure terminates.
 */
void snp_cpu_online(struct snp_cpu *c);

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

/**
 * 2^@order zeroed heap pages for AP @i (its VMSA, pages, stacks); no
 * memory terminates with TERM_CSVSM_NO_MEMORY.
 */
void *snp_ap_page(unsigned order, unsigned i);

/** Log @why and terminate with TERM_CSVSM_BAD_BOOT_INFO. */
void snp_bad_boot(const char *why) __attribute__((noreturn));

/** What the #HV exception entry calls (snp_hv.h). */
void snp_hv_entry(void);
/** Ask the hypervisor to run the guest's VMPL on this CPU. */
void snp_run_guest(void);
/** The calling CPU's GHCB (the #VC handler's). */
struct ghcb_cpu *snp_this_ghcb(void);
/** One iteration of the request loop: serve this entry, run the guest. */
enum request_outcome snp_serve(struct svsm_cpu *cpu);

/* The snp platform's operations that differ from the other platforms. */
void snp_console_write(const char *s, size_t len);
uint64_t snp_plat_guest_request(const void *req, void *rsp, void *certs,
				size_t *certs_len);

#endif /* SNP_MAIN_H */
