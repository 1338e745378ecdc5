/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the reading of the vTPM state entry of a services manifest
 * (tools/verify/state_entry.c) and its verdict (ledger.c): the manifest
 * is the SVSM's, signed into the report, but csvsm-verify checks it as
 * untrusted. The input is a manifest; each entry is read as a state
 * entry, and the first 0xA0 bytes of the input as one too. Checks: an
 * entry that parses keeps the SVSM's rules (generations add up with the
 * writes; only OK has a loaded state); a verdict against a ledger record
 * built from the input never moves a rollback's or fork's record.
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/verify/ledger.h"
#include "../../tools/verify/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void judge_one(const uint8_t *e, size_t len, const uint8_t *data,
		      size_t size)
{
	struct state_evidence ev;
	struct ledger_rec known, next;
	enum ledger_verdict v;

	if (state_entry_parse(e, len, &ev) != NULL) {
		return;
	}
	if (ev.current_generation - ev.loaded_generation != ev.writes ||
	    (ev.outcome != CSVSM_VTPM_STATE_OK && ev.loaded_generation != 0)) {
		abort();
	}
	memset(&known, 0, sizeof(known));
	if (size >= sizeof(known)) {
		memcpy(&known, data + size - sizeof(known), sizeof(known));
	}
	v = ledger_judge(&known, &ev, &next);
	if ((v == LEDGER_ROLLBACK || v == LEDGER_FORK) &&
	    memcmp(&known, &next, sizeof(known)) != 0) {
		abort();
	}
	if (v == LEDGER_NEW) {
		abort(); /* only without a record */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct manifest m;
	uint32_t i;

	if (manifest_parse(data, size, &m) == NULL) {
		for (i = 0; i < m.count; i++) {
			if (m.entry[i].data != NULL) {
				judge_one(m.entry[i].data, m.entry[i].len, data,
					  size);
			}
		}
	}
	if (size >= CSVSM_VTPM_STATE_ENTRY_LEN) {
		judge_one(data, CSVSM_VTPM_STATE_ENTRY_LEN, data, size);
	}
	return 0;
}
