/* SPDX-License-Identifier: MIT */
/*
 * The guest's PCI configuration space, emulated by the hypervisor (never
 * QEMU's chipset, whose PMBASE, PCIEXBAR and BARs are the machine's): the
 * q35 functions OVMF and Linux probe, through mechanism 1 (0xCF8 address,
 * 0xCFC-0xCFF data) and ECAM MMIO at the base the guest writes into the
 * MCH's PCIEXBAR:
 *   00:00.0  MCH host bridge 8086:29C0, class 06/00/00; PCIEXBAR (0x60,
 *            64 bits: enable, length 256/128/64 MiB, base), PAM 0x90-0x96;
 *   00:1f.0  ICH9 LPC 8086:2918, class 06/01/00, multifunction; PMBASE
 *            (0x40) QEMU's real PM block | 1 with ACPI_CNTL (0x44) ACPI_EN
 *            set, so OVMF keeps it; PIRQ routing 0x60-0x6B, RCBA 0xF0.
 * Both have subsystem 1AF4:1100 (QEMU's), no BARs and no capabilities.
 * Every other bus, device and function reads all ones; a write to a
 * read-only bit is dropped; offsets 0x100-0xFFF read all ones. Accesses
 * of 1, 2 or 4 bytes, byte by byte under one lock.
 *
 * Free of the machine's headers (its own lock), so that
 * test/unit/emu_hv_devices_test.c builds it hosted.
 */
#ifndef MACHINE_HV_PCI_H
#define MACHINE_HV_PCI_H

#include <stdbool.h>
#include <stdint.h>

#define HV_PCI_CONF_ADDR 0xCF8u
#define HV_PCI_CONF_DATA 0xCFCu
#define HV_PCI_PM_SIZE 0x80u

/** Reset both functions; @pm_base is QEMU's ACPI PM block (0: none,
 * then PMBASE reads as unset and ACPI_EN clear). */
void hv_pci_init(uint16_t pm_base);
/** Whether a port access is the configuration mechanism's (0xCF8-0xCFF,
 * but for the byte-wide reset control register 0xCF9). */
bool hv_pci_port(uint16_t port, unsigned size);
void hv_pci_io(uint16_t port, unsigned size, bool in, uint32_t *val);
/** An MMIO access of @len (1..8) bytes at @gpa: false if it is outside
 * the ECAM window the guest enabled, else done (a read fills @data). */
bool hv_pci_ecam(uint64_t gpa, unsigned len, bool write, uint8_t *data);
/** The guest's port @port on QEMU's PM block: if the guest moved PMBASE
 * (with ACPI_EN set), a port in [its PMBASE, +0x80) becomes the same
 * register at the real base; any other port is unchanged. */
uint16_t hv_pci_pm_port(uint16_t port);

/** Configuration read/write of @size (1, 2, 4) bytes at @reg of
 * bus/device/function @bdf (bus << 8 | dev << 3 | fn). */
uint32_t hv_pci_cfg_read(uint32_t bdf, uint32_t reg, unsigned size);
void hv_pci_cfg_write(uint32_t bdf, uint32_t reg, unsigned size, uint32_t v);

#endif /* MACHINE_HV_PCI_H */
