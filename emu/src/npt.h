/* SPDX-License-Identifier: MIT */
/*
 * The nested page tables: each VMPL's view of guest memory, derived from
 * the RMP and nothing else (threat: a guest reaching memory the RMP does
 * not give its VMPL). Five levels (layout.h): PML5 slot 0 is the shared
 * alias (C-bit clear), which maps a page only while it is hypervisor-
 * owned, read-write and never executable, the same table for every VMPL;
 * PML5 slot 8 is the private alias (C-bit set), one table per VMPL, which
 * maps an assigned page only with the rights that VMPL has in the RMP
 * (an unvalidated page not at all: its access faults and the hardware
 * raises #VC). Leaves are 4 KiB; addresses outside guest RAM are never
 * mapped. Guest physical address g is host physical MACHINE_GUEST_BASE+g.
 */
#ifndef MACHINE_NPT_H
#define MACHINE_NPT_H

#include <stdint.h>

void npt_init(uint64_t guest_ram_size);
/** Recompute every view's entries for [@gpa, @gpa + @len). Under
 * rmp_lock. */
void npt_sync(uint64_t gpa, uint64_t len);
/** The nested CR3 of @vmpl's view. */
uint64_t npt_root(unsigned vmpl);

#endif /* MACHINE_NPT_H */
