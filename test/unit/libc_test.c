/* SPDX-License-Identifier: MIT */
/*
 * The firmware's libc layer (src/libc) against glibc, the reference the
 * linked archives were built for: strings, memory, ctype tables, number
 * parsing, sorting, formatting and time conversion give glibc's answers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../framework/test.h"
#include "../libc/tl.h"

/* strncpy's truncation without a terminator is what is being compared. */
#pragma GCC diagnostic ignored "-Wstringop-truncation"

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static const char *const words[] = {
	"", "a", "ab", "abc", "abd", "b", "abcdef", "\x80x", "x\xff", "zzzz",
};

TEST(libc, string_functions_match_glibc)
{
	size_t nw = sizeof(words) / sizeof(words[0]);

	for (size_t i = 0; i < nw; i++) {
		const char *a = words[i];

		EXPECT_EQ(tl_strlen(a), strlen(a));
		for (int c = 0; c < 256; c += 17) {
			EXPECT_TRUE(tl_strchr(a, c) == strchr(a, c));
			EXPECT_TRUE(tl_strrchr(a, c) == strrchr(a, c));
			EXPECT_TRUE(tl_memchr(a, c, strlen(a)) ==
				    memchr(a, c, strlen(a)));
		}
		for (size_t j = 0; j < nw; j++) {
			const char *b = words[j];

			EXPECT_EQ(sign(tl_strcmp(a, b)), sign(strcmp(a, b)));
			for (size_t n = 0; n < 5; n++) {
				EXPECT_EQ(sign(tl_strncmp(a, b, n)),
					  sign(strncmp(a, b, n)));
				if (n <= strlen(a) + 1 && n <= strlen(b) + 1) {
					EXPECT_EQ(sign(tl_memcmp(a, b, n)),
						  sign(memcmp(a, b, n)));
				}
			}
			EXPECT_TRUE(tl_strstr(a, b) == strstr(a, b));
			EXPECT_EQ(tl_strspn(a, b), strspn(a, b));
			EXPECT_EQ(tl_strcspn(a, b), strcspn(a, b));
		}
	}
}

TEST(libc, copies_match_glibc)
{
	char ours[32];
	char ref[32];
	char buf[64];

	memset(ours, 'X', sizeof(ours));
	memset(ref, 'X', sizeof(ref));
	tl_strncpy(ours, "abc", 8);
	strncpy(ref, "abc", 8);
	EXPECT_EQ(memcmp(ours, ref, sizeof(ours)), 0);
	tl_strncpy(ours, "abcdefghij", 4); /* not terminated, as C says */
	strncpy(ref, "abcdefghij", 4);
	EXPECT_EQ(memcmp(ours, ref, sizeof(ours)), 0);
	tl_strcpy(ours, "left");
	tl_strcat(ours, "+right");
	EXPECT_EQ(strcmp(ours, "left+right"), 0);

	for (size_t i = 0; i < sizeof(buf); i++) {
		buf[i] = (char)i;
	}
	tl_memmove(buf + 3, buf, 20); /* overlapping, forwards */
	for (size_t i = 0; i < 20; i++) {
		EXPECT_EQ(buf[3 + i], (char)i);
	}
	tl_memmove(buf, buf + 3, 20); /* overlapping, backwards */
	for (size_t i = 0; i < 20; i++) {
		EXPECT_EQ(buf[i], (char)i);
	}
	tl_memset(buf, 0xa5, 13);
	EXPECT_EQ((unsigned char)buf[12], 0xa5);
	EXPECT_EQ(buf[13], 13);
	tl_memcpy(buf, "0123456789", 11);
	EXPECT_EQ(strcmp(buf, "0123456789"), 0);
}

TEST(libc, strtok_matches_glibc)
{
	char a[] = ",,one,,two;three;";
	char b[] = ",,one,,two;three;";
	char *x = tl_strtok(a, ",;");
	char *y = strtok(b, ",;");

	while (x != NULL || y != NULL) {
		ASSERT_TRUE(x != NULL && y != NULL);
		EXPECT_EQ(x - a, y - b);
		x = tl_strtok(NULL, ",;");
		y = strtok(NULL, ",;");
	}
	EXPECT_TRUE(tl_strtok(NULL, ",") == NULL);
}

/* The tables glibc's isxxx() and tolower() macros index, -128..255. */
TEST(libc, ctype_tables_match_glibc)
{
	const unsigned short *ours = *tl___ctype_b_loc();
	const unsigned short *ref = *__ctype_b_loc();
	const int32_t *lo = *tl___ctype_tolower_loc();
	const int32_t *ref_lo = *__ctype_tolower_loc();

	for (int c = -128; c < 256; c++) {
		if (ours[c] != ref[c] || lo[c] != ref_lo[c]) {
			test_fail(__FILE__, __LINE__, false,
				  "char %d: class %x vs %x, tolower %d vs %d",
				  c, ours[c], ref[c], lo[c], ref_lo[c]);
		}
	}
}

