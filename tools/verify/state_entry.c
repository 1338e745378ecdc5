/* SPDX-License-Identifier: MIT */
/*
 * The vTPM state entry of a services manifest (ledger.h), parsed from
 * untrusted bytes: every field read once, every rule the SVSM keeps
 * checked, so a malformed entry is named and never judged.
 */
#include <openssl/sha.h>
#include <string.h>

#include "svsm/le.h"

#include "ledger.h"

static bool zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] != 0) {
			return false;
		}
	}
	return true;
}

void state_evidence_ek(struct state_evidence *ev, const uint8_t *ek, size_t len)
{
	SHA256(ek, len, ev->ek_digest);
}

const char *state_outcome_name(uint32_t outcome)
{
	static const char *const names[] = {
		"ok",
		"missing",
		"truncated",
		"corrupt",
		"older format",
		"newer format",
		"another image",
		"another TCB",
		"another machine",
		"rolled back",
		"refused by the engine",
	};

	if (outcome < sizeof(names) / sizeof(names[0])) {
		return names[outcome];
	}
	if (outcome == CSVSM_VTPM_STATE_NO_STORAGE) {
		return "no storage";
	}
	if (outcome == CSVSM_VTPM_STATE_NO_KEY) {
		return "no sealing key";
	}
	return NULL;
}

const char *state_entry_parse(const uint8_t *d, size_t len,
			      struct state_evidence *ev)
{
	const uint32_t known_flags =
		CSVSM_VTPM_STATE_F_PERSISTENT | CSVSM_VTPM_STATE_F_WRITE_FAILED;

	memset(ev, 0, sizeof(*ev));
	if (len != CSVSM_VTPM_STATE_ENTRY_LEN) {
		return "the vTPM state entry has the wrong length";
	}
	if (le_get32(d + CSVSM_VTPM_STATE_OFF_VERSION) !=
	    CSVSM_VTPM_STATE_ENTRY_VERSION) {
		return "the vTPM state entry's version is not 1";
	}
	if (le_get32(d + CSVSM_VTPM_STATE_OFF_RSVD1) != 0 ||
	    le_get64(d + CSVSM_VTPM_STATE_OFF_RSVD2) != 0) {
		return "the vTPM state entry's reserved fields are not zero";
	}
	ev->outcome = le_get32(d + CSVSM_VTPM_STATE_OFF_OUTCOME);
	ev->flags = le_get32(d + CSVSM_VTPM_STATE_OFF_FLAGS);
	memcpy(ev->boot_id, d + CSVSM_VTPM_STATE_OFF_BOOT_ID,
	       sizeof(ev->boot_id));
	ev->loaded_generation = le_get64(d + CSVSM_VTPM_STATE_OFF_LOADED_GEN);
	ev->current_generation = le_get64(d + CSVSM_VTPM_STATE_OFF_CURRENT_GEN);
	memcpy(ev->loaded_digest, d + CSVSM_VTPM_STATE_OFF_LOADED_DIGEST,
	       sizeof(ev->loaded_digest));
	memcpy(ev->current_digest, d + CSVSM_VTPM_STATE_OFF_CURRENT_DIGEST,
	       sizeof(ev->current_digest));
	ev->writes = le_get64(d + CSVSM_VTPM_STATE_OFF_WRITES);
	if (state_outcome_name(ev->outcome) == NULL ||
	    ev->outcome == CSVSM_VTPM_STATE_ROLLED_BACK) {
		return "the vTPM state entry's outcome is unknown";
	}
	if ((ev->flags & ~known_flags) != 0) {
		return "the vTPM state entry has unknown flags";
	}
	/* Only a loaded state has a generation and digest at boot. */
	if (ev->outcome != CSVSM_VTPM_STATE_OK &&
	    (ev->loaded_generation != 0 ||
	     !zero(ev->loaded_digest, sizeof(ev->loaded_digest)))) {
		return "the vTPM state entry names a loaded state it did not "
		       "load";
	}
	if (ev->outcome == CSVSM_VTPM_STATE_OK &&
	    (ev->loaded_generation == 0 ||
	     (ev->flags & CSVSM_VTPM_STATE_F_PERSISTENT) == 0)) {
		return "the vTPM state entry loaded a state it does not keep";
	}
	/* Every write is one generation newer than the one before. */
	if (ev->current_generation < ev->loaded_generation ||
	    ev->current_generation - ev->loaded_generation != ev->writes) {
		return "the vTPM state entry's generations and writes "
		       "disagree";
	}
	if ((ev->flags & CSVSM_VTPM_STATE_F_PERSISTENT) == 0 &&
	    ev->writes != 0) {
		return "the vTPM state entry wrote a state it does not keep";
	}
	if (ev->writes == 0 && memcmp(ev->loaded_digest, ev->current_digest,
				      sizeof(ev->loaded_digest)) != 0) {
		return "the vTPM state entry's digests differ without a write";
	}
	return NULL;
}
