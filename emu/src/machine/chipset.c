/* SPDX-License-Identifier: MIT */
/*
 * The machine's drivers for QEMU's q35 chipset (chipset.h): what the
 * host reads of the board for itself, not what a guest sees of it.
 */
#include "chipset.h"

#include "svsm/std.h"

#include "arch.h"
#include "host_pci.h"
#include "machine.h"

#define LPC_BDF (31u << 3) /* 00:1f.0 */
#define LPC_PMBASE 0x40u

uint16_t chipset_pm_base(void)
{
	uint32_t base = host_pci_read32(LPC_BDF, LPC_PMBASE) & 0xFF80u;

	return base == 0xFF80u ? 0 : (uint16_t)base;
}

static uint8_t cmos(uint8_t reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

static unsigned bcd(uint8_t v, bool binary)
{
	return binary ? v : (v >> 4) * 10u + (v & 0xFu);
}

/* Days from 1970-01-01 to @y-@m-@d (proleptic Gregorian): whole years,
 * then the months of this one, leap day counted from March. */
static uint64_t days_since_epoch(unsigned y, unsigned m, unsigned d)
{
	static const unsigned before_month[12] = {0,   31,  59,	 90,  120, 151,
						  181, 212, 243, 273, 304, 334};
	uint64_t days = 0;
	unsigned yr;

	for (yr = 1970; yr < y; yr++) {
		days += (yr % 4 == 0 && (yr % 100 != 0 || yr % 400 == 0)) ? 366
									  : 365;
	}
	days += before_month[(m - 1) % 12] + d - 1;
	if (m > 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) {
		days++;
	}
	return days;
}

/* QEMU's MC146818: wait out an update, read until two reads agree. */
uint64_t chipset_rtc_seconds(void)
{
	uint8_t now[7], again[7];
	static const uint8_t regs[7] = {0x00, 0x02, 0x04, 0x07,
					0x08, 0x09, 0x32};
	unsigned i, tries, hour, year;
	bool binary, pm;

	for (tries = 0; tries < 10; tries++) {
		while (cmos(0x0A) & 0x80u) {
		}
		for (i = 0; i < 7; i++) {
			now[i] = cmos(regs[i]);
		}
		while (cmos(0x0A) & 0x80u) {
		}
		for (i = 0; i < 7; i++) {
			again[i] = cmos(regs[i]);
		}
		if (memcmp(now, again, sizeof(now)) == 0) {
			break;
		}
	}
	binary = (cmos(0x0B) & 0x04u) != 0;
	pm = (cmos(0x0B) & 0x02u) == 0 && (now[2] & 0x80u) != 0;
	hour = bcd(now[2] & 0x7Fu, binary) % 24u;
	if (pm) {
		hour = (hour % 12u) + 12u;
	}
	year = bcd(now[6], binary) * 100u + bcd(now[5], binary);
	if (year < 1970 || bcd(now[4], binary) - 1u > 11u ||
	    bcd(now[3], binary) == 0) {
		mlog("emu: kvmclock: the RTC reads %u-%u-%u; wall time 0", year,
		     bcd(now[4], binary), bcd(now[3], binary));
		return 0;
	}
	return days_since_epoch(year, bcd(now[4], binary),
				bcd(now[3], binary)) *
		       86400u +
	       (uint64_t)hour * 3600u + (uint64_t)bcd(now[1], binary) * 60u +
	       bcd(now[0], binary);
}
