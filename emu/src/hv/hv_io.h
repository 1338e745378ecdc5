/* SPDX-License-Identifier: MIT */
/*
 * Port I/O the hypervisor serves for the guest (the GHCB IOIO event), as
 * a bus: COM1 first (hv_vuart.c), then isa-debug-exit, power-off (ACPI
 * PM1a_CNT with SLP_EN) and reset (0xCF9, the keyboard controller, port
 * 0x92), which end the VM with their own status, as QEMU would stop a
 * -no-reboot VM (an SNP guest cannot be reset): a stop request the loop
 * acts on (hv_vcpu_stop), never a call up; then a table of the
 * hypervisor's port devices: the PICs (hv_pic.c), SMI_CMD, fw_cfg
 * (hv_fwcfg.c), PCI configuration (hv_pci.c), port 0x92 (A20 on); then
 * QEMU's device as it is for the ports it may have, and no device for
 * every other (all ones, writes dropped, logged once per port).
 * docs/emu.md, "What a guest OS gets" (Ports).
 */
#ifndef MACHINE_HV_IO_H
#define MACHINE_HV_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "hv_vcpu.h"
#include "machine/machine.h"

/** Turn bus mastering off on QEMU's PCI devices (host_pci.c); find the
 * chipset's ACPI PM port block (q35: LPC 00:1f.0, PMBASE); set up the
 * guest's PCI configuration space and fw_cfg. */
void hv_io_init(void);
void hv_io(struct hv_vcpu *c, unsigned vmpl, uint16_t port, unsigned size,
	   bool in, uint32_t *val);
#endif /* MACHINE_HV_IO_H */
