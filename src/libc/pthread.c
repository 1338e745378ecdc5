/* SPDX-License-Identifier: MIT */
/*
 * pthread for code that runs on one thread at a time: the vTPM lock
 * serialises every call into the linked libraries, so once-control, locks
 * and thread-specific data need no atomics. The types are glibc's
 * (pthread_once_t is an int, pthread_key_t an unsigned int); rwlocks are
 * opaque to us and only their return codes matter.
 *
 * Locks keep no state: with one thread there is nothing to exclude, and
 * OpenSSL's locking discipline (no nested write locks) holds regardless.
 */
#include <stdbool.h>
#include <stdint.h>

#include "libc_internal.h"

#define LIBC_EAGAIN 11
#define KEY_SLOTS 64u /* OpenSSL uses a handful */

typedef int libc_pthread_once_t;
typedef unsigned int libc_pthread_key_t;

int pthread_once(libc_pthread_once_t *once, void (*init)(void));
int pthread_key_create(libc_pthread_key_t *key, void (*dtor)(void *));
int pthread_key_delete(libc_pthread_key_t key);
void *pthread_getspecific(libc_pthread_key_t key);
int pthread_setspecific(libc_pthread_key_t key, const void *value);
unsigned long pthread_self(void);
int pthread_rwlock_init(void *lock, const void *attr);
int pthread_rwlock_destroy(void *lock);
int pthread_rwlock_rdlock(void *lock);
int pthread_rwlock_wrlock(void *lock);
int pthread_rwlock_unlock(void *lock);

static struct {
	bool used;
	const void *value;
} keys[KEY_SLOTS];

int pthread_once(libc_pthread_once_t *once, void (*init)(void))
{
	if (*once == 0) {
		*once = 1; /* before init: a recursive call must not loop */
		init();
	}
	return 0;
}

int pthread_key_create(libc_pthread_key_t *key, void (*dtor)(void *))
{
	(void)dtor; /* threads never exit */
	for (unsigned i = 0; i < KEY_SLOTS; i++) {
		if (!keys[i].used) {
			keys[i].used = true;
			keys[i].value = NULL;
			*key = i;
			return 0;
		}
	}
	return LIBC_EAGAIN;
}

int pthread_key_delete(libc_pthread_key_t key)
{
	if (key >= KEY_SLOTS || !keys[key].used) {
		return LIBC_EINVAL;
	}
	keys[key].used = false;
	return 0;
}

void *pthread_getspecific(libc_pthread_key_t key)
{
	if (key >= KEY_SLOTS || !keys[key].used) {
		return NULL;
	}
	return (void *)keys[key].value;
}

int pthread_setspecific(libc_pthread_key_t key, const void *value)
{
	if (key >= KEY_SLOTS || !keys[key].used) {
		return LIBC_EINVAL;
	}
	keys[key].value = value;
	return 0;
}

unsigned long pthread_self(void)
{
	return 1;
}

int pthread_rwlock_init(void *lock, const void *attr)
{
	(void)lock;
	(void)attr;
	return 0;
}

int pthread_rwlock_destroy(void *lock)
{
	(void)lock;
	return 0;
}

int pthread_rwlock_rdlock(void *lock)
{
	(void)lock;
	return 0;
}

int pthread_rwlock_wrlock(void *lock)
{
	(void)lock;
	return 0;
}

int pthread_rwlock_unlock(void *lock)
{
	(void)lock;
	return 0;
}
