/* SPDX-License-Identifier: MIT */
/*
 * A virtual local APIC's state (hv_apic.c), one per vCPU in its struct
 * hv_vcpu: the register file the guest sees, and apart from it the
 * host's timing of its timer (host TSC values, never shown to the guest
 * as such).
 */
#ifndef MACHINE_HV_APIC_REGS_H
#define MACHINE_HV_APIC_REGS_H

#include <stdbool.h>
#include <stdint.h>

#define LVT_COUNT 7u /* CMCI, timer, thermal, perf, LINT0, LINT1, error */

enum apic_mode { APIC_OFF, APIC_XAPIC, APIC_X2APIC };

/* The timer as the host runs it. */
struct vlapic_timer {
	uint64_t expiry; /* TSC of the next timer interrupt, 0: none */
	uint64_t period; /* periodic mode: TSC cycles, else 0 */
	uint64_t start;	 /* TSC when TMICT was written */
	/* The host's own wake-up interval (hv_apic_poll), 0: none; the
	 * physical timer fires at least that often. */
	uint64_t host_tick;
};

/* The registers, as the guest reads and writes them. */
struct vapic {
	enum apic_mode mode; /* APIC_BASE's EN and EXTD */
	uint32_t ldr_x, dfr; /* xAPIC mode's logical ID and model */
	uint32_t id, ldr;
	uint32_t tpr, svr, esr;
	uint32_t lvt[LVT_COUNT]; /* [0]: CMCI, [1..6]: 0x832..0x837 */
	uint32_t tmict, tdcr;
	uint64_t icr;
	uint64_t deadline; /* TSC_DEADLINE as written */
	uint32_t isr[8];
	uint32_t irr[8];   /* other CPUs set bits (atomically) */
	bool init_pending; /* hv_apic_init_event: reset before next use */
	struct vlapic_timer timer;
};

#endif /* MACHINE_HV_APIC_REGS_H */
