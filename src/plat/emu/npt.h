/* SPDX-License-Identifier: MIT */
/*
 * Nested page tables (threat T11): the guest VMPL's view of memory,
 * derived from the software RMP and nothing else. One NPT for all vCPUs of the
 * guest VMPL (the RMP is global). Identity mapping GPA = HPA, 4 KiB entries
 * over RAM. A page is mapped only if it is guest RAM (never the SVSM region or
 * low memory) and the RMP allows the guest VMPL to read it; write and execute
 * follow the VMPL permissions (GMET is absent: either execute bit maps to
 * X); a VMSA page is never writable. Shared pages are RW, never X.
 */
#ifndef EMU_NPT_H
#define EMU_NPT_H

#include <stdint.h>

/** Pages of storage for RAM up to @ram_top (below 4 GiB). */
uint64_t npt_storage_pages(uint64_t ram_top);
void npt_init(void *storage, uint64_t ram_top);
/** Recompute the entries of [@gpa, @gpa + @len) from the RMP. Call with
 * the RMP lock held. */
void npt_sync(uint64_t gpa, uint64_t len);
uint64_t npt_root_pa(void);

#endif /* EMU_NPT_H */
