/* SPDX-License-Identifier: MIT */
/*
 * The ownership lock: one lock orders every change of who owns a guest
 * page against every use of that ownership, on every CPU (threats T05,
 * T09 and the vCPU lifetime rule in docs/architecture.md).
 *
 * What it protects: the vCPU registry (VMSAs, Calling Areas, each vCPU's
 * in-call mark), the deposited-page map, and each guest-memory access
 * from its ownership check to the end of its copy (guestmem CHECKs that
 * it is held). So a concurrent CREATE_VCPU, DEPOSIT_MEM or REMAP_CA can
 * never slip between a check and the use it guards.
 *
 * Rules:
 * - request_process() takes it when the SVSM is entered and holds it while
 *   a call is dispatched; a handler that waits on the host (a guest
 *   request to the PSP) or runs long (a TPM command) drops it around that
 *   work, touches no guest memory meanwhile, and relies on guestmem's
 *   fresh checks after taking it again;
 * - the caller's vCPU record stays alive while it is dropped: its in-call
 *   mark makes DELETE_VCPU from another vCPU fail with FAIL_INUSE;
 * - order: this lock, then the page allocator's, then the deposit lock.
 */
#ifndef SVSM_OWNER_LOCK_H
#define SVSM_OWNER_LOCK_H

#include <stdbool.h>
#include <stdint.h>

void owner_lock_init(void);
void owner_lock(void);
void owner_unlock(void);
/**
 * The current hold's number, new at every owner_lock(): an answer cached
 * under one hold (struct owner_window) is not used under another. Only
 * for the holder.
 */
uint64_t owner_lock_epoch(void);
/** Does the calling CPU hold the lock? For CHECK()s of the rules above. */
bool owner_lock_held(void);

#endif /* SVSM_OWNER_LOCK_H */
