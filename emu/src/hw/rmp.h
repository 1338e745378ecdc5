/* SPDX-License-Identifier: MIT */
/*
 * The machine's RMP (the model of model/snp, one entry per 4 KiB page
 * of guest memory: RAM and the loader's windows, guest_mem.h) and what keeps
 * the guest's view in step with it. Every change to the RMP, by the hardware's
 * instructions, the PSP or the hypervisor's RMPUPDATE, is made under rmp_lock
 * and followed by rmp_changed() before the lock is dropped: the nested page
 * tables (npt.h, which rmp.c alone builds and re-derives, under the lock)
 * then map exactly what the RMP allows. A change that takes rights away
 * also needs rmp_flush_tlbs() (after dropping the lock) before the change is
 * reported done, so no CPU keeps a stale translation. rmp_commit() is that
 * ending in one call: a transaction is rmp_lock(), the RMP operation, then
 * rmp_commit().
 */
#ifndef MACHINE_RMP_H
#define MACHINE_RMP_H

#include <stdbool.h>
#include <stdint.h>

#include "model/snpmodel.h"

#include "machine/guest_mem.h"

extern struct rmp machine_rmp;

/** The RMP over the planned guest memory: RAM, RAM above 4 GiB, then
 * each window, every entry's host page at MACHINE_GUEST_BASE + its
 * index * 4 KiB; every page the hypervisor's (shared), and the nested
 * page tables over it (npt_init(), under the lock). */
void rmp_setup(const struct guest_mem_plan *plan);
void rmp_lock(void);
void rmp_unlock(void);
/** [@gpa, @gpa + @len) changed in the RMP: re-derive its nested entries.
 * Under rmp_lock. */
void rmp_changed(uint64_t gpa, uint64_t len);
/** The end of a transaction begun with rmp_lock(): [@gpa, @gpa + @len)
 * changed in the RMP (@len 0: nothing did), so re-derive it
 * (rmp_changed), drop the lock, and when the change took rights away
 * (@revoked) flush every CPU's translations (rmp_flush_tlbs) before
 * returning. */
void rmp_commit(uint64_t gpa, uint64_t len, bool revoked);
/** Every CPU drops guest translations made before this call: bump the
 * flush generation, IPI the CPUs in guest mode, wait for each to leave
 * it or re-enter with a flush. Not under rmp_lock. */
void rmp_flush_tlbs(void);
/** The generation a VMRUN must have flushed up to. */
uint64_t rmp_flush_gen(void);
/** Host pointer to guest physical @gpa (C-bit stripped), or NULL when
 * [@gpa, @gpa + @len) is not in one bank of guest memory (the RMP covers
 * every bank, each in consecutive host pages). */
void *guest_ptr(uint64_t gpa, uint64_t len);

#endif /* MACHINE_RMP_H */
