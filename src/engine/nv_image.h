/* SPDX-License-Identifier: MIT */
/*
 * The engine's persistent NV as one byte string (src/engine/nv_image.c):
 * the named blobs libtpms stores through its NV callbacks ("permall",
 * "savestate"), in the order given. This is the plaintext the SVSM seals
 * (svsm/vtpm_state.h): it reaches the parser only after the tag
 * authenticated it, but the parser trusts nothing of it all the same
 * (fuzz-nv_image).
 *
 *   0x00 magic "CSVSMnv1"   0x08 record count (u32, at most NV_IMAGE_MAX)
 *   then per record: name length (u8, 1..NV_IMAGE_NAME_MAX-1), the name
 *   (no NUL), data length (u32, little-endian), the data;
 *   nothing after the last record.
 */
#ifndef ENGINE_NV_IMAGE_H
#define ENGINE_NV_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NV_IMAGE_MAX 8u
#define NV_IMAGE_NAME_MAX 32u /* with the NUL */

struct nv_image_rec {
	char name[NV_IMAGE_NAME_MAX]; /* NUL-terminated */
	const uint8_t *data;	      /* into the image (parse) or the caller */
	uint32_t len;
};

/**
 * Write @count records into @buf (@cap bytes); with @buf NULL only count.
 * Returns the image's length, 0 if a record is malformed or it does not
 * fit.
 */
size_t nv_image_put(uint8_t *buf, size_t cap, const struct nv_image_rec *recs,
		    unsigned count);

/**
 * Parse @len bytes of @img into @recs (at most NV_IMAGE_MAX), their data
 * pointing into @img. False, and *@count 0, unless all of it is one
 * well-formed image with distinct names.
 */
bool nv_image_parse(const uint8_t *img, size_t len,
		    struct nv_image_rec recs[NV_IMAGE_MAX], unsigned *count);

#endif /* ENGINE_NV_IMAGE_H */
