/* SPDX-License-Identifier: MIT */
/* The firmware's <inttypes.h>: OpenSSL's headers include it for types. */
#ifndef CSVSM_LIBC_INTTYPES_H
#define CSVSM_LIBC_INTTYPES_H
#include <stdint.h>
#endif
