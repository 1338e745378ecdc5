/* SPDX-License-Identifier: MIT */
/* The SVSM's formatter checked against the C library's snprintf. */
#include <stdio.h>
#include <string.h>

#include "svsm/std.h"

#include "../framework/test.h"

/* The truncation cases truncate on purpose. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define CHECK_FMT(size, ...)                                                   \
	do {                                                                   \
		char ours[size];                                               \
		char libc[size];                                               \
		int a = fmt_snprintf(ours, sizeof(ours), __VA_ARGS__);         \
		int b = snprintf(libc, sizeof(libc), __VA_ARGS__);             \
		EXPECT_EQ(a, b);                                               \
		if (strcmp(ours, libc) != 0) {                                 \
			test_fail(__FILE__, __LINE__, false, "'%s' vs '%s'",   \
				  ours, libc);                                 \
		}                                                              \
	} while (0)

TEST(fmt, matches_libc)
{
	CHECK_FMT(64, "plain");
	CHECK_FMT(64, "%d %d %d", 0, -1, 2147483647);
	CHECK_FMT(64, "%u %x %X", 4000000000u, 0xdeadbeefu, 0xabcu);
	CHECK_FMT(64, "%lx %llx", 0x123456789abcul, 0xffffffffffffffffull);
	CHECK_FMT(64, "%lld %llu", -9223372036854775807ll - 1,
		  18446744073709551615ull);
	CHECK_FMT(64, "%08x|%-6d|%6s|%-4s|", 0x1fu, 42, "ab", "c");
	CHECK_FMT(64, "%c%c %%", 'o', 'k');
	CHECK_FMT(64, "%zu", (size_t)12345);
	CHECK_FMT(64, "%s", "");
}

TEST(fmt, truncates_and_terminates)
{
	CHECK_FMT(5, "%s", "truncated");
	CHECK_FMT(1, "%d", 12345);
	CHECK_FMT(8, "%016llx", 0x1234ull);
}
