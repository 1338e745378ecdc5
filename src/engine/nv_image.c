/* SPDX-License-Identifier: MIT */
/*
 * The engine's NV image (nv_image.h). Every length is checked against
 * the bytes left before it is used; a name is read once into the record.
 */
#include "nv_image.h"

#include <string.h>

#include "svsm/le.h"

static const uint8_t magic[8] = {'C', 'S', 'V', 'S', 'M', 'n', 'v', '1'};

#define HDR_LEN 12u

/* The length of @name, at most NV_IMAGE_NAME_MAX. */
static size_t name_len(const char *name)
{
	size_t n = 0;

	while (n < NV_IMAGE_NAME_MAX && name[n] != '\0') {
		n++;
	}
	return n;
}

size_t nv_image_put(uint8_t *buf, size_t cap, const struct nv_image_rec *recs,
		    unsigned count)
{
	size_t off = HDR_LEN;
	unsigned i;

	if (count > NV_IMAGE_MAX) {
		return 0;
	}
	for (i = 0; i < count; i++) {
		size_t n = name_len(recs[i].name);

		if (n == 0 || n >= NV_IMAGE_NAME_MAX) {
			return 0;
		}
		off += 1 + n + 4 + (size_t)recs[i].len;
	}
	if (buf == NULL) {
		return off;
	}
	if (off > cap) {
		return 0;
	}
	memcpy(buf, magic, sizeof(magic));
	le_put32(buf + 8, count);
	off = HDR_LEN;
	for (i = 0; i < count; i++) {
		size_t n = name_len(recs[i].name);

		buf[off] = (uint8_t)n;
		memcpy(buf + off + 1, recs[i].name, n);
		le_put32(buf + off + 1 + n, recs[i].len);
		if (recs[i].len != 0) {
			memcpy(buf + off + 5 + n, recs[i].data, recs[i].len);
		}
		off += 5 + n + recs[i].len;
	}
	return off;
}

static bool name_taken(const struct nv_image_rec *recs, unsigned count,
		       const char *name)
{
	unsigned i;

	for (i = 0; i < count; i++) {
		if (strcmp(recs[i].name, name) == 0) {
			return true;
		}
	}
	return false;
}

bool nv_image_parse(const uint8_t *img, size_t len,
		    struct nv_image_rec recs[NV_IMAGE_MAX], unsigned *count)
{
	uint32_t n = 0;
	size_t off = HDR_LEN;
	unsigned i;

	*count = 0;
	if (len < HDR_LEN || memcmp(img, magic, sizeof(magic)) != 0) {
		return false;
	}
	n = le_get32(img + 8);
	if (n > NV_IMAGE_MAX) {
		return false;
	}
	for (i = 0; i < n; i++) {
		size_t nlen;
		uint32_t data_len;

		if (len - off < 1) {
			return false;
		}
		nlen = img[off];
		if (nlen == 0 || nlen >= NV_IMAGE_NAME_MAX ||
		    len - off - 1 < nlen + 4) {
			return false;
		}
		memset(recs[i].name, 0, sizeof(recs[i].name));
		memcpy(recs[i].name, img + off + 1, nlen);
		/* A NUL inside the name or a name twice: not ours. */
		if (name_len(recs[i].name) != nlen ||
		    name_taken(recs, i, recs[i].name)) {
			return false;
		}
		data_len = le_get32(img + off + 1 + nlen);
		off += 5 + nlen;
		if (data_len > len - off) {
			return false;
		}
		recs[i].data = img + off;
		recs[i].len = data_len;
		off += data_len;
	}
	if (off != len) {
		return false;
	}
	*count = n;
	return true;
}
