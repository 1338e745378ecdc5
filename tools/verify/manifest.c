/* SPDX-License-Identifier: MIT */
/*
 * The services manifest (SPEC Table 12), parsed from untrusted bytes:
 * the header's size must equal the bytes present, entries must fit,
 * every entry's data must lie inside the table after the entry headers,
 * and no service's GUID may appear twice (two vTPM entries would let two
 * readers take different EKs from one verified manifest).
 */
#include <string.h>

#include "svsm/le.h"

#include "abi/csvsm_vtpm_state.h"

#include "../common/hex.h"
#include "verify.h"

const char *manifest_parse(const uint8_t *buf, size_t len, struct manifest *m)
{
	static const uint8_t header_guid[16] = SVSM_MANIFEST_GUID;
	uint32_t total;
	uint32_t count;
	uint64_t headers_end;
	uint32_t i, j;

	m->count = 0; /* nothing until all of it parsed */
	if (len < SVSM_GUID_TABLE_HEADER_SIZE) {
		return "shorter than its header";
	}
	if (memcmp(buf, header_guid, 16) != 0) {
		return "header GUID is not the services-manifest GUID";
	}
	total = le_get32(buf + 16);
	count = le_get32(buf + 20);
	if (total != len) {
		return "header size differs from the manifest's length";
	}
	if (count > MANIFEST_MAX_ENTRIES) {
		return "too many entries";
	}
	headers_end = SVSM_GUID_TABLE_HEADER_SIZE +
		      (uint64_t)count * SVSM_GUID_TABLE_ENTRY_SIZE;
	if (headers_end > total) {
		return "entry headers run past the end";
	}
	for (i = 0; i < count; i++) {
		const uint8_t *e = buf + SVSM_GUID_TABLE_HEADER_SIZE +
				   (size_t)i * SVSM_GUID_TABLE_ENTRY_SIZE;
		uint32_t off = le_get32(e + 16);
		uint32_t dlen = le_get32(e + 20);

		if (dlen != 0 &&
		    (off < headers_end || off > total || dlen > total - off)) {
			return "an entry's data lies outside the table";
		}
		for (j = 0; j < i; j++) {
			if (memcmp(m->entry[j].guid, e, 16) == 0) {
				return "a service's GUID appears twice";
			}
		}
		memcpy(m->entry[i].guid, e, 16);
		m->entry[i].data = dlen != 0 ? buf + off : NULL;
		m->entry[i].len = dlen;
	}
	m->count = count;
	return NULL;
}

const char *manifest_service_name(const uint8_t guid[16])
{
	static const uint8_t vtpm[16] = SVSM_VTPM_SERVICE_GUID;
	static const uint8_t state[16] = CSVSM_VTPM_STATE_GUID;

	if (memcmp(guid, vtpm, 16) == 0) {
		return "vTPM (EK TPMT_PUBLIC)";
	}
	if (memcmp(guid, state, 16) == 0) {
		return "csvsm vTPM state";
	}
	return NULL;
}

const struct manifest_entry *manifest_find(const struct manifest *m,
					   const uint8_t guid[16])
{
	uint32_t i;

	for (i = 0; i < m->count; i++) {
		if (memcmp(m->entry[i].guid, guid, 16) == 0) {
			return &m->entry[i];
		}
	}
	return NULL;
}

bool manifest_service_guid(const char *text, uint8_t guid[16])
{
	static const uint8_t vtpm[16] = SVSM_VTPM_SERVICE_GUID;
	static const uint8_t state[16] = CSVSM_VTPM_STATE_GUID;
	/* Where each text byte goes: the first three fields are
	 * little-endian in the binary form, the last two as written. */
	static const uint8_t order[16] = {3, 2, 1,  0,	5,  4,	7,  6,
					  8, 9, 10, 11, 12, 13, 14, 15};
	size_t at = 0, i;

	if (strcmp(text, "vtpm") == 0) {
		memcpy(guid, vtpm, 16);
		return true;
	}
	if (strcmp(text, "vtpm-state") == 0) {
		memcpy(guid, state, 16);
		return true;
	}
	if (strnlen(text, 37) != 36) {
		return false;
	}
	for (i = 0; i < 16; i++) {
		int hi, lo;

		if (at == 8 || at == 13 || at == 18 || at == 23) {
			if (text[at] != '-') {
				return false;
			}
			at++;
		}
		hi = hex_nibble(text[at]);
		lo = hex_nibble(text[at + 1]);
		if (hi < 0 || lo < 0) {
			return false;
		}
		guid[order[i]] = (uint8_t)(hi << 4 | lo);
		at += 2;
	}
	return true;
}
