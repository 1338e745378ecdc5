/* SPDX-License-Identifier: MIT */
/*
 * The few C library functions the SVSM core uses. Hosted builds take them
 * from the C library; the firmware from src/libc/ (string.c).
 */
#ifndef SVSM_STD_H
#define SVSM_STD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if __STDC_HOSTED__
#include <string.h>
#else
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + ((a)-1)) & ~((a)-1))
#define IS_ALIGNED(x, a) (((x) & ((a)-1)) == 0)

/** Whether the @n bytes at @p are all zero. */
static inline bool mem_all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		if (b[i] != 0) {
			return false;
		}
	}
	return true;
}

/** Bounded formatter: %s %c %d %u %x %lx %llx %lu %llu %ld %p and widths. */
int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* SVSM_STD_H */
