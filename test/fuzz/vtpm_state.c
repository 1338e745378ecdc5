/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the opener of the vTPM's sealed state (vtpm_state_open in
 * src/core/vtpm_state.c): the host keeps the blob and controls every
 * byte of it. Byte 0 chooses: odd, the rest is the blob as is; even, the
 * rest is a state sealed first under the key, then byte 1 picks a byte
 * to flip (0: none) and byte 2 how much to cut off the end, and byte 3
 * is the generation floor. Checks: a blob the fuzzer wrote never opens
 * (no forgery); a sealed one opens, to the very bytes sealed, exactly
 * when nothing was changed and the floor is met; no outcome but OK
 * leaves a byte of state in the output.
 */
#include "svsm/vtpm_state.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP 8192u

static const struct vtpm_state_key key = {
	.key = {9, 8, 7, 6, 5, 4, 3, 2, 1},
	.id = {.measurement = {0xAA}, .policy = 0x30000, .tcb = 0x42},
};

static bool zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] != 0) {
			return false;
		}
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t blob[CAP + 512], out[CAP];
	static const uint8_t iv[VTPM_STATE_IV_LEN] = {7};
	struct vtpm_state_info info;
	enum vtpm_state_outcome o;
	size_t len = 0, flip, cut, state_len;
	uint64_t floor;
	bool changed;

	if (size < 4) {
		return 0;
	}
	if ((data[0] & 1) != 0) {
		len = size - 1 < sizeof(blob) ? size - 1 : sizeof(blob);
		memcpy(blob, data + 1, len);
		o = vtpm_state_open(&key, blob, len, 0, out, sizeof(out),
				    &info);
		if (o == VTPM_STATE_OK || !zero(out, sizeof(out))) {
			abort(); /* a forgery opened, or state leaked */
		}
		return 0;
	}
	state_len = size - 4 < CAP ? size - 4 : CAP;
	floor = data[3];
	if (vtpm_state_seal(&key, data[3] ^ data[1], iv, data + 4, state_len,
			    blob, sizeof(blob), &len) != SVSM_OK) {
		abort();
	}
	flip = data[1] == 0 ? 0 : (size_t)data[1] * 131 % len;
	cut = data[2] % 8 == 0 ? data[2] / 8 % len : 0;
	changed = data[1] != 0 || cut != 0;
	if (data[1] != 0) {
		blob[flip] ^= (uint8_t)(1u << (data[2] & 7));
	}
	o = vtpm_state_open(&key, blob, len - cut, floor, out, sizeof(out),
			    &info);
	if (o == VTPM_STATE_OK) {
		if (changed || (uint64_t)(data[3] ^ data[1]) < floor ||
		    memcmp(out, data + 4, state_len) != 0) {
			abort();
		}
	} else if (!zero(out, sizeof(out)) ||
		   (!changed && (uint64_t)(data[3] ^ data[1]) >= floor)) {
		abort(); /* state leaked, or an honest blob refused */
	}
	return 0;
}
