/* SPDX-License-Identifier: MIT */
/*
 * Port I/O the hypervisor serves for the guest (the GHCB IOIO event): a
 * table of what it emulates or forwards to QEMU's device as it is; every
 * other port has no device (all ones, writes dropped, logged once per
 * port). COM1's data register's bytes are collected into whole lines per
 * VMPL so that the SVSM's and the guest's lines from different CPUs never
 * interleave; isa-debug-exit ends the VM (the machine first flushes and
 * reports: a stop request, hv_vcpu_stop). The PICs are virtual (hv_pic.c), PCI
 * configuration and fw_cfg the hypervisor's own (hv_pci.c, hv_fwcfg.c); port
 * 0x92 reads A20 on. Power-off (ACPI PM1a_CNT with SLP_EN) and reset (0xCF9,
 * the keyboard controller, port 0x92) end it too, with their own status, as
 * QEMU would stop a -no-reboot VM: an SNP guest cannot be reset. docs/emu.md,
 * "What a guest OS gets" (Ports).
 */
#ifndef MACHINE_HV_IO_H
#define MACHINE_HV_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "hv_vcpu.h"
#include "machine.h"

/** Turn bus mastering off on QEMU's PCI devices (host_pci.c); find the
 * chipset's ACPI PM port block (q35: LPC 00:1f.0, PMBASE); set up the
 * guest's PCI configuration space and fw_cfg. */
void hv_io_init(void);
void hv_io(struct hv_vcpu *c, unsigned vmpl, uint16_t port, unsigned size,
	   bool in, uint32_t *val);
#endif /* MACHINE_HV_IO_H */
