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

/* Leaf 1 ECX: x2APIC (21) and TSC-deadline (24), which KVM's virtual
 * APIC gives every guest whatever the CPU has (hv_apic.c); the PSP lets a
 * hypervisor set them. */
#define HV_CPUID_1_ECX_APIC ((1u << 21) | (1u << 24))
/* Leaf 1 ECX bit 31: running under a hypervisor, as KVM says. */
#define HV_CPUID_1_ECX_HYPERVISOR (1u << 31)
/* KVM's own leaves (0x40000000: the signature and the last leaf,
 * 0x40000001: its features); the PSP leaves this range unchecked. */
#define HV_CPUID_KVM_BASE 0x40000000u
#define HV_CPUID_KVM_FEATURES 0x40000001u

/** Fill @t with the leaves KVM/QEMU put in a CPUID page; with @lie, one
 * entry claims a feature this CPU lacks. */
void hv_cpuid_fill(struct snp_cpuid_table *t, bool lie);
/** The hypervisor's CPUID answer (MSR protocol and NAE event). */
void hv_cpuid(uint32_t leaf, uint32_t subleaf, uint64_t xcr0, uint32_t out[4]);

#endif /* MACHINE_HV_CPUID_H */
