/* SPDX-License-Identifier: MIT */
/*
 * MMIO the guest asks the hypervisor for (the GHCB MMIO events; Linux
 * raises them from #VC on an access to a page mapped without the
 * C-bit outside RAM). QEMU's physical IO-APIC, HPET and local APICs are
 * the machine's own, so nothing is forwarded: the guest gets a virtual
 * IO-APIC at 0xFEC00000 (registers only: no device interrupt reaches the
 * guest through it yet), PCI configuration through ECAM where the guest
 * put it with the MCH's PCIEXBAR (hv_pci.h), and every other address
 * reads as no device
 * (all ones) and drops writes, as an unassigned address does on a PC.
 */
#ifndef MACHINE_HV_MMIO_H
#define MACHINE_HV_MMIO_H

#include <stdbool.h>
#include <stdint.h>

#include "hv_vcpu.h"
#include "machine/machine.h"

/** An MMIO access of @len (1..8) bytes at @gpa (outside guest RAM) from
 * @c's vCPU at @vmpl: a write gives @data, a read fills it. */
void hv_mmio(struct hv_vcpu *c, unsigned vmpl, uint64_t gpa, unsigned len,
	     bool write, uint8_t data[8]);

#endif /* MACHINE_HV_MMIO_H */
