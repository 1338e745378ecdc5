/* SPDX-License-Identifier: MIT */
/*
 * The libc layer's runtime parts: the heap on the SVSM's allocators,
 * setjmp/longjmp, pthread once/keys, entropy, and the safe failure of
 * everything the SVSM does not offer (files, sockets, ...). Broken
 * invariants (double free, fortify overflow, abort, assert) must reach
 * the fatal hook, never return or corrupt memory.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/mem.h"

#include "../framework/test.h"
#include "../libc/tl.h"

/* ---- the hooks the firmware's svsm_hooks.c provides ---- */

static bool entropy_fails;
static unsigned entropy_calls;
static char log_text[256];
static jmp_buf fatal_jump;
static bool fatal_armed;
static const char *fatal_what;

void libc_hook_log(const char *s, size_t len);
bool libc_hook_entropy(void *buf, size_t len);
uint64_t libc_hook_clock_ns(void);
void libc_hook_fatal(const char *what, const char *detail)
	__attribute__((noreturn));

void libc_hook_log(const char *s, size_t len)
{
	size_t used = strlen(log_text);
	size_t n = len < sizeof(log_text) - 1 - used
			   ? len
			   : sizeof(log_text) - 1 - used;

	memcpy(log_text + used, s, n);
	log_text[used + n] = '\0';
}

bool libc_hook_entropy(void *buf, size_t len)
{
	entropy_calls++;
	memset(buf, 0x5a, len);
	return !entropy_fails;
}

uint64_t libc_hook_clock_ns(void)
{
	return 3000000123ull;
}

void libc_hook_fatal(const char *what, const char *detail)
{
	(void)detail;
	fatal_what = what;
	if (!fatal_armed) {
		abort();
	}
	fatal_armed = false;
	longjmp(fatal_jump, 1);
}

/* Runs @fn and reports whether it reached the fatal hook. */
#define REACHES_FATAL(stmt)                                                    \
	({                                                                     \
		bool reached_ = false;                                         \
		fatal_what = NULL;                                             \
		fatal_armed = true;                                            \
		if (setjmp(fatal_jump) == 0) {                                 \
			stmt;                                                  \
		} else {                                                       \
			reached_ = true;                                       \
		}                                                              \
		fatal_armed = false;                                           \
		reached_;                                                      \
	})

/* The SVSM heap the layer's malloc() sits on: 8 MiB of host memory. */
static void *heap_setup(void)
{
	size_t bytes = 8u << 20;
	void *heap = aligned_alloc(4u << 20, bytes);

	if (heap == NULL ||
	    mem_init(heap, bytes, gpa_init(0x10000000)) != SVSM_OK) {
		test_fail(__FILE__, __LINE__, true, "no test heap");
	}
	test_defer(free, heap);
	return heap;
}

TEST(libc, heap_blocks_are_aligned_zeroed_and_returned)
{
	void *blocks[64];
	uint64_t before;

	heap_setup();
	before = mem_heap_free_pages();
	for (size_t i = 0; i < 64; i++) {
		size_t n = (i * 977) % 70000 + 1; /* slab and page sizes */
		unsigned char *p = tl_malloc(n);

		ASSERT_TRUE(p != NULL);
		EXPECT_EQ((uintptr_t)p % 16, 0);
		for (size_t k = 0; k < n; k += 97) {
			EXPECT_EQ(p[k], 0);
		}
		memset(p, (int)i, n);
		blocks[i] = p;
	}
	for (size_t i = 0; i < 64; i++) {
		tl_free(blocks[i]);
	}
	tl_free(NULL);
	EXPECT_EQ(mem_heap_free_pages(), before);
}

TEST(libc, realloc_and_calloc_keep_c_semantics)
{
	unsigned char *p;
	unsigned char *q;

	heap_setup();
	p = tl_realloc(NULL, 10);
	ASSERT_TRUE(p != NULL);
	memcpy(p, "0123456789", 10);
	q = tl_realloc(p, 5000); /* slab to pages: contents move */
	ASSERT_TRUE(q != NULL);
	EXPECT_EQ(memcmp(q, "0123456789", 10), 0);
	EXPECT_EQ(q[4999], 0);
	p = tl_realloc(q, 4); /* shrinking keeps the block */
	EXPECT_TRUE(p == q);
	tl_free(p);

	errno = 0;
	*tl___errno_location() = 0;
	EXPECT_TRUE(tl_calloc(SIZE_MAX / 2, 3) == NULL); /* overflow */
	EXPECT_EQ(*tl___errno_location(), ENOMEM);
	EXPECT_TRUE(tl_malloc(SIZE_MAX - 8) == NULL);
	EXPECT_TRUE(tl_malloc(64u << 20) == NULL); /* more than the heap */
	p = tl_calloc(100, 7);
	ASSERT_TRUE(p != NULL);
	EXPECT_EQ(p[699], 0);
	tl_free(p);
}

