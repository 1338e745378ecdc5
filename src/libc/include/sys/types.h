/* SPDX-License-Identifier: MIT */
/* Enough of <sys/types.h> for libtpms' public headers. */
#ifndef CSVSM_LIBC_SYS_TYPES_H
#define CSVSM_LIBC_SYS_TYPES_H
#include <stddef.h>
typedef long ssize_t;
#endif
