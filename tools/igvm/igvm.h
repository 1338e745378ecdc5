/* SPDX-License-Identifier: MIT */
/*
 * The IGVM file format (Independent Guest Virtual Machine, as published by
 * its maintainers in the igvm_defs crate, format version 1): a fixed
 * header, a variable header of 8-byte-aligned TLV structures, then file
 * data. The format itself is abi/igvm.h; here the tool's own API.
 */
#ifndef TOOLS_IGVM_H
#define TOOLS_IGVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/igvm.h"

/* ---- reading (igvm_read.c): every offset and length checked ---- */

struct igvm_file {
	const uint8_t *data;
	size_t size;
	struct igvm_fixed_header hdr;
	int section; /* of the last structure read: they only move on */
};

/* One variable header: its type and a copy of its content. */
struct igvm_item {
	uint32_t type;
	uint32_t length;
	uint32_t offset; /* of the type field in the file */
	const uint8_t *body;
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
 * directive's file data past the end of the file.
 */
bool igvm_next(struct igvm_file *f, uint32_t *pos, struct igvm_item *it,
	       const char **why);

/** The CRC32 the fixed header must carry (zlib's). */
uint32_t igvm_checksum(const uint8_t *headers, size_t len);

/** A type's name, or NULL. */
const char *igvm_type_name(uint32_t type);

#endif /* TOOLS_IGVM_H */
