/* SPDX-License-Identifier: MIT */
#include "hv_ioapic.h"

#include "svsm/std.h"

#include "hv_apic.h"

#define IOAPIC_REGSEL 0x00u
#define IOAPIC_WIN 0x10u
#define IOAPIC_EOI 0x40u
#define IOAPIC_PINS 24u
#define IOAPIC_VERSION (0x20u | ((IOAPIC_PINS - 1) << 16))
#define REDIR_MASKED (1ull << 16)
#define REDIR_LOGICAL (1ull << 11)
/* The bits of a redirection entry software writes: vector, delivery and
 * destination mode, polarity, trigger, mask, destination. */
#define REDIR_WRITABLE (0xFF00000000000000ull | 0x1ABFFull)

/* One IO-APIC for the VM: every vCPU reaches it, under its lock. */
static struct {
	struct spinlock lock;
	uint32_t regsel, id;
	uint64_t redir[IOAPIC_PINS];
	bool ready;
} ioapic;

/* Under the lock: every pin masked until the guest programs it. */
static void reset_once(void)
{
	unsigned i;

	if (!ioapic.ready) {
		for (i = 0; i < IOAPIC_PINS; i++) {
			ioapic.redir[i] = REDIR_MASKED;
		}
		ioapic.ready = true;
	}
}

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

void hv_ioapic_mmio(uint64_t off, unsigned len, bool write, uint8_t data[8])
{
	uint32_t v = 0;

	if (len != 4) {
		if (!write) {
			memset(data, 0, len);
		}
		return;
	}
	memcpy(&v, data, 4);
	spin_lock(&ioapic.lock);
	reset_once();
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
	spin_unlock(&ioapic.lock);
	if (!write) {
		memcpy(data, &v, 4);
	}
}

void hv_ioapic_raise(unsigned pin)
{
	uint64_t e;

	if (pin >= IOAPIC_PINS) {
		return;
	}
	spin_lock(&ioapic.lock);
	reset_once();
	e = ioapic.redir[pin];
	spin_unlock(&ioapic.lock);
	/* Edge-triggered, fixed or lowest priority: an 8-bit destination
	 * (no interrupt remapping), physical or a logical bitmap. */
	if ((e & REDIR_MASKED) != 0 || ((e >> 8) & 7u) > 1u) {
		return;
	}
	hv_apic_deliver((uint8_t)(e >> 56), (e & REDIR_LOGICAL) != 0,
			(unsigned)e & 0xFFu);
}
