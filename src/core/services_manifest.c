/* SPDX-License-Identifier: MIT */
/*
 * The services manifest (SPEC Table 12, spec notes 4.3 and 4.4): a GUID
 * table of every running service with its manifest data. Only the vTPM
 * has a service GUID today; the core protocol and attestation are the
 * SVSM itself, which MEASUREMENT covers.
 */
#include "svsm/attest.h"
#include "svsm/le.h"
#include "svsm/std.h"
#include "svsm/vtpm.h"

static const uint8_t manifest_guid[16] = SVSM_MANIFEST_GUID;
static const uint8_t vtpm_guid[16] = SVSM_VTPM_SERVICE_GUID;

const uint8_t *service_manifest(const uint8_t guid[16], uint32_t version,
				size_t *len)
{
	if (memcmp(guid, vtpm_guid, 16) == 0 && version == 0 &&
	    vtpm_service_active()) {
		return vtpm_ek_public(len);
	}
	return NULL;
}

size_t services_manifest(uint8_t *buf, size_t cap)
{
	size_t ek_len = 0;
	const uint8_t *ek = service_manifest(vtpm_guid, 0, &ek_len);
	uint32_t count = ek != NULL ? 1u : 0u;
	size_t total = SVSM_GUID_TABLE_HEADER_SIZE +
		       count * SVSM_GUID_TABLE_ENTRY_SIZE + ek_len;

	if (total > cap || total > UINT32_MAX) {
		return 0;
	}
	memset(buf, 0, total);
	memcpy(buf, manifest_guid, 16);
	le_put32(buf + 16, (uint32_t)total);
	le_put32(buf + 20, count);
	if (ek != NULL) {
		uint8_t *e = buf + SVSM_GUID_TABLE_HEADER_SIZE;
		size_t off = SVSM_GUID_TABLE_HEADER_SIZE +
			     SVSM_GUID_TABLE_ENTRY_SIZE;

		memcpy(e, vtpm_guid, 16);
		le_put32(e + 16, (uint32_t)off);
		le_put32(e + 20, (uint32_t)ek_len);
		memcpy(buf + off, ek, ek_len);
	}
	return total;
}
