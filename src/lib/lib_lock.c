/* SPDX-License-Identifier: MIT */
/* The linked libraries' lock (svsm/lib_lock.h). */
#include "svsm/lib_lock.h"

#include "svsm/spinlock.h"

/* Zero is the unlocked state, so no initialisation call is needed. */
static struct spinlock libraries;

void lib_lock(void)
{
	spin_lock(&libraries);
}

void lib_unlock(void)
{
	spin_unlock(&libraries);
}
