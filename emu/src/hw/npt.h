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
 * raises #VC). Leaves are 4 KiB; addresses outside the guest's memory
 * (the RMP's banks) are never mapped. A guest page is host physical
 * MACHINE_GUEST_BASE + its RMP index * 4 KiB.
 *
 * With paging off, an SEV-ES guest's every access is private (there is
 * no C-bit to clear): a second root per VMPL has the private alias in
 * slot 0 too, for a vCPU that runs unpaged (an AP in Linux's real-mode
 * trampoline). QEMU keeps no C-bit of its own, so the world switch picks
 * the root by CR0.PG at each VMRUN and at the first shared access after
 * the guest turned paging on (world.c).
 *
 * The tables are handed the RMP they derive from and take no lock: the
 * RMP's owner (rmp.c) builds and re-derives them under its lock
 * (rmp_setup, rmp_changed), and the world switch maps a private alias
 * under it; nothing here calls back into rmp.c.
 */
#ifndef MACHINE_NPT_H
#define MACHINE_NPT_H

#include <stdbool.h>
#include <stdint.h>

#include "model/snpmodel.h"

/** The views over @r's banks, each entry derived from @r; once, by
 * rmp_setup(), holding @r's lock. */
void npt_init(const struct rmp *r);
/** Recompute every view's entries for [@gpa, @gpa + @len) from @r. Under
 * @r's lock (rmp_changed()). */
void npt_sync(const struct rmp *r, uint64_t gpa, uint64_t len);
/**
 * A guest page-table walk or instruction fetch met the shared alias of
 * @gpa: hardware makes both private whatever the C-bits say. If the page
 * is private, validated and has @perm (RMP_PERM_*: read, write for
 * accessed and dirty bits, execute for a fetch) at @vmpl in @r, map the
 * shared alias onto it (executable only for a fetch) until the RMP next
 * changes it, and say so: the access can run again. Under @r's lock.
 */
bool npt_private_alias(const struct rmp *r, unsigned vmpl, uint64_t gpa,
		       unsigned perm);
/** The nested CR3 of @vmpl's view, with guest paging on (@paged) or
 * off. */
uint64_t npt_root(unsigned vmpl, bool paged);

#endif /* MACHINE_NPT_H */
