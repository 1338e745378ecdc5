/* SPDX-License-Identifier: MIT */
/* The firmware's <stdlib.h>: what csvsm's own code uses of it. */
#ifndef CSVSM_LIBC_STDLIB_H
#define CSVSM_LIBC_STDLIB_H
#include <stddef.h>
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);
void abort(void) __attribute__((noreturn));
#endif
