/* SPDX-License-Identifier: MIT */
/*
 * The C library's memory functions for the firmware (hosted builds use the
 * C library's). GCC may emit calls to these for struct copies and
 * initialisers even where the source has none. Simple byte loops, with
 * "rep" string instructions where they are the natural form on x86-64.
 */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* Quadwords first, then the tail: rep movsb is slow under emulation. */
void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;
	size_t q = n / 8;
	size_t b = n % 8;

	__asm__ volatile("rep movsq\n\t"
			 "mov %3, %%rcx\n\t"
			 "rep movsb"
			 : "+D"(d), "+S"(src), "+c"(q)
			 : "r"(b)
			 : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n) {
		return memcpy(dst, src, n);
	}
	while (n-- != 0) {
		d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint64_t pattern = 0x0101010101010101ull * (unsigned char)c;
	void *d = dst;
	size_t q = n / 8;
	size_t b = n % 8;

	__asm__ volatile("rep stosq\n\t"
			 "mov %3, %%rcx\n\t"
			 "rep stosb"
			 : "+D"(d), "+c"(q), "+a"(pattern)
			 : "r"(b)
			 : "memory");
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a;
	const unsigned char *q = b;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] != q[i]) {
			return p[i] < q[i] ? -1 : 1;
		}
	}
	return 0;
}
