/* SPDX-License-Identifier: MIT */
/*
 * What the hypervisor says CPUID is: the launch's CPUID page (which the
 * PSP checks against the hardware's CPUID) and its answers to the GHCB's
 * CPUID requests. Both come from this machine's CPUs (cpuid.h).
 */
#ifndef MACHINE_HV_CPUID_H
#define MACHINE_HV_CPUID_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/snp_cpuid.h"

/** Fill @t with the leaves KVM/QEMU put in a CPUID page; with @lie, one
 * entry claims a feature this CPU lacks. */
void hv_cpuid_fill(struct snp_cpuid_table *t, bool lie);
/** The hypervisor's CPUID answer (MSR protocol and NAE event). */
void hv_cpuid(uint32_t leaf, uint32_t subleaf, uint64_t xcr0, uint32_t out[4]);

#endif /* MACHINE_HV_CPUID_H */
