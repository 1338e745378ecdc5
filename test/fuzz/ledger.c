/* SPDX-License-Identifier: MIT */
/*
 * Fuzz csvsm-verify's ledger file parser (tools/verify/ledger.c): the
 * file is the relying party's, but anything may have written it.
 * Checks: a parsed ledger has no two records for one platform and image;
 * written back it is the same bytes (the format is canonical) and parses
 * to the same records; a refused file leaves no records.
 */
#include "../../tools/verify/ledger.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ledger l, again;
	static char text[1u << 20];
	unsigned i, j;
	size_t n;

	if (size > sizeof(text) / 2) {
		return 0;
	}
	if (ledger_parse(data, size, &l) != NULL) {
		if (l.count != 0) {
			abort();
		}
		return 0;
	}
	for (i = 0; i < l.count; i++) {
		for (j = i + 1; j < l.count; j++) {
			if (memcmp(l.rec[i].chip_id, l.rec[j].chip_id,
				   sizeof(l.rec[i].chip_id)) == 0 &&
			    memcmp(l.rec[i].measurement, l.rec[j].measurement,
				   sizeof(l.rec[i].measurement)) == 0) {
				abort();
			}
		}
	}
	n = ledger_format(&l, text, sizeof(text));
	/* Hex may come in either case; the rest is canonical. */
	if (size != 0 &&
	    (n != size || strncasecmp(text, (const char *)data, n) != 0)) {
		abort();
	}
	if (ledger_parse((const uint8_t *)text, n, &again) != NULL ||
	    again.count != l.count ||
	    memcmp(again.rec, l.rec, l.count * sizeof(l.rec[0])) != 0) {
		abort();
	}
	return 0;
}
