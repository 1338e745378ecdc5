/* SPDX-License-Identifier: MIT */
/*
 * Guest vCPUs and the SVSM CPUs that serve them.
 * A struct vcpu is one guest VMSA the SVSM has accepted (the boot vCPU's,
 * or one from CREATE_VCPU) with its Calling Area. A struct svsm_cpu is the
 * SVSM's context for one APIC ID; its current guest is the newest vCPU
 * created for that APIC ID (Linux creates the new VMSA before deleting the
 * old one when a CPU comes back online).
 * Lock: the ownership lock (svsm/owner_lock.h) protects the registry and
 * every field of a registered vcpu; registry changes CHECK that it is held.
 * Lifetime: a vcpu is freed only by DELETE_VCPU, which refuses one whose
 * call is being served on another CPU (in_call), so the serving CPU's
 * pointer stays valid while it waits on the host without the lock.
 */
#ifndef SVSM_VCPU_H
#define SVSM_VCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "svsm/addr.h"

#include "abi/snp.h"

/* The most SVSM CPUs (APIC IDs) the CPU table holds. */
#define SVSM_MAX_CPUS 64u

struct vcpu {
	gpa_t vmsa_gpa;
	gpa_t caa_gpa;
	uint32_t apic_id;
	bool is_startup;       /* the boot vCPU: cannot be deleted */
	bool in_call;	       /* a call of this vCPU is being served */
	struct snp_vmsa *vmsa; /* SVSM mapping of the VMSA page */
	struct vcpu *next;
};

struct svsm_cpu {
	uint32_t apic_id;
	struct vcpu *guest; /* NULL: nothing to serve on this CPU */
	/* Per-CPU copy buffer for memory-passed parameters (two pages). */
	uint8_t scratch[8192];
};

void vcpu_registry_init(void);

/** Register the SVSM CPUs; apic_ids[0] is the boot CPU. */
bool cpu_table_init(const uint32_t *apic_ids, unsigned count);
struct svsm_cpu *cpu_by_apic(uint32_t apic_id);

void vcpu_register(struct vcpu *v);
void vcpu_unregister(struct vcpu *v);
struct vcpu *vcpu_find_by_vmsa(gpa_t vmsa_gpa);
struct vcpu *vcpu_startup(void);
unsigned vcpu_count(void);
bool vcpu_overlaps_vmsa(gpa_t gpa, uint64_t len);
/**
 * Narrow [*lo, *end), which holds @at, so that it meets no live VMSA page
 * and no Calling Area page; false (the window untouched or part-narrowed)
 * if @at lies in one.
 */
bool vcpu_clip_window(uint64_t at, uint64_t *lo, uint64_t *end);
bool vcpu_overlaps_caa(gpa_t gpa, uint64_t len);
bool vcpu_overlaps_caa_control(gpa_t gpa, uint64_t len);
/** Is the page at @caa the Calling Area of a vCPU whose APIC ID is not
 * @apic_id? (A CA is shared only by the VMSAs of one APIC ID.) */
bool vcpu_caa_used_by_other_apic(gpa_t caa, uint32_t apic_id);

#endif /* SVSM_VCPU_H */
