/* SPDX-License-Identifier: MIT */
/*
 * Reading an IGVM file (abi/igvm.h), freestanding: the emulated PSP's
 * launch (model/psp_launch.h), csvsm-igvm and the fuzzer share it. The
 * file is the host's, untrusted: every offset and length is checked
 * against the file before use, in 64-bit arithmetic, and a structure is
 * returned only once it and the file data it names lie inside the file.
 */
#ifndef SVSM_IGVM_READER_H
#define SVSM_IGVM_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/igvm.h"

struct igvm_file {
	const uint8_t *data;
	size_t size;
	struct igvm_fixed_header hdr;
	int section; /* of the last structure read: they only move on */
};

/* One variable header: its type and where its content lies. */
struct igvm_item {
	uint32_t type;
	uint32_t length;
	uint32_t offset;     /* of the type field in the file */
	const uint8_t *body; /* @length bytes inside the variable header */
};

/**
 * Check @data as an IGVM file: magic, version 1, header offsets and sizes
 * inside the file, the checksum. NULL on success, else what is wrong.
 */
const char *igvm_open(struct igvm_file *f, const uint8_t *data, size_t size);

/**
 * The next variable header after *@pos (start at 0); false at the end.
 * *why is set when the structure is malformed (then false too): a body
 * past the variable header, bad padding, a section out of order, a
 * structure shorter than its type's, a directive's file data past the
 * end of the file.
 */
bool igvm_next(struct igvm_file *f, uint32_t *pos, struct igvm_item *it,
	       const char **why);

/**
 * CRC-32 (IEEE 802.3, reflected, as zlib's crc32()): continue @crc over
 * @len bytes at @buf; start with 0. An integrity check, not cryptography.
 */
uint32_t igvm_crc32(uint32_t crc, const uint8_t *buf, size_t len);

/** The CRC32 the fixed header must carry over @len bytes of headers. */
uint32_t igvm_checksum(const uint8_t *headers, size_t len);

#endif /* SVSM_IGVM_READER_H */
