/* SPDX-License-Identifier: MIT */
/* TEMP: the declaration another branch provides with snp_acpi.c. */
#ifndef SNP_ACPI_H
#define SNP_ACPI_H

#include <stdint.h>

/* Loads QEMU's ACPI tables (fw_cfg etc/table-loader) into guest RAM [base, base
 * + size), which the caller has validated and owns for the guest; returns the
 * RSDP's GPA, or 0 (logged) when the host offers none. */
uint64_t snp_acpi_load(uint64_t base, uint64_t size);

#endif /* SNP_ACPI_H */