TEST(libc, heap_strings_strdup_asprintf)
{
	char *s = NULL;
	char *d;

	heap_setup();
	EXPECT_EQ(tl___asprintf_chk(&s, 1, "%d-%s", 7, "seven"), 7);
	ASSERT_TRUE(s != NULL);
	EXPECT_EQ(strcmp(s, "7-seven"), 0);
	d = tl_strdup(s);
	ASSERT_TRUE(d != NULL && d != s);
	EXPECT_EQ(strcmp(d, "7-seven"), 0);
	tl_free(s);
	tl_free(d);
}

/* A corrupted heap is worse than a stopped SVSM: both are fatal. */
TEST(libc, bad_frees_and_overflows_are_fatal)
{
	char *p;
	char small[8];
	char other[32] = {0};

	heap_setup();
	p = tl_malloc(40);
	ASSERT_TRUE(p != NULL);
	tl_free(p);
	EXPECT_TRUE(REACHES_FATAL(tl_free(p)));
	EXPECT_TRUE(REACHES_FATAL(tl_free(other + 16)));
	EXPECT_TRUE(REACHES_FATAL(tl_realloc(other + 16, 8)));
	EXPECT_TRUE(REACHES_FATAL(tl___memcpy_chk(small, other, 9, 8)));
	EXPECT_TRUE(REACHES_FATAL(
		tl___snprintf_chk(small, 16, 1, sizeof(small), "x")));
	EXPECT_TRUE(REACHES_FATAL(tl_abort()));
	EXPECT_TRUE(REACHES_FATAL(tl___assert_fail("x", "f.c", 1, "fn")));
	EXPECT_TRUE(fatal_what != NULL);
	EXPECT_TRUE(tl___memcpy_chk(small, other, 8, 8) == small);
}

/*
 * libtpms' failure mode: setjmp at the command entry, longjmp on error.
 * Not under ASan: it intercepts glibc's longjmp only, and ours leaves its
 * stack poisoning behind.
 */
#if !defined(__SANITIZE_ADDRESS__)
static uint64_t jump_env[25];
static int depth_reached;

static __attribute__((noinline)) void fail_deep(int depth)
{
	volatile char pad[256];

	pad[0] = (char)depth;
	depth_reached = depth + pad[0] - pad[0];
	if (depth == 5) {
		tl___longjmp_chk(jump_env, 0);
	}
	if (depth < 10) {
		fail_deep(depth + 1);
	}
}

TEST(libc, setjmp_longjmp_unwind_like_glibc)
{
	volatile int calls = 0;
	register long kept = 0x1234;
	int r = tl__setjmp(jump_env);

	calls++;
	if (r == 0) {
		fail_deep(0);
		test_fail(__FILE__, __LINE__, true, "longjmp returned");
	}
	EXPECT_EQ(r, 1); /* longjmp(env, 0) makes setjmp return 1 */
	EXPECT_EQ(calls, 2);
	EXPECT_EQ(depth_reached, 5);
	EXPECT_EQ(kept, 0x1234);
	if (tl__setjmp(jump_env) == 0) {
		tl__longjmp(jump_env, 42);
	}
}
#endif

static int once_runs;

static void once_init(void)
{
	once_runs++;
}

TEST(libc, pthread_once_and_keys)
{
	int once = 0;
	unsigned k1;
	unsigned k2;
	int value = 7;

	EXPECT_EQ(tl_pthread_once(&once, once_init), 0);
	EXPECT_EQ(tl_pthread_once(&once, once_init), 0);
	EXPECT_EQ(once_runs, 1);
	ASSERT_EQ(tl_pthread_key_create(&k1, NULL), 0);
	ASSERT_EQ(tl_pthread_key_create(&k2, NULL), 0);
	EXPECT_NE(k1, k2);
	EXPECT_TRUE(tl_pthread_getspecific(k1) == NULL);
	EXPECT_EQ(tl_pthread_setspecific(k1, &value), 0);
	EXPECT_TRUE(tl_pthread_getspecific(k1) == &value);
	EXPECT_TRUE(tl_pthread_getspecific(k2) == NULL);
	EXPECT_EQ(tl_pthread_key_delete(k1), 0);
	EXPECT_EQ(tl_pthread_key_delete(k2), 0);
	EXPECT_EQ(tl_pthread_key_delete(k2), EINVAL);
	EXPECT_EQ(tl_pthread_setspecific(999, &value), EINVAL);
}

