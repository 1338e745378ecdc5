/* SPDX-License-Identifier: MIT */
/*
 * stdio without files. stdout and stderr are the SVSM log (diagnostics of
 * the linked libraries; OpenSSL and libtpms print nothing in normal
 * operation); stdin is always at end of file; fopen() finds nothing (the
 * only caller reached at run time is OpenSSL looking for openssl.cnf,
 * which it treats as absent). Formatting is src/lib/fmt.c's, so an
 * unsupported conversion truncates output instead of misreading
 * arguments.
 *
 * The glibc fortify entry points (__*_chk) check the buffer size the
 * compiler knew against the one passed, as glibc does; a mismatch is a
 * broken invariant of the caller and panics.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/std.h"

#include "libc_internal.h"

#define LIBC_EOF (-1)
#define LINE_MAX_OUT 512u

struct libc_file {
	int fd;
};

typedef struct libc_file LIBC_FILE;

static LIBC_FILE file_stdin = {0};
static LIBC_FILE file_stdout = {1};
static LIBC_FILE file_stderr = {2};
LIBC_FILE *stdin = &file_stdin;
LIBC_FILE *stdout = &file_stdout;
LIBC_FILE *stderr = &file_stderr;

void *malloc(size_t n);

LIBC_FILE *fopen(const char *path, const char *mode);
LIBC_FILE *fopen64(const char *path, const char *mode);
int fclose(LIBC_FILE *f);
int feof(LIBC_FILE *f);
int ferror(LIBC_FILE *f);
int fflush(LIBC_FILE *f);
int fileno(LIBC_FILE *f);
char *fgets(char *s, int n, LIBC_FILE *f);
size_t fread(void *p, size_t size, size_t n, LIBC_FILE *f);
size_t fwrite(const void *p, size_t size, size_t n, LIBC_FILE *f);
int fputc(int c, LIBC_FILE *f);
int fputs(const char *s, LIBC_FILE *f);
int fseek(LIBC_FILE *f, long off, int whence);
long ftell(LIBC_FILE *f);
int remove(const char *path);
void perror(const char *s);
int __isoc99_sscanf(const char *s, const char *fmt, ...);
int __vfprintf_chk(LIBC_FILE *f, int flag, const char *fmt, va_list ap);
int __fprintf_chk(LIBC_FILE *f, int flag, const char *fmt, ...);
int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap);
int __dprintf_chk(int fd, int flag, const char *fmt, ...);
int __vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt,
		    va_list ap);
int __snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt,
		   ...);
int __asprintf_chk(char **out, int flag, const char *fmt, ...);

/* Only the log streams can be written; any other FILE is not ours. */
static bool is_log_fd(int fd)
{
	return fd == 1 || fd == 2;
}

static bool is_log(const LIBC_FILE *f)
{
	return f == stdout || f == stderr;
}

LIBC_FILE *fopen(const char *path, const char *mode)
{
	(void)path;
	(void)mode;
	libc_note_unsupported("fopen");
	libc_set_errno(LIBC_ENOENT);
	return NULL;
}

LIBC_FILE *fopen64(const char *path, const char *mode)
{
	return fopen(path, mode);
}

int fclose(LIBC_FILE *f)
{
	(void)f;
	libc_set_errno(LIBC_EBADF);
	return LIBC_EOF;
}

int feof(LIBC_FILE *f)
{
	return f == stdin;
}

int ferror(LIBC_FILE *f)
{
	(void)f;
	return 0;
}

int fflush(LIBC_FILE *f)
{
	(void)f;
	return 0;
}

int fileno(LIBC_FILE *f)
{
	if (f == stdin || is_log(f)) {
		return f->fd;
	}
	libc_set_errno(LIBC_EBADF);
	return -1;
}

char *fgets(char *s, int n, LIBC_FILE *f)
{
	(void)s;
	(void)n;
	(void)f;
	return NULL; /* end of file, nothing read */
}

size_t fread(void *p, size_t size, size_t n, LIBC_FILE *f)
{
	(void)p;
	(void)size;
	(void)n;
	(void)f;
	return 0;
}

size_t fwrite(const void *p, size_t size, size_t n, LIBC_FILE *f)
{
	size_t bytes;

	if (!is_log(f)) {
		libc_set_errno(LIBC_EBADF);
		return 0;
	}
	if (__builtin_mul_overflow(size, n, &bytes)) {
		libc_set_errno(LIBC_EINVAL);
		return 0;
	}
	libc_hook_log(p, bytes);
	return n;
}

int fputc(int c, LIBC_FILE *f)
{
	char ch = (char)c;

	return fwrite(&ch, 1, 1, f) == 1 ? (unsigned char)c : LIBC_EOF;
}

int fputs(const char *s, LIBC_FILE *f)
{
	size_t n = 0;

	while (s[n] != '\0') {
		n++;
	}
	return fwrite(s, 1, n, f) == n ? 0 : LIBC_EOF;
}

int fseek(LIBC_FILE *f, long off, int whence)
{
	(void)f;
	(void)off;
	(void)whence;
	libc_set_errno(LIBC_EBADF);
	return -1;
}

long ftell(LIBC_FILE *f)
{
	(void)f;
	libc_set_errno(LIBC_EBADF);
	return -1;
}

int remove(const char *path)
{
	(void)path;
	libc_note_unsupported("remove");
	libc_set_errno(LIBC_ENOENT);
	return -1;
}

void perror(const char *s)
{
	if (s != NULL && s[0] != '\0') {
		fputs(s, stderr);
		fputs(": ", stderr);
	}
	fputs("error\n", stderr);
}

/* No caller parses input in the SVSM: report an input failure (EOF). */
int __isoc99_sscanf(const char *s, const char *fmt, ...)
{
	(void)s;
	(void)fmt;
	libc_note_unsupported("sscanf");
	return LIBC_EOF;
}

/* Formats into a bounded line and logs it; returns the full length. */
static int log_vprintf(const char *fmt, va_list ap)
{
	char line[LINE_MAX_OUT];
	int n = fmt_vsnprintf(line, sizeof(line), fmt, ap);
	size_t shown = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;

	libc_hook_log(line, shown);
	return n;
}

int __vfprintf_chk(LIBC_FILE *f, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	if (!is_log(f)) {
		libc_set_errno(LIBC_EBADF);
		return -1;
	}
	return log_vprintf(fmt, ap);
}

int __fprintf_chk(LIBC_FILE *f, int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = __vfprintf_chk(f, flag, fmt, ap);
	va_end(ap);
	return n;
}

int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	if (!is_log_fd(fd)) {
		libc_set_errno(LIBC_EBADF);
		return -1;
	}
	return log_vprintf(fmt, ap);
}

int __dprintf_chk(int fd, int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = __vdprintf_chk(fd, flag, fmt, ap);
	va_end(ap);
	return n;
}

int __vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt,
		    va_list ap)
{
	(void)flag;
	if (n > slen) {
		libc_hook_fatal("vsnprintf", "buffer smaller than its size");
	}
	return fmt_vsnprintf(s, n, fmt, ap);
}

int __snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt,
		   ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = __vsnprintf_chk(s, n, flag, slen, fmt, ap);
	va_end(ap);
	return r;
}

int __asprintf_chk(char **out, int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	(void)flag;
	va_start(ap, fmt);
	n = fmt_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*out = n < 0 ? NULL : malloc((size_t)n + 1);
	if (*out == NULL) {
		return -1;
	}
	va_start(ap, fmt);
	fmt_vsnprintf(*out, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return n;
}
