/* SPDX-License-Identifier: MIT */
/* A libFuzzer input read as a stream of little-endian fields; past its
 * end every field reads as zero, so any length of input is a run. For the
 * targets that build no simulated machine (fuzz_harness.h is theirs). */
#ifndef TEST_FUZZ_INPUT_H
#define TEST_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct input {
	const uint8_t *p;
	size_t left;
};

/* The next @bytes (at most 8) bytes, little-endian. */
static inline uint64_t take(struct input *in, unsigned bytes)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < bytes && in->left > 0; i++, in->left--) {
		v |= (uint64_t)*in->p++ << (8 * i);
	}
	return v;
}

#endif /* TEST_FUZZ_INPUT_H */
