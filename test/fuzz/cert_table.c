/* SPDX-License-Identifier: MIT */
/*
 * Fuzz csvsm-verify's reader of the host's certificate table
 * (tools/verify/cert_table.c), and the service-GUID text it takes.
 * Checks: a parsed table's certificates are non-empty and lie inside the
 * input after its entries, no GUID twice, and the all-zero entry is in
 * the input; finding a GUID gives that GUID's entry.
 */
#include <stdlib.h>
#include <string.h>

#include "abi/svsm_attest.h"

#include "../../tools/verify/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cert_table t;
	static const uint8_t vcek_guid[16] = SNP_CERT_GUID_VCEK;
	const struct cert_entry *e;
	char text[37];
	uint8_t guid[16];
	uint32_t i, j;
	size_t entries_end;

	if (cert_table_parse(data, size, &t) == NULL) {
		entries_end = ((size_t)t.count + 1) * SNP_CERT_ENTRY_SIZE;
		if (t.count > CERT_TABLE_MAX_ENTRIES || entries_end > size) {
			abort();
		}
		for (i = 0; i < t.count; i++) {
			if (t.entry[i].len == 0 ||
			    t.entry[i].data < data + entries_end ||
			    t.entry[i].data + t.entry[i].len > data + size) {
				abort();
			}
			for (j = 0; j < i; j++) {
				if (memcmp(t.entry[i].guid, t.entry[j].guid,
					   16) == 0) {
					abort();
				}
			}
		}
		e = cert_table_find(&t, vcek_guid);
		if (e != NULL && memcmp(e->guid, vcek_guid, 16) != 0) {
			abort();
		}
	}
	if (size >= sizeof(text) - 1) {
		memcpy(text, data, sizeof(text) - 1);
		text[sizeof(text) - 1] = '\0';
		(void)manifest_service_guid(text, guid);
	}
	return 0;
}