TEST(libc, entropy_comes_from_the_platform_or_fails)
{
	unsigned char buf[300];

	entropy_fails = false;
	entropy_calls = 0;
	EXPECT_EQ(tl_getentropy(buf, 32), 0);
	EXPECT_EQ(buf[31], 0x5a);
	EXPECT_EQ(tl_getentropy(buf, 257), -1); /* POSIX's limit */
	EXPECT_EQ(*tl___errno_location(), EIO);
	EXPECT_EQ(tl_syscall(318, buf, (size_t)300, 0), 256);
	EXPECT_EQ(tl_syscall(39 /* getpid */), -1);
	EXPECT_EQ(*tl___errno_location(), ENOSYS);
	entropy_fails = true;
	EXPECT_EQ(tl_getentropy(buf, 16), -1);
	EXPECT_EQ(*tl___errno_location(), EIO);
	EXPECT_EQ(tl_syscall(318, buf, (size_t)16, 0), -1);
	entropy_fails = false;
	EXPECT_EQ(entropy_calls, 4u);
}

TEST(libc, unsupported_functions_fail_safely)
{
	char line[16] = "unchanged";
	uint64_t before = tl_libc_unsupported_calls();
	int n = 0;
	struct timespec ts;

	EXPECT_TRUE(tl_fopen("/usr/lib/ssl/openssl.cnf", "r") == NULL);
	EXPECT_EQ(*tl___errno_location(), ENOENT);
	EXPECT_TRUE(tl_getenv("OPENSSL_CONF") == NULL);
	EXPECT_TRUE(tl_fgets(line, sizeof(line), tl_stdin) == NULL);
	EXPECT_EQ(tl___isoc99_sscanf("12", "%d", &n), -1);
	EXPECT_EQ(n, 0);
	EXPECT_EQ(tl_sysconf(30 /* _SC_PAGESIZE */), 4096);
	EXPECT_EQ(tl_sysconf(2 /* _SC_CLK_TCK */), -1);
	EXPECT_EQ(tl_libc_unsupported_calls(), before + 2);
	EXPECT_EQ(tl_clock_gettime(1, &ts), 0);
	EXPECT_EQ(ts.tv_sec, 3);
	EXPECT_EQ(ts.tv_nsec, 123);
	EXPECT_EQ(tl_clock_gettime(99, &ts), -1);
	EXPECT_EQ(tl_time(NULL), 3);
}

/* The symbol families libcrypto and libtpms reference but never need. */
int tl_socket(int d, int t, int p);
int tl_open(const char *path, int flags, ...);
long tl_read(int fd, void *b, size_t n);
void *tl_mmap(void *a, size_t l, int p, int f, int fd, long o);
void *tl_dlopen(const char *f, int m);
int tl_getaddrinfo(const char *n, const char *s, const void *h, void **r);
int tl_getcontext(void *u);
void *(*tl_signal(int s, void *(*h)(int)))(int);
int tl_sigaction(int s, const void *a, void *o);
int tl_shmget(int k, size_t s, int f);
void *tl_opendir(const char *p);
int tl_uname(void *b);

TEST(libc, unsupported_families_return_posix_errors)
{
	void *res = &res;
	uint64_t before = tl_libc_unsupported_calls();

	EXPECT_EQ(tl_socket(2, 1, 0), -1);
	EXPECT_EQ(*tl___errno_location(), EAFNOSUPPORT);
	EXPECT_EQ(tl_open("/dev/urandom", 0), -1);
	EXPECT_EQ(*tl___errno_location(), ENOENT);
	EXPECT_EQ(tl_read(0, &res, 1), -1);
	EXPECT_EQ(*tl___errno_location(), EBADF);
	EXPECT_TRUE(tl_mmap(NULL, 4096, 3, 0x22, -1, 0) == (void *)-1);
	EXPECT_TRUE(tl_dlopen("libfoo.so", 1) == NULL);
	EXPECT_NE(tl_getaddrinfo("localhost", "80", NULL, &res), 0);
	EXPECT_TRUE(res == NULL);
	EXPECT_EQ(tl_getcontext(&res), -1);
	EXPECT_TRUE((void *)tl_signal(2, NULL) == (void *)-1);
	EXPECT_EQ(tl_sigaction(2, NULL, NULL), -1);
	EXPECT_EQ(tl_shmget(1, 4096, 0), -1);
	EXPECT_TRUE(tl_opendir("/") == NULL);
	EXPECT_EQ(tl_uname(&res), -1);
	EXPECT_EQ(tl_libc_unsupported_calls(), before + 12);
}

TEST(libc, stderr_goes_to_the_log)
{
	log_text[0] = '\0';
	EXPECT_EQ(tl_fputs("lib says ", tl_stderr), 0);
	EXPECT_EQ(tl___fprintf_chk(tl_stderr, 1, "%d %s", 42, "hi"), 5);
	EXPECT_EQ(tl___dprintf_chk(2, 1, "!"), 1);
	EXPECT_EQ(tl___dprintf_chk(7, 1, "lost"), -1);
	EXPECT_EQ(strcmp(log_text, "lib says 42 hi!"), 0);
}
