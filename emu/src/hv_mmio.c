/* SPDX-License-Identifier: MIT */
#include "hv_mmio.h"

#include "svsm/std.h"

#include "hv_ioapic.h"

void hv_mmio(struct mcpu *c, unsigned vmpl, uint64_t gpa, unsigned len,
	     bool write, uint8_t data[8])
{
	(void)c;
	(void)vmpl;
	if (gpa >= IOAPIC_BASE && gpa - IOAPIC_BASE < IOAPIC_SIZE &&
	    len <= IOAPIC_SIZE - (gpa - IOAPIC_BASE)) {
		hv_ioapic_mmio(gpa - IOAPIC_BASE, len, write, data);
		return;
	}
	if (!write) {
		memset(data, 0xFF, len); /* no device: all ones */
	}
}
