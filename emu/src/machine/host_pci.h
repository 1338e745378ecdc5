/* SPDX-License-Identifier: MIT */
/*
 * The machine's own use of QEMU's PCI configuration space (mechanism 1,
 * 0xCF8/0xCFC), at start, before any vCPU runs: the LPC's PMBASE, and no
 * QEMU device left able to master the bus. The BIOS below the machine
 * (SeaBIOS) enables bus mastering on what it finds (the q35 AHCI at
 * 00:1f.2, a virtio-blk); a device that could DMA would write any host
 * memory, the machine's and the SVSM's included. The one DMA the machine
 * uses is its own block device's (host_blk.h), which it turns back on
 * afterwards for that function alone and gives only its own buffers.
 * The guest never reaches this space (hv_pci.c is its own).
 */
#ifndef MACHINE_HOST_PCI_H
#define MACHINE_HOST_PCI_H

#include <stdint.h>

/** The dword at @reg (aligned) of QEMU's bus/device/function @bdf. */
uint32_t host_pci_read32(uint32_t bdf, uint32_t reg);
/** Write the dword at @reg (aligned) of @bdf: the machine's own device
 * only (host_blk.c), never on the guest's behalf. */
void host_pci_write32(uint32_t bdf, uint32_t reg, uint32_t v);
/** Clear Bus Master Enable in every function on every bus; log each. */
void host_pci_masters_off(void);

#endif /* MACHINE_HOST_PCI_H */
