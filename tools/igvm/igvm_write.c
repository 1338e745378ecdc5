/* SPDX-License-Identifier: MIT */
/*
 * Writing IGVM files: structures are collected in order with their file
 * data; the file is laid out at the end (fixed header, variable header,
 * then the data, each directive's file_offset patched to where its data
 * landed) and the checksum computed over both headers.
 */
#include "igvm_write.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, size_t *cap, size_t need)
{
	size_t c = *cap == 0 ? 4096 : *cap;

	while (c < need) {
		c *= 2;
	}
	if (c == *cap) {
		return p;
	}
	p = realloc(p, c);
	if (p == NULL) {
		abort(); /* a hosted tool out of memory */
	}
	*cap = c;
	return p;
}

void igvm_builder_init(struct igvm_builder *b)
{
	memset(b, 0, sizeof(*b));
}

void igvm_builder_free(struct igvm_builder *b)
{
	free(b->vh);
	free(b->data);
	free(b->patch);
	memset(b, 0, sizeof(*b));
}

uint32_t igvm_add_data(struct igvm_builder *b, const void *data, size_t len)
{
	uint32_t rel = (uint32_t)b->data_len;

	b->data = grow(b->data, &b->data_cap, b->data_len + len);
	memcpy(b->data + b->data_len, data, len);
	b->data_len += len;
	return rel;
}

void igvm_add(struct igvm_builder *b, uint32_t type, const void *body,
	      uint32_t len, int offset_field, uint32_t data_rel)
{
	struct igvm_vhs_header h = {.type = type, .length = len};
	size_t padded = (sizeof(h) + len + 7) & ~(size_t)7;
	size_t at = b->vh_len;

	b->vh = grow(b->vh, &b->vh_cap, b->vh_len + padded);
	memset(b->vh + at, 0, padded);
	memcpy(b->vh + at, &h, sizeof(h));
	memcpy(b->vh + at + sizeof(h), body, len);
	b->vh_len += padded;
	if (offset_field >= 0) {
		b->patch = grow(b->patch, &b->patch_cap,
				(b->npatch + 1) * sizeof(*b->patch));
		b->patch[b->npatch].at = at + sizeof(h) + (size_t)offset_field;
		b->patch[b->npatch].rel = data_rel;
		b->npatch++;
	}
}

uint8_t *igvm_finish(struct igvm_builder *b, size_t *size)
{
	struct igvm_fixed_header fh;
	/* File data starts on a page boundary, so pages stay whole. */
	size_t data_start = (sizeof(fh) + b->vh_len + IGVM_PAGE - 1) &
			    ~(size_t)(IGVM_PAGE - 1);
	size_t total = data_start + b->data_len;
	uint8_t *out;
	size_t i;

	if (total > UINT32_MAX) {
		return NULL;
	}
	out = calloc(1, total);
	if (out == NULL) {
		return NULL;
	}
	for (i = 0; i < b->npatch; i++) {
		uint32_t off = (uint32_t)(data_start + b->patch[i].rel);

		memcpy(b->vh + b->patch[i].at, &off, 4);
	}
	fh = (struct igvm_fixed_header){
		.magic = IGVM_MAGIC,
		.format_version = IGVM_FORMAT_VERSION_1,
		.variable_header_offset = sizeof(fh),
		.variable_header_size = (uint32_t)b->vh_len,
		.total_file_size = (uint32_t)total,
		.checksum = 0,
	};
	memcpy(out, &fh, sizeof(fh));
	memcpy(out + sizeof(fh), b->vh, b->vh_len);
	memcpy(out + data_start, b->data, b->data_len);
	fh.checksum = igvm_checksum(out, sizeof(fh) + b->vh_len);
	memcpy(out, &fh, sizeof(fh));
	*size = total;
	return out;
}

void igvm_add_page(struct igvm_builder *b, uint64_t gpa, const uint8_t *pg,
		   uint16_t type, uint32_t *zero_rel, int *have_zero)
{
	static const uint8_t zero[IGVM_PAGE];
	struct igvm_page_data p = {.gpa = gpa,
				   .compatibility_mask = IGVM_SNP_MASK,
				   .data_type = type};
	uint32_t rel;

	if (pg == NULL) { /* no file data: a zero page, or host-filled */
		igvm_add(b, IGVM_VHT_PAGE_DATA, &p, sizeof(p), -1, 0);
		return;
	}
	if (memcmp(pg, zero, IGVM_PAGE) == 0) {
		/* Zero pages share one block of file data: still NORMAL
		 * pages, measured with their (zero) contents. */
		if (!*have_zero) {
			*zero_rel = igvm_add_data(b, zero, IGVM_PAGE);
			*have_zero = 1;
		}
		rel = *zero_rel;
	} else {
		rel = igvm_add_data(b, pg, IGVM_PAGE);
	}
	igvm_add(b, IGVM_VHT_PAGE_DATA, &p, sizeof(p),
		 (int)offsetof(struct igvm_page_data, file_offset), rel);
}
