/* SPDX-License-Identifier: MIT */
/*
 * The certificate table of an extended guest request (GHCB spec 56421,
 * 4.1.8.1; SVSM spec 58019 hands the same table to the guest with
 * SVSM_ATTEST_SERVICES): entries {GUID, u32 offset, u32 length} from byte
 * 0, ended by an all-zero entry, then the certificates they point to.
 *
 * The table is the host's (threat: a hypervisor that lies to the relying
 * party), so nothing in it is believed: every entry must lie inside the
 * bytes present, the all-zero entry must be there, each certificate must
 * lie after the entries and inside the table, and no GUID may appear
 * twice (two VCEKs would let two readers pick different ones). A
 * certificate found here is only bytes: its chain authenticates it.
 * Bytes after the certificates are allowed (the table fills whole pages).
 */
#include <string.h>

#include "svsm/le.h"
#include "svsm/std.h"

#include "verify.h"

const char *cert_table_parse(const uint8_t *buf, size_t len,
			     struct cert_table *t)
{
	uint32_t count = 0, i, j;
	uint64_t entries_end;

	t->count = 0; /* nothing until all of it parsed */
	/* The entries, up to the all-zero one. */
	for (;;) {
		const uint8_t *e = buf + (size_t)count * SNP_CERT_ENTRY_SIZE;

		if ((uint64_t)(count + 1) * SNP_CERT_ENTRY_SIZE > len) {
			return "no all-zero entry ends the table";
		}
		if (mem_all_zero(e, 16)) {
			if (!mem_all_zero(e + 16, 8)) {
				return "an entry with a zero GUID has data";
			}
			break;
		}
		if (count == CERT_TABLE_MAX_ENTRIES) {
			return "too many entries";
		}
		count++;
	}
	entries_end = (uint64_t)(count + 1) * SNP_CERT_ENTRY_SIZE;
	for (i = 0; i < count; i++) {
		const uint8_t *e = buf + (size_t)i * SNP_CERT_ENTRY_SIZE;
		uint32_t off = le_get32(e + 16);
		uint32_t dlen = le_get32(e + 20);

		if (dlen == 0) {
			return "an entry has no certificate";
		}
		/* off <= len first, so len - off cannot wrap. */
		if (off < entries_end || off > len || dlen > len - off) {
			return "a certificate lies outside the table";
		}
		for (j = 0; j < i; j++) {
			if (memcmp(t->entry[j].guid, e, 16) == 0) {
				return "a GUID appears twice";
			}
		}
		memcpy(t->entry[i].guid, e, 16);
		t->entry[i].data = buf + off;
		t->entry[i].len = dlen;
	}
	t->count = count;
	return NULL;
}

const struct cert_entry *cert_table_find(const struct cert_table *t,
					 const uint8_t guid[16])
{
	uint32_t i;

	for (i = 0; i < t->count; i++) {
		if (memcmp(t->entry[i].guid, guid, 16) == 0) {
			return &t->entry[i];
		}
	}
	return NULL;
}
