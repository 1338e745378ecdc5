/* SPDX-License-Identifier: MIT */
/*
 * The software RMP of the emu platform: the SNP model shared with sim, one
 * entry per 4 KiB of RAM, enforced on the guest through the nested page
 * tables (npt.h). rmp_lock serialises every model access from every CPU;
 * it is a leaf lock (taken after the ownership lock and mem_lock, never
 * before).
 */
#ifndef EMU_RMP_H
#define EMU_RMP_H

#include <stdbool.h>
#include <stdint.h>

#include "svsm/snpmodel.h"

extern struct rmp emu_rmp;

void emu_rmp_lock(void);
void emu_rmp_unlock(void);
/** Storage for @page_count entries, all pages hypervisor-owned. */
void emu_rmp_init(void *storage, uint64_t page_count);
/** Bytes of storage emu_rmp_init() needs for @page_count pages. */
uint64_t emu_rmp_storage_size(uint64_t page_count);

/* The hypervisor's RMPUPDATE, as the emu host performs it: splits a 2 MiB
 * entry first, keeps the NPT in step. Returns SNP_RET_*. */
enum snp_ret emu_rmp_page_state(uint64_t gpa, bool to_private);

#endif /* EMU_RMP_H */
