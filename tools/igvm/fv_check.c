/* SPDX-License-Identifier: MIT */
#include "fv_check.h"

#include <string.h>

/* EFI_FIRMWARE_VOLUME_HEADER: ZeroVector[16], FileSystemGuid[16],
 * FvLength (u64), Signature (u32), Attributes (u32), HeaderLength (u16),
 * Checksum (u16), ExtHeaderOffset (u16), Reserved (u8), Revision (u8),
 * then the block map, ending in a zero entry. */
#define FV_LENGTH 0x20u
#define FV_SIGNATURE 0x28u
#define FV_HEADER_LENGTH 0x30u
#define FV_REVISION 0x37u
#define FV_BLOCK_MAP 0x38u
#define FV_MIN_HEADER (FV_BLOCK_MAP + 8u) /* one zero block-map entry */
#define FV_REVISION_2 2u

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n-- > 0) {
		v = (v << 8) | p[n];
	}
	return v;
}

const char *fv_check(const uint8_t *img, size_t len, size_t *at)
{
	size_t off = 0;

	*at = 0;
	if (len == 0) {
		return "an empty firmware image";
	}
	while (off < len) {
		const uint8_t *h = img + off;
		size_t left = len - off;
		uint64_t fv_len;
		unsigned hlen, i;
		uint16_t sum = 0;

		*at = off;
		if (left < FV_MIN_HEADER) {
			return "a firmware volume header cut short";
		}
		if (memcmp(h + FV_SIGNATURE, "_FVH", 4) != 0) {
			return "no firmware volume (\"_FVH\") where one must "
			       "begin: truncated or not a UEFI image";
		}
		fv_len = le(h + FV_LENGTH, 8);
		hlen = (unsigned)le(h + FV_HEADER_LENGTH, 2);
		if (hlen < FV_MIN_HEADER || hlen % 2 != 0 || hlen > left) {
			return "a firmware volume header length out of range";
		}
		for (i = 0; i < hlen; i += 2) {
			sum = (uint16_t)(sum + le(h + i, 2));
		}
		if (sum != 0) {
			return "a firmware volume header checksum mismatch: "
			       "the image is damaged";
		}
		if (h[FV_REVISION] != FV_REVISION_2) {
			return "a firmware volume of another revision than 2";
		}
		if (fv_len < hlen || fv_len > left) {
			return "a firmware volume longer than the image: "
			       "truncated";
		}
		off += (size_t)fv_len;
	}
	return NULL;
}
