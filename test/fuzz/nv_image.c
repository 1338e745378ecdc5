/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the engine's NV image parser (src/engine/nv_image.c): what the
 * SVSM loads into libtpms after the sealed state opened. Checks: a
 * parsed image's records lie inside the input, have names of 1..31
 * bytes without NUL, distinct, and written back give the same bytes.
 */
#include "../../src/engine/nv_image.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[1u << 16];
	struct nv_image_rec recs[NV_IMAGE_MAX];
	unsigned count = 0;
	unsigned i;
	size_t n;

	if (!nv_image_parse(data, size, recs, &count)) {
		if (count != 0) {
			abort();
		}
		return 0;
	}
	for (i = 0; i < count; i++) {
		size_t len = strnlen(recs[i].name, NV_IMAGE_NAME_MAX);

		if (len == 0 || len >= NV_IMAGE_NAME_MAX ||
		    (recs[i].len != 0 &&
		     (recs[i].data < data ||
		      recs[i].data + recs[i].len > data + size))) {
			abort();
		}
	}
	n = nv_image_put(size <= sizeof(out) ? out : NULL, sizeof(out), recs,
			 count);
	if (n != size || (size <= sizeof(out) && memcmp(out, data, n) != 0)) {
		abort();
	}
	return 0;
}
