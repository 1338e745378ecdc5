/* SPDX-License-Identifier: MIT */
#include "test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_MAX_DEFERRED 16

static struct test_case *test_list;
static struct test_case *test_current;
static bool test_failed;
static bool test_skipped;
static jmp_buf test_jmp;
static struct {
	void (*fn)(void *);
	void *arg;
} deferred[TEST_MAX_DEFERRED];
static int deferred_count;

void test_register(struct test_case *tc)
{
	struct test_case **pp = &test_list;

	/* Keep registration order within and across files stable. */
	while (*pp != NULL) {
		pp = &(*pp)->next;
	}
	*pp = tc;
}

void test_fail(const char *file, int line, bool fatal, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s.%s (%s:%d): ", test_current->suite, test_current->name,
	       file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	test_failed = true;
	if (fatal) {
		longjmp(test_jmp, 1);
	}
}

void test_defer(void (*fn)(void *), void *arg)
{
	if (deferred_count == TEST_MAX_DEFERRED) {
		fprintf(stderr, "test_defer: too many deferred calls\n");
		abort();
	}
	deferred[deferred_count].fn = fn;
	deferred[deferred_count].arg = arg;
	deferred_count++;
}

uint64_t test_seed(void)
{
	const char *s = getenv("TEST_SEED");

	return s != NULL ? strtoull(s, NULL, 0) : 0x1234abcdull;
}

/* Run one test; kept apart from main() so setjmp() clobbers nothing. */
void test_skip(const char *why)
{
	printf("SKIP %s.%s: %s\n", test_current->suite, test_current->name,
	       why);
	test_skipped = true;
	longjmp(test_jmp, 1);
}

static bool run_one(struct test_case *tc)
{
	test_current = tc;
	test_failed = false;
	test_skipped = false;
	if (setjmp(test_jmp) == 0) {
		tc->fn();
	}
	return !test_failed;
}

static void run_deferred(void)
{
	while (deferred_count > 0) {
		deferred_count--;
		deferred[deferred_count].fn(deferred[deferred_count].arg);
	}
}

int main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	unsigned passed = 0;
	unsigned failed = 0;
	unsigned skipped = 0;
	struct test_case *tc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (tc = test_list; tc != NULL; tc = tc->next) {
		char full[256];

		snprintf(full, sizeof(full), "%s.%s", tc->suite, tc->name);
		if (filter != NULL && strstr(full, filter) == NULL) {
			continue;
		}
		bool ok = run_one(tc);

		run_deferred();
		if (ok && !test_failed && test_skipped) {
			skipped++;
		} else if (ok && !test_failed) {
			passed++;
		} else {
			failed++;
		}
	}
	if (skipped > 0) {
		printf("%u passed, %u failed, %u skipped\n", passed, failed,
		       skipped);
	} else {
		printf("%u passed, %u failed\n", passed, failed);
	}
	return failed == 0 && passed > 0 ? 0 : 1;
}
