/* SPDX-License-Identifier: MIT */
/*
 * Memory the guest lent the SVSM with DEPOSIT_MEM. A deposited page is
 * SVSM-private from the moment it is recorded (VMPL0-only in the RMP) until
 * WITHDRAW_MEM returns it. The heap uses free deposited 4 KiB pages when it
 * runs out (the lent pool below it, svsm/lent.h); only pages the SVSM is
 * not using can be withdrawn. This module keeps who owns them.
 * Lock: deposit_lock is a leaf lock; nothing allocates while holding it.
 */
#ifndef SVSM_DEPOSIT_H
#define SVSM_DEPOSIT_H

#include <stdbool.h>
#include <stdint.h>

#include "svsm/addr.h"
#include "svsm/err.h"

/** Forget every deposit (start-up, before the heap exists). */
void deposit_reset(void);
/** Size the ownership bitmap for guest RAM below @ram_top. */
enum svsm_err deposit_init(uint64_t ram_top);
bool deposit_overlaps(gpa_t gpa, uint64_t len);
/** Record a page the caller has already made VMPL0-only. */
enum svsm_err deposit_add(gpa_t gpa, enum page_size size);
/** Remove one free deposited page; false if none is free. */
bool deposit_take_free(gpa_t *gpa, enum page_size *size);
bool deposit_has_free(void);

#endif /* SVSM_DEPOSIT_H */
