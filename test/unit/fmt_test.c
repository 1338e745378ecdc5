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

/* Edge cases C defines (ignored flags, unknown conversions) on purpose. */
#pragma GCC diagnostic ignored "-Wformat"

/* What libtpms' and libcrypto's log and error strings use. */
TEST(fmt, precision_flags_and_lengths)
{
	CHECK_FMT(64, "%.3s|%.*s|%-*s|%*d", "abcdef", 2, "xyz", 5, "l", 4, 7);
	CHECK_FMT(64, "%.5d|%8.3x|%-8.3u|%.0d|%.0x", 42, 0xau, 7u, 0, 0u);
	CHECK_FMT(64, "%+d|% d|%+d|% d", 5, 5, -5, -5);
	CHECK_FMT(64, "%#x|%#X|%#o|%#o|%o|%#x", 255u, 255u, 8u, 0u, 8u, 0u);
	CHECK_FMT(64, "%hd|%hhd|%hu|%hhu|%hhx", 70000, 300, 70000u, 300u,
		  0x1ffu);
	CHECK_FMT(64, "%-08d|%08.3d|%*.*d", 3, 3, -6, 3, 9);
	CHECK_FMT(64, "%-+6d|%+06d|%#010x", 12, -12, 0xbeefu);
	CHECK_FMT(64, "%20p|%-20p|", (void *)0x1234, (void *)0xff);
}

/* An unknown conversion stops the output: later arguments are unknowable. */
TEST(fmt, unknown_conversion_stops)
{
	char buf[32];

	EXPECT_EQ(fmt_snprintf(buf, sizeof(buf), "a%fb%s", 1.0, "x"), 3);
	EXPECT_TRUE(strcmp(buf, "a%?") == 0);
	EXPECT_EQ(fmt_snprintf(buf, sizeof(buf), "end%"), 5);
	EXPECT_TRUE(strcmp(buf, "end%?") == 0);
}

TEST(fmt, truncates_and_terminates)
{
	CHECK_FMT(5, "%s", "truncated");
	CHECK_FMT(1, "%d", 12345);
	CHECK_FMT(8, "%016llx", 0x1234ull);
}
