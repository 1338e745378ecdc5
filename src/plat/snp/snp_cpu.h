/* SPDX-License-Identifier: MIT */
/*
 * The snp platform's CPUs and state: each SVSM CPU's GHCB, the calling
 * CPU's, the console and guest requests over it, and the boot failure
 * every boot step reports through. Beneath the boot and request loop
 * (snp_main.h), over the GHCB client and the seam snp_hw.h; it calls
 * nothing above it.
 */
#ifndef SNP_CPU_H
#define SNP_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/addr.h"

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

/** The platform's state, one for the machine; snp_boot() fills it. */
struct snp_platform *snp_platform(void);

/**
 * Bring @c online on the calling CPU, which must be @c's: make its GHCB
 * page shared and register it (MSR protocol), then share and register
 * its #HV doorbell page. Any failure terminates.
 */
void snp_cpu_online(struct snp_cpu *c);

/** Log @why and terminate with TERM_CSVSM_BAD_BOOT_INFO. */
void snp_bad_boot(const char *why) __attribute__((noreturn));
/** The calling CPU's GHCB (the #VC handler's). */
struct ghcb_cpu *snp_this_ghcb(void);

/* The snp platform's operations that differ from the other platforms. */
void snp_console_write(const char *s, size_t len);
uint64_t snp_plat_guest_request(const void *req, void *rsp, void *certs,
				size_t *certs_len);

#endif /* SNP_CPU_H */
