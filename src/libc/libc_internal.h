/* SPDX-License-Identifier: MIT */
/*
 * The firmware's C library layer: what Debian's libtpms.a and libcrypto.a
 * (hosted x86-64 SysV objects) need from glibc, 140 symbols. Each is
 * either implemented for real (memory, strings, numbers, ctype, heap,
 * setjmp/longjmp, single-threaded pthread, entropy, time, formatted
 * output to the SVSM log) or fails the way POSIX lets it fail (files,
 * sockets, dynamic loading, signals, processes): -1 with errno, or NULL.
 *
 * Concurrency: callers are serialised by the vTPM lock; nothing here is
 * thread-safe except the heap (mem.c's lock).
 *
 * The layer reaches the SVSM only through the four hooks below
 * (svsm_hooks.c in the firmware; the tests provide their own), so that it
 * can be tested hosted against glibc as the reference.
 */
#ifndef CSVSM_LIBC_INTERNAL_H
#define CSVSM_LIBC_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/libc.h"

/* Linux's errno values: the archives were compiled against them. */
#define LIBC_ENOENT 2
#define LIBC_EINTR 4
#define LIBC_EIO 5
#define LIBC_EBADF 9
#define LIBC_ENOMEM 12
#define LIBC_EACCES 13
#define LIBC_EINVAL 22
#define LIBC_ERANGE 34
#define LIBC_ENOSYS 38
#define LIBC_EOVERFLOW 75
#define LIBC_EAFNOSUPPORT 97

void libc_set_errno(int e);

/** Count a call to a function that can only fail here (for tests, log). */
void libc_note_unsupported(const char *name);

/* ---- hooks: provided by the SVSM (svsm_hooks.c) or a test ---- */

/** Write diagnostic text (a library's stderr) to the SVSM log. */
void libc_hook_log(const char *s, size_t len);
/** Fill @buf from the platform's entropy source; false if it failed. */
bool libc_hook_entropy(void *buf, size_t len);
/** Nanoseconds of a monotonic clock (wall time is not trusted here). */
uint64_t libc_hook_clock_ns(void);
/** A library found a broken invariant (assert, abort, fortify check). */
void libc_hook_fatal(const char *what, const char *detail)
	__attribute__((noreturn));

#endif /* CSVSM_LIBC_INTERNAL_H */
