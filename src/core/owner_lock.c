/* SPDX-License-Identifier: MIT */
#include "svsm/owner_lock.h"

#include "svsm/plat.h"
#include "svsm/spinlock.h"

static struct spinlock lock;
/* The holding CPU (plat_cpu_self), NULL when free. Written only by the
 * holder, under the lock; read by the holder's own CHECKs, so a stale
 * value seen by another CPU can only be "not mine". */
static const void *holder;
/* Counts the holds: a new value at every owner_lock(), written and read
 * only by the holder. */
static uint64_t epoch;

void owner_lock_init(void)
{
	spin_init(&lock);
	__atomic_store_n(&holder, NULL, __ATOMIC_RELEASE);
}

void owner_lock(void)
{
	spin_lock(&lock);
	__atomic_store_n(&holder, plat_cpu_self(), __ATOMIC_RELAXED);
	epoch++;
}

void owner_unlock(void)
{
	__atomic_store_n(&holder, NULL, __ATOMIC_RELAXED);
	spin_unlock(&lock);
}

uint64_t owner_lock_epoch(void)
{
	return epoch;
}

bool owner_lock_held(void)
{
	const void *h = __atomic_load_n(&holder, __ATOMIC_RELAXED);

	return h != NULL && h == plat_cpu_self();
}