static const char *const numbers[] = {
	"0",
	"42",
	"  -17",
	"+8",
	"0x1F",
	"0X",
	"0x",
	"077",
	"08",
	"z",
	"Zz",
	"",
	"   ",
	"-",
	"9223372036854775807",
	"9223372036854775808",
	"-9223372036854775808",
	"-9223372036854775809",
	"18446744073709551615",
	"18446744073709551616",
	"-18446744073709551615",
	"0xffffffffffffffff",
	"1010b",
	"\t\n12x",
	"-0x10",
	"0b101",
	"123456789012345678901234567890",
};

TEST(libc, strtol_strtoul_match_glibc)
{
	static const int bases[] = {0, 2, 8, 10, 16, 36};

	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		for (size_t k = 0; k < sizeof(bases) / sizeof(bases[0]); k++) {
			const char *s = numbers[i];
			int base = bases[k];
			char *e1;
			char *e2;
			long a;
			long b;
			unsigned long ua;
			unsigned long ub;
			int err1;
			int err2;

			*tl___errno_location() = 0;
			errno = 0;
			a = tl_strtol(s, &e1, base);
			b = strtol(s, &e2, base);
			err1 = *tl___errno_location();
			err2 = errno;
			if (a != b || e1 != e2 || err1 != err2) {
				test_fail(__FILE__, __LINE__, false,
					  "strtol(\"%s\", %d): %ld/%td/%d vs "
					  "%ld/%td/%d",
					  s, base, a, e1 - s, err1, b, e2 - s,
					  err2);
			}
			*tl___errno_location() = 0;
			errno = 0;
			ua = tl_strtoul(s, &e1, base);
			ub = strtoul(s, &e2, base);
			err1 = *tl___errno_location();
			err2 = errno;
			if (ua != ub || e1 != e2 || err1 != err2) {
				test_fail(__FILE__, __LINE__, false,
					  "strtoul(\"%s\", %d): %lu/%td/%d vs "
					  "%lu/%td/%d",
					  s, base, ua, e1 - s, err1, ub, e2 - s,
					  err2);
			}
		}
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a;
	uint32_t y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

TEST(libc, qsort_matches_glibc)
{
	uint64_t seed = test_seed();

	for (size_t n = 0; n < 200; n += 13) {
		uint32_t ours[200];
		uint32_t ref[200];

		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1;
			ours[i] = ref[i] = (uint32_t)(seed >> 40) % 50u;
		}
		tl_qsort(ours, n, sizeof(ours[0]), cmp_u32);
		qsort(ref, n, sizeof(ref[0]), cmp_u32);
		EXPECT_EQ(memcmp(ours, ref, n * sizeof(ours[0])), 0);
	}
}

TEST(libc, printf_family_matches_glibc)
{
	char ours[64];
	char ref[64];
	int a = tl___snprintf_chk(ours, sizeof(ours), 1, sizeof(ours),
				  "%s=%08lx %-4d|%.2s", "key", 0xbeeful, -3,
				  "xyz");
	int b = snprintf(ref, sizeof(ref), "%s=%08lx %-4d|%.2s", "key",
			 0xbeeful, -3, "xyz");

	EXPECT_EQ(a, b);
	EXPECT_EQ(strcmp(ours, ref), 0);
}

TEST(libc, gmtime_matches_glibc)
{
	static const time_t times[] = {
		0,
		1,
		59,
		86399,
		86400,
		951782400 /* 2000-02-29 */,
		951868800,
		1709164800 /* 2024-02-29 */,
		2147483647,
		2147483648ll,
		4102444800ll /* 2100-01-01 */,
		-1,
		-86401,
		-2208988800ll /* 1900 */,
		253402300799ll /* 9999-12-31 */,
	};

	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		struct tm ours;
		struct tm ref;

		memset(&ours, 0, sizeof(ours));
		ASSERT_TRUE(tl_gmtime_r(&times[i], &ours) == &ours);
		ASSERT_TRUE(gmtime_r(&times[i], &ref) == &ref);
		if (ours.tm_sec != ref.tm_sec || ours.tm_min != ref.tm_min ||
		    ours.tm_hour != ref.tm_hour ||
		    ours.tm_mday != ref.tm_mday || ours.tm_mon != ref.tm_mon ||
		    ours.tm_year != ref.tm_year ||
		    ours.tm_wday != ref.tm_wday ||
		    ours.tm_yday != ref.tm_yday ||
		    ours.tm_isdst != ref.tm_isdst ||
		    ours.tm_gmtoff != ref.tm_gmtoff ||
		    strcmp(ours.tm_zone, ref.tm_zone) != 0) {
			test_fail(__FILE__, __LINE__, false,
				  "gmtime(%lld): %d-%d-%d %d:%d:%d wd %d yd %d "
				  "vs %d-%d-%d %d:%d:%d wd %d yd %d",
				  (long long)times[i], ours.tm_year,
				  ours.tm_mon, ours.tm_mday, ours.tm_hour,
				  ours.tm_min, ours.tm_sec, ours.tm_wday,
				  ours.tm_yday, ref.tm_year, ref.tm_mon,
				  ref.tm_mday, ref.tm_hour, ref.tm_min,
				  ref.tm_sec, ref.tm_wday, ref.tm_yday);
		}
	}
}
