/* SPDX-License-Identifier: MIT */
/* The local APIC in xAPIC mode: IDs, IPIs, AP start-up, its timer. */
#ifndef MACHINE_LAPIC_H
#define MACHINE_LAPIC_H

#include <stdint.h>

#include "trap.h"

#define MACHINE_VEC_WAKEUP X86_VEC_WAKEUP
#define MACHINE_VEC_SPURIOUS X86_VEC_SPURIOUS

void lapic_init(void);
uint32_t lapic_id(void);
void lapic_eoi(void);
void lapic_send_ipi(uint32_t apic_id, uint8_t vector);
/** Measure the TSC against the APIC timer (boot CPU, once). */
void lapic_timer_calibrate(void);
/** The TSC's rate, from that measurement. */
uint64_t lapic_tsc_khz(void);
/** Interrupt this CPU (MACHINE_VEC_WAKEUP) about @tsc_delta TSC cycles
 * from now, or later; replaces an earlier arming. */
void lapic_timer_arm(uint64_t tsc_delta);
void lapic_timer_stop(void);
/** INIT, then two SIPIs with the trampoline's page number. */
void lapic_start_ap(uint32_t apic_id, uint64_t trampoline);

#endif /* MACHINE_LAPIC_H */
