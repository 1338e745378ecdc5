/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor's virtual local APIC for each vCPU's VMPL1 (the guest
 * OS), as KVM's in-kernel LAPIC in x2APIC mode: its registers through
 * the GHCB MSR event (0x800-0x8FF, and TSC_DEADLINE), IPIs between vCPUs
 * (fixed, self and broadcast shorthands, physical and logical cluster
 * destinations), the timer (one-shot, periodic, TSC-deadline), and
 * the interrupt to inject into VMPL1 (the loop, hv.c, injects it).
 *
 * Concurrency: vCPU i's APIC is changed only by CPU i (its MSR exits, its
 * timer), except the IRR, where other vCPUs' IPIs set bits atomically
 * and then kick CPU i with a physical IPI. Every value comes from a
 * hostile guest: a bad access is #GP (KVM's answer), never a panic.
 */
#ifndef MACHINE_HV_APIC_H
#define MACHINE_HV_APIC_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/hv_vcpu.h"
#include "machine/machine.h"

#define HV_APIC_VMPL 1u /* the VMPL whose interrupts the APIC serves */
#define MSR_X2APIC_FIRST 0x800u
#define MSR_X2APIC_LAST 0x8FFu
#define MSR_TSC_DEADLINE 0x6E0u

/** Reset every vCPU's APIC (x2APIC mode, software-disabled). */
void hv_apic_init(unsigned ncpus);
/** AP Creation (create or destroy) of @target's VMPL1 VMSA: as KVM, the
 * vCPU's APIC takes an INIT reset (pending interrupts, ISR, TPR, LVTs,
 * timer), applied on @target's CPU before its APIC is next used. */
void hv_apic_init_event(struct hv_vcpu *target);
/** An x2APIC MSR or TSC_DEADLINE from @c's VMPL1: false is #GP. */
bool hv_apic_msr(struct hv_vcpu *c, bool write, uint32_t msr, uint64_t *val);
/** An interrupt from the IO-APIC: @vector to the APICs an 8-bit
 * destination names (physical ID, 0xFF all, or a logical bitmap). */
void hv_apic_deliver(uint8_t dest, bool logical, unsigned vector);
/** The APIC's mode (0 off, 1 xAPIC, 2 x2APIC) and KVM's transitions
 * through APIC_BASE: false is #GP. */
uint64_t hv_apic_base_mode(struct hv_vcpu *c);
bool hv_apic_set_mode(struct hv_vcpu *c, bool en, bool extd);
/** xAPIC mode's MMIO page (0xFEE00000): a 32-bit access at @off; false
 * when the APIC is not in xAPIC mode or there is no register there. */
bool hv_apic_mmio(struct hv_vcpu *c, uint32_t off, bool write, uint32_t *val);
/** Expired timers of @c's vCPU become pending interrupts; the physical
 * timer is armed for the next one, or for @tick TSC cycles from now if
 * that is sooner (the host's own tick, hv.c; 0: none). */
void hv_apic_poll(struct hv_vcpu *c, uint64_t tick);
/** The interrupt @c's APIC would deliver now (after hv_apic_poll), -1
 * if none: a halted VMPL1 wakes for it, and the
 * hypervisor's loop injects it (bhyve's vlapic_pending_intr). */
int hv_apic_pending(struct hv_vcpu *c);
/** The injection of @vector was taken: the APIC moves it from IRR to
 * ISR (bhyve's vlapic_intr_accepted). */
void hv_apic_accept(struct hv_vcpu *c, unsigned vector);

#endif /* MACHINE_HV_APIC_H */
