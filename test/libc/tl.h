/* SPDX-License-Identifier: MIT */
/*
 * The libc layer as the hosted tests see it: its functions under their
 * tl_ names (test/libc/rename.h), declared here with glibc's types.
 */
#ifndef TEST_LIBC_TL_H
#define TEST_LIBC_TL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

size_t tl_strlen(const char *s);
int tl_strcmp(const char *a, const char *b);
int tl_strncmp(const char *a, const char *b, size_t n);
char *tl_strcpy(char *d, const char *s);
char *tl_strncpy(char *d, const char *s, size_t n);
char *tl_strcat(char *d, const char *s);
char *tl_strchr(const char *s, int c);
char *tl_strrchr(const char *s, int c);
char *tl_strstr(const char *h, const char *n);
size_t tl_strspn(const char *s, const char *a);
size_t tl_strcspn(const char *s, const char *r);
char *tl_strtok(char *s, const char *d);
char *tl_strdup(const char *s);
void *tl_memchr(const void *s, int c, size_t n);
void *tl_memcpy(void *d, const void *s, size_t n);
void *tl_memmove(void *d, const void *s, size_t n);
void *tl_memset(void *d, int c, size_t n);
int tl_memcmp(const void *a, const void *b, size_t n);
const unsigned short **tl___ctype_b_loc(void);
const int32_t **tl___ctype_tolower_loc(void);
long tl_strtol(const char *s, char **end, int base);
unsigned long tl_strtoul(const char *s, char **end, int base);
void tl_qsort(void *b, size_t n, size_t sz,
	      int (*c)(const void *, const void *));
int *tl___errno_location(void);
int tl___snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt,
		      ...);
int tl___asprintf_chk(char **out, int flag, const char *fmt, ...);
struct tm *tl_gmtime_r(const time_t *t, struct tm *tm);
int tl_clock_gettime(int clk, struct timespec *ts);
time_t tl_time(time_t *t);

void *tl_malloc(size_t n);
void *tl_calloc(size_t n, size_t sz);
void *tl_realloc(void *p, size_t n);
void tl_free(void *p);
int tl__setjmp(uint64_t *env);
void tl__longjmp(uint64_t *env, int val) __attribute__((noreturn));
void tl___longjmp_chk(uint64_t *env, int val) __attribute__((noreturn));
int tl_pthread_once(int *once, void (*init)(void));
int tl_pthread_key_create(unsigned *key, void (*dtor)(void *));
int tl_pthread_key_delete(unsigned key);
void *tl_pthread_getspecific(unsigned key);
int tl_pthread_setspecific(unsigned key, const void *v);
int tl_getentropy(void *buf, size_t n);
long tl_syscall(long nr, ...);
long tl_sysconf(int name);
char *tl_getenv(const char *name);
void *tl_fopen(const char *path, const char *mode);
extern void *tl_stderr;
extern void *tl_stdin;
int tl_fputs(const char *s, void *f);
int tl___fprintf_chk(void *f, int flag, const char *fmt, ...);
int tl___dprintf_chk(int fd, int flag, const char *fmt, ...);
char *tl_fgets(char *s, int n, void *f);
int tl___isoc99_sscanf(const char *s, const char *fmt, ...);
void *tl___memcpy_chk(void *d, const void *s, size_t n, size_t dlen);
void tl_abort(void) __attribute__((noreturn));
void tl___assert_fail(const char *e, const char *f, unsigned l, const char *fn)
	__attribute__((noreturn));
uint64_t tl_libc_unsupported_calls(void);

#endif
