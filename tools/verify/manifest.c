/* SPDX-License-Identifier: MIT */
/*
 * The services manifest (SPEC Table 12), parsed from untrusted bytes:
 * the header's size must equal the bytes present, entries must fit, and
 * every entry's data must lie inside the table after the entry headers.
 */
#include <string.h>

#include "svsm/le.h"

#include "abi/csvsm_vtpm_state.h"

#include "verify.h"

const char *manifest_parse(const uint8_t *buf, size_t len, struct manifest *m)
{
	static const uint8_t header_guid[16] = SVSM_MANIFEST_GUID;
	uint32_t total;
	uint32_t count;
	uint64_t headers_end;
	uint32_t i;

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
