/* SPDX-License-Identifier: MIT */
/* The hypervisor's vCPUs (hv_vcpu.h): vCPU i on CPU i. */
#include "hv_vcpu.h"

static struct hv_vcpu vcpus[MACHINE_MAX_CPUS];
static unsigned nr_vcpus;

void hv_vcpus_init(unsigned n)
{
	unsigned i;

	MCHECK(n <= MACHINE_MAX_CPUS);
	nr_vcpus = n;
	for (i = 0; i < n; i++) {
		struct mcpu *hw = mcpu_by_apic(i);

		MCHECK(hw != NULL);
		vcpus[i] = (struct hv_vcpu){
			.index = i,
			.apic_id = i,
			.hw = hw,
		};
	}
}

struct hv_vcpu *hv_vcpu_at(unsigned index)
{
	MCHECK(index < nr_vcpus);
	return &vcpus[index];
}

struct hv_vcpu *hv_vcpu_by_apic(uint32_t apic_id)
{
	unsigned i;

	for (i = 0; i < nr_vcpus; i++) {
		if (vcpus[i].apic_id == apic_id) {
			return &vcpus[i];
		}
	}
	return NULL;
}

struct hv_vcpu *hv_vcpu_this(void)
{
	return hv_vcpu_at(mcpu_index(mcpu_this()));
}
