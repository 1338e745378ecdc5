/* SPDX-License-Identifier: MIT */
/*
 * QEMU's ACPI tables for a guest the snp firmware boots without UEFI:
 * fetched from fw_cfg through the SVSM's own port I/O (GHCB IOIO, the
 * plain port interface, never DMA) and linked by QEMU's table-loader
 * script (svsm/acpi_loader.h). Threat model: docs/acpi.md (T22).
 * Call after svsm_init() (it needs the heap and the memory map), before
 * the guest runs, on a CPU whose GHCB is online, without the ownership
 * lock (it takes it to copy the tables out). QEMU's q35 tables need at
 * least 0x21000 bytes (docs/acpi.md, "Cost").
 */
#ifndef SNP_ACPI_H
#define SNP_ACPI_H

#include <stdint.h>

/* Loads QEMU's ACPI tables (fw_cfg etc/table-loader) into guest RAM [base, base
 * + size), which the caller has validated and owns for the guest; returns the
 * RSDP's GPA, or 0 (logged) when the host offers none. */
uint64_t snp_acpi_load(uint64_t base, uint64_t size);

#endif /* SNP_ACPI_H */
