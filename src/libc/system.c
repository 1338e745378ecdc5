/* SPDX-License-Identifier: MIT */
/*
 * The process-level part of the C library: errno, the environment (empty:
 * OpenSSL and libtpms then use their built-in defaults), entropy, sysconf,
 * the fortify checks, and the fatal exits (abort, assert), which are
 * broken invariants of the linked code and end in the SVSM's panic.
 */
#include <stddef.h>
#include <stdint.h>

#include "libc_internal.h"

#define SYS_GETRANDOM 318 /* x86-64 Linux */
#define SC_PAGESIZE 30	  /* glibc's _SC_PAGESIZE */
#define SC_NPROCESSORS_ONLN 84
#define GETENTROPY_MAX 256u /* POSIX: larger requests fail with EIO */

static int libc_errno;
static uint64_t unsupported_calls;

int *__errno_location(void);
char *getenv(const char *name);
char *secure_getenv(const char *name);
long syscall(long nr, ...);
int getentropy(void *buf, size_t len);
long sysconf(int name);
void abort(void) __attribute__((noreturn));
void __assert_fail(const char *expr, const char *file, unsigned line,
		   const char *func) __attribute__((noreturn));
int atexit(void (*fn)(void));
int getpid(void);
char *strerror(int e);
int __xpg_strerror_r(int e, char *buf, size_t len);
void *__memcpy_chk(void *dst, const void *src, size_t n, size_t dstlen);
void *__memset_chk(void *dst, int c, size_t n, size_t dstlen);
long __fdelt_chk(long fd);
void libc_longjmp_bad(void) __attribute__((noreturn));

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

void libc_set_errno(int e)
{
	libc_errno = e;
}

int *__errno_location(void)
{
	return &libc_errno;
}

void libc_note_unsupported(const char *name)
{
	(void)name;
	unsupported_calls++;
}

uint64_t libc_unsupported_calls(void)
{
	return unsupported_calls;
}

char *getenv(const char *name)
{
	(void)name;
	return NULL;
}

char *secure_getenv(const char *name)
{
	(void)name;
	return NULL;
}

/* OpenSSL seeds its DRBG here; POSIX caps one request at 256 bytes. */
int getentropy(void *buf, size_t len)
{
	if (len > GETENTROPY_MAX) {
		libc_set_errno(LIBC_EIO);
		return -1;
	}
	if (!libc_hook_entropy(buf, len)) {
		libc_set_errno(LIBC_EIO);
		return -1;
	}
	return 0;
}

/*
 * Only getrandom(buf, len, flags) is a system call here (OpenSSL's
 * fallback when getentropy is absent); it returns at most 256 bytes per
 * call, as callers of the real one must already cope with short reads.
 */
long syscall(long nr, ...)
{
	__builtin_va_list ap;
	void *buf;
	size_t len;

	if (nr != SYS_GETRANDOM) {
		libc_note_unsupported("syscall");
		libc_set_errno(LIBC_ENOSYS);
		return -1;
	}
	__builtin_va_start(ap, nr);
	buf = __builtin_va_arg(ap, void *);
	len = __builtin_va_arg(ap, size_t);
	__builtin_va_end(ap);
	if (len > GETENTROPY_MAX) {
		len = GETENTROPY_MAX;
	}
	if (!libc_hook_entropy(buf, len)) {
		libc_set_errno(LIBC_EIO);
		return -1;
	}
	return (long)len;
}

long sysconf(int name)
{
	if (name == SC_PAGESIZE) {
		return 4096;
	}
	if (name == SC_NPROCESSORS_ONLN) {
		return 1; /* the libraries run on one CPU at a time */
	}
	libc_set_errno(LIBC_EINVAL);
	return -1;
}

void abort(void)
{
	libc_hook_fatal("abort", "called by a linked library");
}

void __assert_fail(const char *expr, const char *file, unsigned line,
		   const char *func)
{
	(void)file;
	(void)line;
	(void)func;
	libc_hook_fatal("assertion failed", expr);
}

void libc_longjmp_bad(void)
{
	libc_hook_fatal("longjmp", "target frame has returned");
}

/* The SVSM never exits, so exit handlers never run; accepting is honest. */
int atexit(void (*fn)(void))
{
	(void)fn;
	return 0;
}

int getpid(void)
{
	return 1;
}

/* One message for every code: callers only print it. */
char *strerror(int e)
{
	(void)e;
	return (char *)"error (no strerror in the SVSM)";
}

int __xpg_strerror_r(int e, char *buf, size_t len)
{
	const char *msg = strerror(e);
	size_t n = 0;

	if (len == 0) {
		return LIBC_ERANGE;
	}
	for (; msg[n] != '\0' && n + 1 < len; n++) {
		buf[n] = msg[n];
	}
	buf[n] = '\0';
	return msg[n] == '\0' ? 0 : LIBC_ERANGE;
}

void *__memcpy_chk(void *dst, const void *src, size_t n, size_t dstlen)
{
	if (n > dstlen) {
		libc_hook_fatal("memcpy", "copy larger than its destination");
	}
	return memcpy(dst, src, n);
}

void *__memset_chk(void *dst, int c, size_t n, size_t dstlen)
{
	if (n > dstlen) {
		libc_hook_fatal("memset", "fill larger than its destination");
	}
	return memset(dst, c, n);
}

/* FD_SET's index check: glibc's fd_set holds 1024 descriptors. */
long __fdelt_chk(long fd)
{
	if (fd < 0 || fd >= 1024) {
		libc_hook_fatal("FD_SET", "descriptor out of range");
	}
	return fd / 64;
}
