/* SPDX-License-Identifier: MIT */
/*
 * The firmware's <stdio.h>: OpenSSL's public headers name FILE in
 * prototypes the SVSM never calls. An opaque type is all they need.
 */
#ifndef CSVSM_LIBC_STDIO_H
#define CSVSM_LIBC_STDIO_H
#include <stdarg.h>
#include <stddef.h>
typedef struct csvsm_file FILE;
#endif
