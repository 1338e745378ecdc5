/* SPDX-License-Identifier: MIT */
/*
 * Checked arithmetic for guest-supplied offsets and sizes (threat T03 in
 * docs/threat-model.md). Every sum or product of guest values goes through
 * these before it is compared with a bound.
 */
#ifndef SVSM_OVERFLOW_H
#define SVSM_OVERFLOW_H

#include <stdbool.h>
#include <stdint.h>

/** True, with *sum set, if a + b does not overflow 64 bits. */
static inline bool add_ok_u64(uint64_t a, uint64_t b, uint64_t *sum)
{
	return !__builtin_add_overflow(a, b, sum);
}

/** True, with *prod set, if a * b does not overflow 64 bits. */
static inline bool mul_ok_u64(uint64_t a, uint64_t b, uint64_t *prod)
{
	return !__builtin_mul_overflow(a, b, prod);
}

/** Do [a, a+alen) and [b, b+blen) intersect? Lengths are non-zero and the
 * ranges must not wrap (callers check with add_ok_u64 first). */
static inline bool ranges_overlap(uint64_t a, uint64_t alen, uint64_t b,
				  uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

#endif /* SVSM_OVERFLOW_H */
