/* SPDX-License-Identifier: MIT */
/*
 * The guest's IO-APIC at 0xFEC00000 (24 pins, version 0x20), virtual:
 * QEMU's is the machine's. Its registers through MMIO (hv_mmio.c); a
 * device the hypervisor emulates raises a pin, and an unmasked
 * edge-triggered entry becomes an interrupt in the destination vCPUs'
 * APICs (hv_apic.c). The one device wired so far is COM1 (pin 4).
 */
#ifndef MACHINE_HV_IOAPIC_H
#define MACHINE_HV_IOAPIC_H

#include <stdbool.h>
#include <stdint.h>

#define IOAPIC_BASE 0xFEC00000ull
#define IOAPIC_SIZE 0x1000ull

/** An access of @len bytes at offset @off into the IO-APIC's page. */
void hv_ioapic_mmio(uint64_t off, unsigned len, bool write, uint8_t data[8]);
/** An edge on @pin. */
void hv_ioapic_raise(unsigned pin);

#endif /* MACHINE_HV_IOAPIC_H */
