/* SPDX-License-Identifier: MIT */
#include "svsm/owner_lock.h"

#include "svsm/spinlock.h"

static struct spinlock lock;
/* Written only by the holder, under the lock: a CHECK that it is held
 * can be fooled by another CPU holding it, never by nobody holding it. */
static bool held;

void owner_lock_init(void)
{
	spin_init(&lock);
	__atomic_store_n(&held, false, __ATOMIC_RELEASE);
}

void owner_lock(void)
{
	spin_lock(&lock);
	__atomic_store_n(&held, true, __ATOMIC_RELAXED);
}

void owner_unlock(void)
{
	__atomic_store_n(&held, false, __ATOMIC_RELAXED);
	spin_unlock(&lock);
}

bool owner_lock_held(void)
{
	return __atomic_load_n(&held, __ATOMIC_RELAXED);
}
