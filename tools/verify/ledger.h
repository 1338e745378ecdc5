/* SPDX-License-Identifier: MIT */
/*
 * csvsm-verify's rollback evidence (docs/vtpm.md, "Rollback evidence"):
 * the vTPM state entry of a services manifest (abi/csvsm_vtpm_state.h),
 * parsed from untrusted bytes, and a relying party's ledger of the
 * newest state it has seen per platform (CHIP_ID) and image
 * (MEASUREMENT), judged against each new verified report.
 *
 * The ledger file is text, and untrusted too (another program, or
 * another person, may have written it): one header line
 * "csvsm-verify ledger 1", then one line per platform and image:
 *   CHIP_ID(128 hex) MEASUREMENT(96 hex) BOOT_ID(32 hex) GENERATION
 *   (decimal, at most 20 digits) DIGEST(96 hex) EK(64 hex)
 * separated by single spaces, each line ended by '\n', no two lines for
 * the same platform and image.
 */
#ifndef VERIFY_LEDGER_H
#define VERIFY_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/csvsm_vtpm_state.h"
#include "abi/svsm_attest.h"

/* What a report's manifest says of the vTPM's state. */
struct state_evidence {
	uint32_t outcome; /* CSVSM_VTPM_STATE_* */
	uint32_t flags;
	uint8_t boot_id[CSVSM_VTPM_STATE_BOOT_ID_LEN];
	uint64_t loaded_generation;
	uint64_t current_generation;
	uint8_t loaded_digest[CSVSM_VTPM_STATE_DIGEST_LEN];
	uint8_t current_digest[CSVSM_VTPM_STATE_DIGEST_LEN];
	uint64_t writes;
	/* SHA-256 of the vTPM entry's data (the RSA EK's TPMT_PUBLIC):
	 * which TPM this is. A manufactured TPM draws a new seed, so a new
	 * EK; a restored one keeps its EK. Zero without a vTPM entry. */
	uint8_t ek_digest[32];
};

/**
 * Parse the state entry's @len bytes: NULL on success, else what is
 * wrong (a wrong length, version, reserved bits, an unknown outcome or
 * flag, generations or digests that contradict the outcome).
 */
const char *state_entry_parse(const uint8_t *data, size_t len,
			      struct state_evidence *ev);
/** Record the vTPM entry's data (the EK) of the same manifest in @ev. */
void state_evidence_ek(struct state_evidence *ev, const uint8_t *ek,
		       size_t len);
/** The outcome's name ("ok", "missing", ..., "no storage"). */
const char *state_outcome_name(uint32_t outcome);

struct ledger_rec {
	uint8_t chip_id[SNP_CHIP_ID_LEN];
	uint8_t measurement[SNP_MEASUREMENT_LEN];
	uint8_t boot_id[CSVSM_VTPM_STATE_BOOT_ID_LEN];
	uint64_t generation;
	uint8_t digest[CSVSM_VTPM_STATE_DIGEST_LEN];
	uint8_t ek_digest[32];
};

#define LEDGER_MAX_RECS 4096u

struct ledger {
	unsigned count;
	struct ledger_rec rec[LEDGER_MAX_RECS];
};

/** Parse a ledger file's @len bytes (0 bytes: an empty ledger). NULL on
 * success, else what is wrong; @l is empty unless it parsed. */
const char *ledger_parse(const uint8_t *buf, size_t len, struct ledger *l);
/** The ledger as its file's text into @buf (@cap bytes); its length, 0
 * if it does not fit. */
size_t ledger_format(const struct ledger *l, char *buf, size_t cap);
/** The record of @chip_id and @measurement, or NULL. */
struct ledger_rec *ledger_find(struct ledger *l, const uint8_t *chip_id,
			       const uint8_t *measurement);

enum ledger_verdict {
	LEDGER_NEW,	 /* no record yet: this report's state is the first */
	LEDGER_OK,	 /* at or after the newest state known */
	LEDGER_ROLLBACK, /* it started from a state older than one seen */
	LEDGER_FORK,	 /* the same generation as one seen, other bytes */
	LEDGER_RESTART,	 /* not the known TPM: no stored state, or another
			    TPM's (another EK) */
};

/**
 * Judge @ev against @known (NULL: none) and fill @next with what the
 * ledger should hold afterwards (for ROLLBACK and FORK, @known as it
 * was: the newest state seen stays the reference).
 */
enum ledger_verdict ledger_judge(const struct ledger_rec *known,
				 const struct state_evidence *ev,
				 struct ledger_rec *next);
const char *ledger_verdict_name(enum ledger_verdict v);

#endif /* VERIFY_LEDGER_H */
