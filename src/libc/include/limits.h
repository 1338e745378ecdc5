/* SPDX-License-Identifier: MIT */
/* The firmware's <limits.h>, from the compiler's predefined macros. */
#ifndef CSVSM_LIBC_LIMITS_H
#define CSVSM_LIBC_LIMITS_H
#define CHAR_BIT __CHAR_BIT__
#define SCHAR_MAX __SCHAR_MAX__
#define SCHAR_MIN (-SCHAR_MAX - 1)
#define UCHAR_MAX (SCHAR_MAX * 2 + 1)
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define SHRT_MAX __SHRT_MAX__
#define SHRT_MIN (-SHRT_MAX - 1)
#define USHRT_MAX (SHRT_MAX * 2 + 1)
#define INT_MAX __INT_MAX__
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX (INT_MAX * 2u + 1u)
#define LONG_MAX __LONG_MAX__
#define LONG_MIN (-LONG_MAX - 1l)
#define ULONG_MAX (LONG_MAX * 2ul + 1ul)
#define LLONG_MAX __LONG_LONG_MAX__
#define LLONG_MIN (-LLONG_MAX - 1ll)
#define ULLONG_MAX (LLONG_MAX * 2ull + 1ull)
#endif
