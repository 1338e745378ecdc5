/* SPDX-License-Identifier: MIT */
/*
 * Numbers: strtol/strtoul with C's rules (base 0/2..36, prefixes, sign,
 * overflow clamps with ERANGE, *end at the first unused byte), a qsort that
 * needs no memory and no recursion (heapsort), and rand() for the rare
 * non-cryptographic use (never for keys: libcrypto's DRBG is seeded from
 * getentropy()).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libc_internal.h"

#define LONG_MAX __LONG_MAX__
#define LONG_MIN (-LONG_MAX - 1L)
#define ULONG_MAX (LONG_MAX * 2UL + 1UL)

long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
void qsort(void *base, size_t n, size_t size,
	   int (*cmp)(const void *, const void *));
int rand(void);
void srand(unsigned seed);

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'z') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'Z') {
		return c - 'A' + 10;
	}
	return 99;
}

/*
 * The magnitude of the number at @s, clamped to @limit (ERANGE). *neg gets
 * the sign and *over whether it was clamped; *end the first byte not used
 * (@s itself if there are no digits).
 */
static unsigned long parse_magnitude(const char *s, char **end, int base,
				     unsigned long limit, bool *neg, bool *over)
{
	const char *p = s;
	unsigned long v = 0;
	bool any = false;

	*neg = false;
	*over = false;
	if (base < 0 || base == 1 || base > 36) {
		libc_set_errno(LIBC_EINVAL);
		if (end != NULL) {
			*end = (char *)s;
		}
		return 0;
	}
	while (is_space(*p)) {
		p++;
	}
	if (*p == '+' || *p == '-') {
		*neg = *p == '-';
		p++;
	}
	if ((base == 0 || base == 16) && p[0] == '0' &&
	    (p[1] == 'x' || p[1] == 'X') && digit_value(p[2]) < 16) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = p[0] == '0' ? 8 : 10;
	}
	for (; digit_value(*p) < base; p++) {
		unsigned long d = (unsigned long)digit_value(*p);

		any = true;
		if (v > (limit - d) / (unsigned long)base) {
			*over = true;
		} else {
			v = v * (unsigned long)base + d;
		}
	}
	if (end != NULL) {
		*end = (char *)(any ? p : s);
	}
	if (*over) {
		libc_set_errno(LIBC_ERANGE);
		return limit;
	}
	return v;
}

long strtol(const char *s, char **end, int base)
{
	bool neg;
	bool over;
	/* Peek the sign first: the negative limit is one larger. */
	const char *p = s;

	while (is_space(*p)) {
		p++;
	}
	unsigned long limit = *p == '-' ? (unsigned long)LONG_MAX + 1
					: (unsigned long)LONG_MAX;
	unsigned long m = parse_magnitude(s, end, base, limit, &neg, &over);

	if (neg) {
		return m == (unsigned long)LONG_MAX + 1 ? LONG_MIN : -(long)m;
	}
	return (long)m;
}

/* C's strtoul: a leading '-' negates the value modulo 2^64. */
unsigned long strtoul(const char *s, char **end, int base)
{
	bool neg;
	bool over;
	unsigned long m = parse_magnitude(s, end, base, ULONG_MAX, &neg, &over);

	if (over) {
		return m;
	}
	return neg ? (unsigned long)0 - m : m;
}

static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		unsigned char t = a[i];

		a[i] = b[i];
		b[i] = t;
	}
}

static void sift_down(unsigned char *base, size_t root, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n) {
			return;
		}
		if (child + 1 < n &&
		    cmp(base + child * size, base + (child + 1) * size) < 0) {
			child++;
		}
		if (cmp(base + root * size, base + child * size) >= 0) {
			return;
		}
		swap_bytes(base + root * size, base + child * size, size);
		root = child;
	}
}

void qsort(void *base, size_t n, size_t size,
	   int (*cmp)(const void *, const void *))
{
	unsigned char *b = base;

	if (n < 2 || size == 0) {
		return;
	}
	for (size_t i = n / 2; i-- > 0;) {
		sift_down(b, i, n, size, cmp);
	}
	for (size_t end = n - 1; end > 0; end--) {
		swap_bytes(b, b + end * size, size);
		sift_down(b, 0, end, size, cmp);
	}
}

static uint64_t rand_state = 1;

void srand(unsigned seed)
{
	rand_state = seed;
}

/* A 64-bit LCG (Knuth's MMIX constants); the high bits are returned. */
int rand(void)
{
	rand_state =
		rand_state * 6364136223846793005ull + 1442695040888963407ull;
	return (int)(rand_state >> 33);
}
