/* SPDX-License-Identifier: MIT */
/*
 * The vCPU registry. Lookups are linear: the registry holds at most a few
 * vCPUs per SVSM CPU, and SVSM_MAX_CPUS is small.
 */
#include "svsm/vcpu.h"

#include "svsm/check.h"
#include "svsm/overflow.h"
#include "svsm/owner_lock.h"

#include "abi/svsm_caa.h"

static struct svsm_cpu cpus[SVSM_MAX_CPUS];
static unsigned cpus_count;
static struct vcpu *vcpu_list;
static unsigned vcpu_list_count;

void vcpu_registry_init(void)
{
	vcpu_list = NULL;
	vcpu_list_count = 0;
	cpus_count = 0;
}

bool cpu_table_init(const uint32_t *apic_ids, unsigned count)
{
	unsigned i;
	unsigned j;

	if (count == 0 || count > SVSM_MAX_CPUS) {
		return false;
	}
	for (i = 0; i < count; i++) {
		for (j = 0; j < i; j++) {
			if (apic_ids[j] == apic_ids[i]) {
				return false;
			}
		}
		cpus[i].apic_id = apic_ids[i];
		cpus[i].guest = NULL;
	}
	cpus_count = count;
	return true;
}

struct svsm_cpu *cpu_by_apic(uint32_t apic_id)
{
	unsigned i;

	for (i = 0; i < cpus_count; i++) {
		if (cpus[i].apic_id == apic_id) {
			return &cpus[i];
		}
	}
	return NULL;
}

void vcpu_register(struct vcpu *v)
{
	struct svsm_cpu *cpu = cpu_by_apic(v->apic_id);

	CHECK(owner_lock_held());
	CHECK(cpu != NULL);
	v->in_call = false;
	v->next = vcpu_list;
	vcpu_list = v;
	vcpu_list_count++;
	cpu->guest = v;
}

void vcpu_unregister(struct vcpu *v)
{
	struct vcpu **pp = &vcpu_list;
	struct svsm_cpu *cpu = cpu_by_apic(v->apic_id);

	CHECK(owner_lock_held());
	while (*pp != NULL && *pp != v) {
		pp = &(*pp)->next;
	}
	CHECK(*pp == v);
	*pp = v->next;
	vcpu_list_count--;
	if (cpu != NULL && cpu->guest == v) {
		/* Fall back to an older VMSA of this APIC ID, if one is left.
		 */
		struct vcpu *o;

		cpu->guest = NULL;
		for (o = vcpu_list; o != NULL; o = o->next) {
			if (o->apic_id == v->apic_id) {
				cpu->guest = o;
				break;
			}
		}
	}
	v->next = NULL;
}

struct vcpu *vcpu_find_by_vmsa(gpa_t vmsa_gpa)
{
	struct vcpu *v;

	for (v = vcpu_list; v != NULL; v = v->next) {
		if (gpa_eq(v->vmsa_gpa, vmsa_gpa)) {
			return v;
		}
	}
	return NULL;
}

struct vcpu *vcpu_startup(void)
{
	struct vcpu *v;

	for (v = vcpu_list; v != NULL; v = v->next) {
		if (v->is_startup) {
			return v;
		}
	}
	return NULL;
}

unsigned vcpu_count(void)
{
	return vcpu_list_count;
}

bool vcpu_overlaps_vmsa(gpa_t gpa, uint64_t len)
{
	struct vcpu *v;

	for (v = vcpu_list; v != NULL; v = v->next) {
		if (ranges_overlap(gpa_val(gpa), len, gpa_val(v->vmsa_gpa),
				   SNP_PAGE_SIZE)) {
			return true;
		}
	}
	return false;
}

/* Narrow [*lo, *end) around @at to avoid the page at @base; false if @at
 * is in it. */
static bool clip_page(uint64_t base, uint64_t at, uint64_t *lo, uint64_t *end)
{
	uint64_t top = 0;

	if (!add_ok_u64(base, SNP_PAGE_SIZE, &top)) {
		top = UINT64_MAX;
	}
	if (top <= at) {
		*lo = top > *lo ? top : *lo;
	} else if (base > at) {
		*end = base < *end ? base : *end;
	} else {
		return false;
	}
	return true;
}

bool vcpu_clip_window(uint64_t at, uint64_t *lo, uint64_t *end)
{
	const struct vcpu *v;

	for (v = vcpu_list; v != NULL; v = v->next) {
		if (!clip_page(gpa_val(v->vmsa_gpa), at, lo, end) ||
		    !clip_page(gpa_val(v->caa_gpa), at, lo, end)) {
			return false;
		}
	}
	return true;
}

static bool vcpu_overlaps_caa_bytes(gpa_t gpa, uint64_t len, uint64_t bytes)
{
	struct vcpu *v;

	for (v = vcpu_list; v != NULL; v = v->next) {
		if (ranges_overlap(gpa_val(gpa), len, gpa_val(v->caa_gpa),
				   bytes)) {
			return true;
		}
	}
	return false;
}

bool vcpu_overlaps_caa(gpa_t gpa, uint64_t len)
{
	return vcpu_overlaps_caa_bytes(gpa, len, SNP_PAGE_SIZE);
}

bool vcpu_overlaps_caa_control(gpa_t gpa, uint64_t len)
{
	return vcpu_overlaps_caa_bytes(gpa, len, SVSM_CAA_OFF_BUFFER);
}

bool vcpu_caa_used_by_other_apic(gpa_t caa, uint32_t apic_id)
{
	struct vcpu *v;

	for (v = vcpu_list; v != NULL; v = v->next) {
		if (gpa_eq(v->caa_gpa, caa) && v->apic_id != apic_id) {
			return true;
		}
	}
	return false;
}
