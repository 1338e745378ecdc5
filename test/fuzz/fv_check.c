/* SPDX-License-Identifier: MIT */
/*
 * Fuzz csvsm-igvm's check of a firmware image's volumes
 * (tools/igvm/fv_check.c), which runs on any file given to --ovmf. For
 * odd first bytes the input gets a valid volume header of its own length
 * put in front, so the walk goes past the first volume. Checks: on
 * acceptance every volume found tiles the input exactly; on refusal the
 * offset named lies inside the input.
 */
#include "../../tools/igvm/fv_check.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX (64u * 1024u)

static void put_header(uint8_t *img, size_t len)
{
	uint16_t sum = 0;
	unsigned i;

	memset(img, 0, 0x48);
	for (i = 0; i < 8; i++) {
		img[0x20 + i] = (uint8_t)((uint64_t)len >> (8 * i));
	}
	memcpy(img + 0x28, "_FVH", 4);
	img[0x30] = 0x48;
	img[0x37] = 2;
	for (i = 0; i < 0x48; i += 2) {
		sum = (uint16_t)(sum + (img[i] | (img[i + 1] << 8)));
	}
	sum = (uint16_t)-sum;
	img[0x32] = (uint8_t)sum;
	img[0x33] = (uint8_t)(sum >> 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t img[MAX];
	size_t len, at;
	const char *why;

	if (size < 1 || size - 1 > MAX) {
		return 0;
	}
	len = size - 1;
	memcpy(img, data + 1, len);
	if ((data[0] & 1) != 0 && len >= 0x48) {
		put_header(img, len);
	}
	why = fv_check(img, len, &at);
	if (why == NULL ? len == 0 : (len != 0 && at >= len)) {
		abort();
	}
	return 0;
}
