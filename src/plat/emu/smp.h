/* SPDX-License-Identifier: MIT */
/*
 * CPUs of the emu machine: bring-up of the APs QEMU gives, and the guest
 * TLB shoot-down. APIC IDs are 0..n-1 (QEMU's default topology); each AP
 * checks its own ID on arrival.
 */
#ifndef EMU_SMP_H
#define EMU_SMP_H

#include <stdint.h>

#include "emu_cpu.h"

/** Set up the boot CPU's tables (before anything else). */
void smp_init_bsp(unsigned cpu_count);
/** Start every AP on page tables @cr3; each runs emu_cpu_loop(). Needs
 * the heap. */
void smp_start_aps(uint64_t cr3);
struct emu_cpu *emu_cpu_by_apic(uint32_t apic_id);

/**
 * Make every CPU drop guest translations made before this call: bump the
 * flush generation, IPI the CPUs in guest mode and wait until each has
 * left it or re-entered with a TLB flush.
 */
void smp_flush_guest_tlbs(void);
/** The generation a VMRUN must have flushed up to. */
uint64_t smp_flush_gen(void);

void emu_ap_main(void);

#endif /* EMU_SMP_H */
