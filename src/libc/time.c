/* SPDX-License-Identifier: MIT */
/*
 * Time for the linked libraries. The SVSM has no trusted wall clock (the
 * hypervisor owns the RTC and can set it to anything), so every clock
 * here counts from the SVSM's start: CLOCK_REALTIME and time() begin at
 * the epoch, 1970-01-01. libtpms uses time for the TPM's Clock and
 * timeouts, for which a monotonic count is what matters; nothing in the
 * SVSM validates certificates against the date.
 */
#include <stdint.h>

#include "libc_internal.h"

struct libc_timespec {
	long tv_sec;
	long tv_nsec;
};

struct libc_timeval {
	long tv_sec;
	long tv_usec;
};

/* glibc's struct tm. */
struct libc_tm {
	int tm_sec;
	int tm_min;
	int tm_hour;
	int tm_mday;
	int tm_mon;
	int tm_year;
	int tm_wday;
	int tm_yday;
	int tm_isdst;
	long tm_gmtoff;
	const char *tm_zone;
};

#define NS_PER_S 1000000000ull
#define LIBC_CLOCK_REALTIME 0
#define LIBC_CLOCK_MONOTONIC 1
#define LIBC_CLOCK_PROCESS_CPUTIME_ID 2
#define LIBC_CLOCK_THREAD_CPUTIME_ID 3
#define LIBC_CLOCK_MONOTONIC_RAW 4
#define LIBC_CLOCK_REALTIME_COARSE 5
#define LIBC_CLOCK_MONOTONIC_COARSE 6
#define LIBC_CLOCK_BOOTTIME 7

long time(long *t);
int clock_gettime(int clk, struct libc_timespec *ts);
int gettimeofday(struct libc_timeval *tv, void *tz);
long clock(void);
struct libc_tm *gmtime_r(const long *t, struct libc_tm *tm);

int clock_gettime(int clk, struct libc_timespec *ts)
{
	uint64_t ns;

	if (clk < LIBC_CLOCK_REALTIME || clk > LIBC_CLOCK_BOOTTIME) {
		libc_set_errno(LIBC_EINVAL);
		return -1;
	}
	ns = libc_hook_clock_ns();
	ts->tv_sec = (long)(ns / NS_PER_S);
	ts->tv_nsec = (long)(ns % NS_PER_S);
	return 0;
}

long time(long *t)
{
	long s = (long)(libc_hook_clock_ns() / NS_PER_S);

	if (t != NULL) {
		*t = s;
	}
	return s;
}

int gettimeofday(struct libc_timeval *tv, void *tz)
{
	uint64_t ns = libc_hook_clock_ns();

	(void)tz;
	if (tv != NULL) {
		tv->tv_sec = (long)(ns / NS_PER_S);
		tv->tv_usec = (long)(ns % NS_PER_S / 1000u);
	}
	return 0;
}

/* CLOCKS_PER_SEC is 1,000,000 in glibc. */
long clock(void)
{
	return (long)(libc_hook_clock_ns() / 1000u);
}

/* Days since 1970-01-01 to a proleptic Gregorian date (400-year eras). */
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;

	z += 719468; /* days from 0000-03-01 to 1970-01-01 */
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static bool is_leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

struct libc_tm *gmtime_r(const long *t, struct libc_tm *tm)
{
	static const unsigned short before_month[12] = {
		0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
	int64_t s = *t;
	int64_t days = s / 86400;
	int64_t rem = s % 86400;
	int64_t y;
	unsigned m, d;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	if (y - 1900 > INT32_MAX || y - 1900 < INT32_MIN) {
		libc_set_errno(LIBC_EOVERFLOW);
		return NULL;
	}
	tm->tm_sec = (int)(rem % 60);
	tm->tm_min = (int)(rem / 60 % 60);
	tm->tm_hour = (int)(rem / 3600);
	tm->tm_mday = (int)d;
	tm->tm_mon = (int)m - 1;
	tm->tm_year = (int)(y - 1900);
	tm->tm_wday = (int)(((days % 7) + 11) % 7); /* 1970-01-01: Thursday */
	tm->tm_yday = (int)(before_month[m - 1] + d - 1 +
			    (m > 2 && is_leap(y) ? 1 : 0));
	tm->tm_isdst = 0;
	tm->tm_gmtoff = 0;
	tm->tm_zone = "GMT";
	return tm;
}
