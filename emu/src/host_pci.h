/* SPDX-License-Identifier: MIT */
/*
 * The machine's own use of QEMU's PCI configuration space (mechanism 1,
 * 0xCF8/0xCFC), at start, before any vCPU runs: the LPC's PMBASE, and no
 * QEMU device left able to master the bus. The BIOS below the machine
 * (SeaBIOS) enables bus mastering on what it finds (the q35 AHCI at
 * 00:1f.2); the machine uses no PCI device's DMA, and a device that could
 * DMA would write any host memory, the machine's and the SVSM's
 * included. The guest never reaches this space (hv_pci.c is its own).
 */
#ifndef MACHINE_HOST_PCI_H
#define MACHINE_HOST_PCI_H

#include <stdint.h>

/** The dword at @reg (aligned) of QEMU's bus/device/function @bdf. */
uint32_t host_pci_read32(uint32_t bdf, uint32_t reg);
/** Clear Bus Master Enable in every function on every bus; log each. */
void host_pci_masters_off(void);

#endif /* MACHINE_HOST_PCI_H */
