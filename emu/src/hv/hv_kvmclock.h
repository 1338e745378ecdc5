/* SPDX-License-Identifier: MIT */
/*
 * KVM's paravirtual clock, as KVM gives it to an SEV-SNP guest without
 * Secure TSC (Linux's arch/x86/kernel/kvmclock.c is the client; KVM's
 * msr.rst the interface): CPUID 0x40000001 advertises CLOCKSOURCE2 and
 * the stable bit, the guest names a page of its own by
 * MSR_KVM_SYSTEM_TIME_NEW and MSR_KVM_WALL_CLOCK_NEW and the hypervisor
 * writes the TSC's scale and the time there. It is how Linux learns the
 * TSC's rate under KVM: the PIT and the PM timer, read through #VC
 * exits, are far too slow here to calibrate against.
 *
 * Threat: the guest names the GPAs. The hypervisor writes only where it
 * may, a shared page of guest RAM, checked and written under rmp_lock so
 * the page cannot turn private in between; anything else is ignored (the
 * MSR write still succeeds, as KVM's does), never a private page.
 */
#ifndef MACHINE_HV_KVMCLOCK_H
#define MACHINE_HV_KVMCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "hv_vcpu.h"
#include "machine/machine.h"

#define MSR_KVM_WALL_CLOCK_NEW 0x4B564D00u
#define MSR_KVM_SYSTEM_TIME_NEW 0x4B564D01u

/* CPUID 0x40000001 EAX: KVM_FEATURE_CLOCKSOURCE2 (3) and
 * KVM_FEATURE_CLOCKSOURCE_STABLE_BIT (24). */
#define HV_KVM_FEATURES ((1u << 3) | (1u << 24))

/** Take the wall time from QEMU's RTC and the TSC at this moment as the
 * clock's zero. Once, before any vCPU runs. */
void hv_kvmclock_init(void);
/** The two MSRs for @c's vCPU: false if @msr is neither. */
bool hv_kvmclock_msr(struct hv_vcpu *c, bool write, uint32_t msr,
		     uint64_t *val);

#endif /* MACHINE_HV_KVMCLOCK_H */
