/* SPDX-License-Identifier: MIT */
#include "hv_mmio.h"

#include "svsm/std.h"

#include "hv/dev/hv_apic.h"
#include "hv/dev/hv_ioapic.h"
#include "hv/dev/hv_pci.h"
#include "hv/dev/hv_vblk.h"

#define XAPIC_BASE 0xFEE00000ull
#define XAPIC_SIZE 0x1000ull

void hv_mmio(struct hv_vcpu *c, unsigned vmpl, uint64_t gpa, unsigned len,
	     bool write, uint8_t data[8])
{
	uint32_t v = 0;

	if (hv_vblk_mmio(vmpl, gpa, len, write, data)) {
		return; /* the SVSM's virtio-mmio slots, VMPL0's only */
	}
	if (vmpl == HV_APIC_VMPL && gpa >= XAPIC_BASE &&
	    gpa - XAPIC_BASE < XAPIC_SIZE && len == 4) {
		memcpy(&v, data, 4);
		if (hv_apic_mmio(c, (uint32_t)(gpa - XAPIC_BASE), write, &v)) {
			if (!write) {
				memcpy(data, &v, 4);
			}
			return;
		}
	}
	if (gpa >= IOAPIC_BASE && gpa - IOAPIC_BASE < IOAPIC_SIZE &&
	    len <= IOAPIC_SIZE - (gpa - IOAPIC_BASE)) {
		hv_ioapic_mmio(gpa - IOAPIC_BASE, len, write, data);
		return;
	}
	if (hv_pci_ecam(gpa, len, write, data)) {
		return;
	}
	if (!write) {
		memset(data, 0xFF, len); /* no device: all ones */
	}
}
