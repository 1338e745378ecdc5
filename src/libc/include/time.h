/* SPDX-License-Identifier: MIT */
/* The firmware's <time.h>: the types OpenSSL's public headers name. */
#ifndef CSVSM_LIBC_TIME_H
#define CSVSM_LIBC_TIME_H
typedef long time_t;
struct tm;
#endif
