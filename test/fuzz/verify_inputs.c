/* SPDX-License-Identifier: MIT */
/*
 * Fuzz csvsm-verify's parsers of untrusted input (tools/verify/): the
 * report file (raw or hex), the services manifest and a hex nonce.
 * Checks: a parsed manifest's entries lie inside the input; a parsed
 * report is exactly 1184 bytes' worth.
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/common/hex.h"
#include "../../tools/verify/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct manifest m;
	static uint8_t report[SNP_REPORT_SIZE];
	struct report_fields f;
	char hex[257];
	uint8_t out[128];
	size_t n;
	uint32_t i;

	if (manifest_parse(data, size, &m) == NULL) {
		for (i = 0; i < m.count; i++) {
			if (m.entry[i].len != 0 &&
			    (m.entry[i].data < data ||
			     m.entry[i].data + m.entry[i].len > data + size)) {
				abort();
			}
		}
	}
	if (report_parse(data, size, report)) {
		report_decode(report, &f);
		(void)report_unsigned_zero(report);
	}
	n = size < sizeof(hex) - 1 ? size : sizeof(hex) - 1;
	memcpy(hex, data, n);
	hex[n] = '\0';
	if (hex_parse(hex, out, sizeof(out), &n) && n > sizeof(out)) {
		abort();
	}
	return 0;
}
