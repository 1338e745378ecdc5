/* SPDX-License-Identifier: MIT */
/* Enough of <netinet/in.h> for libtpms' public headers (nothing used). */
#ifndef CSVSM_LIBC_NETINET_IN_H
#define CSVSM_LIBC_NETINET_IN_H
#include <stdint.h>
#endif
