/* SPDX-License-Identifier: MIT */
/*
 * Physical layout of the emulated SEV-SNP machine (QEMU q35, RAM from 0).
 *
 *   0 .. 2 MiB          low memory: the AP start-up trampoline
 *   2 MiB .. 128 MiB    the machine: its image, heap (VMCBs, the RMP, the
 *                       nested page tables, the IGVM file, its libraries)
 *   128 MiB .. top      the guest's RAM: guest physical address 0 is
 *                       host physical address MACHINE_GUEST_BASE
 *
 * The guest never sees the machine's memory: the nested page tables map
 * guest physical addresses [0, guest RAM size) and nothing else.
 */
#ifndef MACHINE_LAYOUT_H
#define MACHINE_LAYOUT_H

/* How a run ends, and the port it is written to: one list. */
#include "machine_exits.h"

#define MACHINE_TRAMPOLINE 0x7000ull
#define MACHINE_BASE 0x200000ull
#define MACHINE_GUEST_BASE 0x8000000ull
/* RAM above the PCI hole is not used (q35 puts it above 4 GiB). */
#define MACHINE_RAM_LIMIT 0xB0000000ull

/*
 * The C-bit: bit 51 of a guest physical address, as on every SNP part so
 * far (CPUID 0x8000001F EBX[5:0]; csvsm-igvm's default). The guest's page
 * tables carry it; the nested tables are 5-level (the machine runs with
 * LA57, QEMU's TCG walks nested tables in the host's paging mode), so a
 * 52-bit guest physical address space holds both aliases of every page:
 * PML5 slot 0 (C clear: shared) and slot 8 (C set: private).
 */
#define MACHINE_C_BIT 51u
#define MACHINE_C_MASK (1ull << MACHINE_C_BIT)

#endif /* MACHINE_LAYOUT_H */
