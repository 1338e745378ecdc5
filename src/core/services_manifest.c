/* SPDX-License-Identifier: MIT */
/*
 * The services manifest (SPEC Table 12, spec notes 4.3 and 4.4): a GUID
 * table of every running service with its manifest data: the vTPM's
 * (its EK's TPMT_PUBLIC), csvsm's vTPM state entry (which state the
 * vTPM runs, abi/csvsm_vtpm_state.h: a relying party's rollback
 * evidence) and csvsm's ECC P-256 EK entry (abi/csvsm_ek.h: the second
 * EK a relying party certifies). The core protocol and attestation are
 * the SVSM itself,
 * which MEASUREMENT covers.
 */
#include "svsm/attest.h"
#include "svsm/le.h"
#include "svsm/std.h"
#include "svsm/vtpm.h"
#include "svsm/vtpm_store.h"

#include "abi/csvsm_ek.h"
#include "abi/csvsm_vtpm_state.h"

static const uint8_t manifest_guid[16] = SVSM_MANIFEST_GUID;
static const uint8_t vtpm_guid[16] = SVSM_VTPM_SERVICE_GUID;
static const uint8_t state_guid[16] = CSVSM_VTPM_STATE_GUID;
static const uint8_t ecc_guid[16] = CSVSM_VTPM_EK_ECC_GUID;

size_t service_manifest(const uint8_t guid[16], uint32_t version, uint8_t *buf,
			size_t cap)
{
	const uint8_t *ek = NULL;
	size_t len = 0;

	if (version != 0 || !vtpm_service_active()) {
		return 0;
	}
	if (memcmp(guid, state_guid, 16) == 0) {
		/* Built afresh into the caller's buffer: the current
		 * generation moves while the vTPM runs. */
		return vtpm_store_manifest(buf, cap);
	}
	if (memcmp(guid, vtpm_guid, 16) == 0) {
		ek = vtpm_ek_public(&len);
	} else if (memcmp(guid, ecc_guid, 16) == 0) {
		ek = vtpm_ek_ecc_public(&len);
	}
	if (ek == NULL || len > cap) {
		return 0;
	}
	memcpy(buf, ek, len);
	return len;
}

/* Entry @i of the table at @buf: @guid's data, @len bytes at @off. */
static void entry_put(uint8_t *buf, uint32_t i, const uint8_t guid[16],
		      size_t off, size_t len)
{
	uint8_t *e = buf + SVSM_GUID_TABLE_HEADER_SIZE +
		     (size_t)i * SVSM_GUID_TABLE_ENTRY_SIZE;

	memcpy(e, guid, 16);
	le_put32(e + 16, (uint32_t)off);
	le_put32(e + 20, (uint32_t)len);
}

size_t services_manifest(uint8_t *buf, size_t cap)
{
	size_t ek_len = 0, ecc_len = 0;
	const uint8_t *ek =
		vtpm_service_active() ? vtpm_ek_public(&ek_len) : NULL;
	const uint8_t *ecc = ek != NULL ? vtpm_ek_ecc_public(&ecc_len) : NULL;
	/* The EK, the state and, if the vTPM has one, the ECC EK: appended
	 * last, so the first two entries stay where 58019 clients and
	 * earlier relying parties found them. */
	uint32_t count = ek == NULL ? 0u : ecc != NULL ? 3u : 2u;
	size_t off = SVSM_GUID_TABLE_HEADER_SIZE +
		     count * SVSM_GUID_TABLE_ENTRY_SIZE;
	size_t st_len = 0;
	size_t total = off + ek_len;

	if (total > cap) {
		return 0;
	}
	memset(buf, 0, off);
	if (ek != NULL) {
		memcpy(buf + off, ek, ek_len);
		entry_put(buf, 0, vtpm_guid, off, ek_len);
		/* Built afresh: the current generation moves. A running
		 * vTPM always has its state entry (vtpm_store_boot). */
		st_len = vtpm_store_manifest(buf + total, cap - total);
		if (st_len == 0) {
			return 0;
		}
		entry_put(buf, 1, state_guid, total, st_len);
		total += st_len;
	}
	if (ecc != NULL) {
		if (ecc_len > cap - total) {
			return 0;
		}
		memcpy(buf + total, ecc, ecc_len);
		entry_put(buf, 2, ecc_guid, total, ecc_len);
		total += ecc_len;
	}
	if (total > UINT32_MAX) {
		return 0;
	}
	memcpy(buf, manifest_guid, 16);
	le_put32(buf + 16, (uint32_t)total);
	le_put32(buf + 20, count);
	return total;
}
