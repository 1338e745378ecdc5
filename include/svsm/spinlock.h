/* SPDX-License-Identifier: MIT */
/* A test-and-set spinlock on compiler atomics; the same on every platform. */
#ifndef SVSM_SPINLOCK_H
#define SVSM_SPINLOCK_H

#include <stdbool.h>

struct spinlock {
	bool locked;
};

static inline void spin_init(struct spinlock *l)
{
	__atomic_store_n(&l->locked, false, __ATOMIC_RELEASE);
}

static inline void spin_lock(struct spinlock *l)
{
	while (__atomic_exchange_n(&l->locked, true, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED)) {
			__builtin_ia32_pause();
		}
	}
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->locked, false, __ATOMIC_RELEASE);
}

#endif /* SVSM_SPINLOCK_H */
