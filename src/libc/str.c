/* SPDX-License-Identifier: MIT */
/*
 * NUL-terminated string functions for the linked libraries, with C's
 * semantics exactly (the tests compare them with glibc's). strtok keeps
 * its position in a static: callers are serialised.
 */
#include <stddef.h>

#include "libc_internal.h"

void *malloc(size_t n);
void *memcpy(void *dst, const void *src, size_t n);

size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strtok(char *s, const char *delim);
char *strdup(const char *s);
void *memchr(const void *s, int c, size_t n);

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0') {
		n++;
	}
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char x = (unsigned char)a[i];
		unsigned char y = (unsigned char)b[i];

		if (x != y) {
			return x < y ? -1 : 1;
		}
		if (x == '\0') {
			break;
		}
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

char *strcpy(char *dst, const char *src)
{
	return memcpy(dst, src, strlen(src) + 1);
}

/* C's strncpy: pads with NULs to @n and does not terminate a long @src. */
char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i] != '\0'; i++) {
		dst[i] = src[i];
	}
	for (; i < n; i++) {
		dst[i] = '\0';
	}
	return dst;
}

char *strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c) {
			return (char *)s;
		}
		if (*s == '\0') {
			return NULL;
		}
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c) {
			last = s;
		}
		if (*s == '\0') {
			return (char *)last;
		}
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay != '\0' || n == 0; hay++) {
		if (strncmp(hay, needle, n) == 0) {
			return (char *)hay;
		}
	}
	return NULL;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] != '\0' && strchr(accept, s[n]) != NULL) {
		n++;
	}
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] != '\0' && strchr(reject, s[n]) == NULL) {
		n++;
	}
	return n;
}

char *strtok(char *s, const char *delim)
{
	static char *next;
	char *tok;

	if (s == NULL) {
		s = next;
	}
	if (s == NULL) {
		return NULL;
	}
	s += strspn(s, delim);
	if (*s == '\0') {
		next = NULL;
		return NULL;
	}
	tok = s;
	s += strcspn(s, delim);
	if (*s == '\0') {
		next = NULL;
	} else {
		*s = '\0';
		next = s + 1;
	}
	return tok;
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d == NULL) {
		libc_set_errno(LIBC_ENOMEM);
		return NULL;
	}
	return memcpy(d, s, n);
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == (unsigned char)c) {
			return (void *)(p + i);
		}
	}
	return NULL;
}
