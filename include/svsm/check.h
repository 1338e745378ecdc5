/* SPDX-License-Identifier: MIT */
/*
 * Internal invariants. CHECK() is always compiled in: a broken SVSM invariant
 * panics and terminates; it is never used for guest or hypervisor input.
 */
#ifndef SVSM_CHECK_H
#define SVSM_CHECK_H

void panic(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			panic("CHECK(%s) failed at %s:%d", #cond, __FILE__,    \
			      __LINE__);                                       \
		}                                                              \
	} while (0)

#endif /* SVSM_CHECK_H */
