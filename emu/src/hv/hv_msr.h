/* SPDX-License-Identifier: MIT */
/*
 * The MSRs the hypervisor serves through the GHCB MSR event, as KVM
 * answers an SEV-SNP guest: the APIC base (x2APIC on), the x2APIC range
 * and TSC_DEADLINE (hv_apic.c, VMPL1 only), KVM's clock (hv_kvmclock.c,
 * VMPL1 only), the AMD configuration MSRs
 * Linux reads at boot (KVM's values), and #GP for everything else.
 */
#ifndef MACHINE_HV_MSR_H
#define MACHINE_HV_MSR_H

#include <stdbool.h>
#include <stdint.h>

#include "hv_vcpu.h"
#include "machine/machine.h"

/** RDMSR/WRMSR @msr from @c's vCPU at @vmpl: false is #GP. */
bool hv_msr(struct hv_vcpu *c, unsigned vmpl, bool write, uint32_t msr,
	    uint64_t *val);

#endif /* MACHINE_HV_MSR_H */
