/* SPDX-License-Identifier: MIT */
#include "hv_mmio.h"

#include "svsm/std.h"

#define IOAPIC_BASE 0xFEC00000ull
#define IOAPIC_SIZE 0x1000ull
#define IOAPIC_REGSEL 0x00u
#define IOAPIC_WIN 0x10u
#define IOAPIC_EOI 0x40u
#define IOAPIC_PINS 24u
#define IOAPIC_VERSION (0x20u | ((IOAPIC_PINS - 1) << 16))
#define REDIR_MASKED (1ull << 16)
/* The bits of a redirection entry software writes: vector, delivery and
 * destination mode, polarity, trigger, mask, destination. */
#define REDIR_WRITABLE (0xFF00000000000000ull | 0x1ABFFull)

/* One IO-APIC for the VM: every vCPU reaches it, under its lock. */
static struct {
	struct mlock lock;
	uint32_t regsel, id;
	uint64_t redir[IOAPIC_PINS];
	bool ready;
} ioapic;

static uint32_t ioapic_read(uint32_t reg)
{
	unsigned pin = (reg - 0x10u) / 2;

	switch (reg) {
	case 0:
		return ioapic.id;
	case 1:
		return IOAPIC_VERSION;
	case 2:
		return ioapic.id; /* arbitration ID */
	default:
		break;
	}
	if (reg >= 0x10u && pin < IOAPIC_PINS) {
		return (uint32_t)(ioapic.redir[pin] >> (reg % 2 ? 32 : 0));
	}
	return 0;
}

static void ioapic_write(uint32_t reg, uint32_t val)
{
	unsigned pin = (reg - 0x10u) / 2;
	uint64_t e;

	if (reg == 0) {
		ioapic.id = val & 0x0F000000u;
		return;
	}
	if (reg < 0x10u || pin >= IOAPIC_PINS) {
		return; /* read-only or absent: ignored */
	}
	e = ioapic.redir[pin];
	if (reg % 2 != 0) {
		e = (e & 0xFFFFFFFFull) | ((uint64_t)val << 32);
	} else {
		e = (e & ~0xFFFFFFFFull) | val;
	}
	ioapic.redir[pin] = e & REDIR_WRITABLE;
}

static void ioapic_access(uint64_t off, unsigned len, bool write,
			  uint8_t data[8])
{
	uint32_t v = 0;

	if (len != 4) {
		if (!write) {
			memset(data, 0, len);
		}
		return;
	}
	memcpy(&v, data, 4);
	mlock_take(&ioapic.lock);
	if (!ioapic.ready) {
		unsigned i;

		for (i = 0; i < IOAPIC_PINS; i++) {
			ioapic.redir[i] = REDIR_MASKED;
		}
		ioapic.ready = true;
	}
	if (off == IOAPIC_REGSEL) {
		if (write) {
			ioapic.regsel = v & 0xFFu;
		} else {
			v = ioapic.regsel;
		}
	} else if (off == IOAPIC_WIN) {
		if (write) {
			ioapic_write(ioapic.regsel, v);
		} else {
			v = ioapic_read(ioapic.regsel);
		}
	} else if (!write) {
		v = 0; /* EOI (write-only) and the rest */
	}
	mlock_drop(&ioapic.lock);
	if (!write) {
		memcpy(data, &v, 4);
	}
}

void hv_mmio(struct mcpu *c, unsigned vmpl, uint64_t gpa, unsigned len,
	     bool write, uint8_t data[8])
{
	(void)c;
	(void)vmpl;
	if (gpa >= IOAPIC_BASE && gpa - IOAPIC_BASE < IOAPIC_SIZE &&
	    len <= IOAPIC_SIZE - (gpa - IOAPIC_BASE)) {
		ioapic_access(gpa - IOAPIC_BASE, len, write, data);
		return;
	}
	if (!write) {
		memset(data, 0xFF, len); /* no device: all ones */
	}
}
