/* SPDX-License-Identifier: MIT */
/*
 * csvsm's test vocabulary: TEST(suite, name), ASSERT_* (stop the test) and
 * EXPECT_* (record and go on). Tests register themselves; the runner prints
 * one line per failure or skip and closes with "N passed, M failed" (and
 * ", K skipped" when tests were).
 * Usage: csvsm-tests [substring]  runs the tests whose "suite.name" matches.
 */
#ifndef TEST_FRAMEWORK_TEST_H
#define TEST_FRAMEWORK_TEST_H

#include <stdbool.h>
#include <stdint.h>

struct test_case {
	const char *suite;
	const char *name;
	void (*fn)(void);
	struct test_case *next;
};

void test_register(struct test_case *tc);
/** Record a failure; if @fatal, leave the test now. */
void test_fail(const char *file, int line, bool fatal, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/** Leave the current test now, counted as skipped (not passed), because
 * @why: what this build cannot run. */
void test_skip(const char *why) __attribute__((noreturn));
/** Run @fn(@arg) when the current test ends, whether it passed or not. */
void test_defer(void (*fn)(void *), void *arg);
/** A seed for randomized tests: TEST_SEED from the environment, or fixed. */
uint64_t test_seed(void);

#define TEST(suite, name)                                                      \
	static void test_##suite##_##name(void);                               \
	static struct test_case test_case_##suite##_##name = {                 \
		#suite, #name, test_##suite##_##name, 0};                      \
	__attribute__((                                                        \
		constructor)) static void test_register_##suite##_##name(void) \
	{                                                                      \
		test_register(&test_case_##suite##_##name);                    \
	}                                                                      \
	static void test_##suite##_##name(void)

#define TEST_CMP_(fatal, a, op, b)                                             \
	do {                                                                   \
		unsigned long long test_a_ = (unsigned long long)(a);          \
		unsigned long long test_b_ = (unsigned long long)(b);          \
		if (!(test_a_ op test_b_)) {                                   \
			test_fail(__FILE__, __LINE__, (fatal),                 \
				  "%s %s %s: 0x%llx vs 0x%llx", #a, #op, #b,   \
				  test_a_, test_b_);                           \
		}                                                              \
	} while (0)

#define ASSERT_EQ(a, b) TEST_CMP_(true, a, ==, b)
#define ASSERT_NE(a, b) TEST_CMP_(true, a, !=, b)
#define ASSERT_LT(a, b) TEST_CMP_(true, a, <, b)
#define ASSERT_LE(a, b) TEST_CMP_(true, a, <=, b)
#define EXPECT_EQ(a, b) TEST_CMP_(false, a, ==, b)
#define EXPECT_NE(a, b) TEST_CMP_(false, a, !=, b)
#define ASSERT_TRUE(c) TEST_CMP_(true, !!(c), ==, 1)
#define ASSERT_FALSE(c) TEST_CMP_(true, !!(c), ==, 0)
#define EXPECT_TRUE(c) TEST_CMP_(false, !!(c), ==, 1)
#define EXPECT_FALSE(c) TEST_CMP_(false, !!(c), ==, 0)

#endif /* TEST_FRAMEWORK_TEST_H */
