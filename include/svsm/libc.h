/* SPDX-License-Identifier: MIT */
/*
 * What the SVSM asks of its libc layer (src/libc, firmware builds only):
 * how often the linked libraries reached a function the SVSM does not
 * offer (files, sockets, ...), each of which failed safely.
 */
#ifndef SVSM_LIBC_H
#define SVSM_LIBC_H

#include <stdint.h>

uint64_t libc_unsupported_calls(void);

#endif /* SVSM_LIBC_H */
