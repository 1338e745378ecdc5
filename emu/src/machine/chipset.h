/* SPDX-License-Identifier: MIT */
/*
 * The machine's drivers for QEMU's q35 chipset: the ACPI PM block's base
 * (the LPC bridge's PMBASE) and the RTC's wall time. The host's view of
 * the board, read by the machine for itself (the hypervisor's device
 * models build on it); the guest never reaches these ports through here.
 */
#ifndef MACHINE_CHIPSET_H
#define MACHINE_CHIPSET_H

#include <stdint.h>

/** QEMU's ICH9 ACPI PM block (LPC 00:1f.0, PMBASE); 0: none found. */
uint16_t chipset_pm_base(void);
/** The RTC's time as seconds since 1970 (UTC as QEMU keeps it); 0 when
 * it reads no sane date (logged). */
uint64_t chipset_rtc_seconds(void);

#endif /* MACHINE_CHIPSET_H */
