/* SPDX-License-Identifier: MIT */
/*
 * A TCG2 crypto-agile event log (TCG PC Client Platform Firmware Profile,
 * "Crypto Agile Log Format"), little-endian: first an EV_NO_ACTION event
 * in the SHA-1 format (TCG_PCClientPCREvent) whose data is
 * TCG_EfiSpecIDEvent "Spec ID Event03" naming the banks, then one
 * TCG_PCR_EVENT2 per measurement with a digest for every bank, in the
 * Spec ID event's order. Pure and build-only: it parses nothing.
 * Invariant: a log that ran out of room is marked bad and never grows
 * again, so what it holds is always whole events.
 */
#ifndef VTPM_TCG_LOG_H
#define VTPM_TCG_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TCG_ALG_SHA1 0x0004u
#define TCG_ALG_SHA256 0x000Bu
#define TCG_ALG_SHA384 0x000Cu
#define TCG_ALG_SHA512 0x000Du

#define TCG_EV_NO_ACTION 0x03u
#define TCG_EV_SEPARATOR 0x04u
#define TCG_EV_IPL 0x0Du

#define TCG_LOG_MAX_BANKS 4u
#define TCG_DIGEST_MAX 64u

struct tcg_log {
	uint8_t *buf;
	size_t cap, len;
	unsigned nbanks;
	uint16_t algs[TCG_LOG_MAX_BANKS];
	bool bad; /* out of room or an unknown bank: nothing more is added */
};

/** The digest length of TPM_ALG_ID @alg, 0 if the log does not know it. */
size_t tcg_alg_len(uint16_t alg);

/**
 * Start the log in @buf (@cap bytes) for the banks @algs (@n, 1 to
 * TCG_LOG_MAX_BANKS, each known to tcg_alg_len) with the Spec ID event.
 * False (and @l bad) if they do not fit or a bank is unknown.
 */
bool tcg_log_begin(struct tcg_log *l, uint8_t *buf, size_t cap,
		   const uint16_t *algs, unsigned n);

/**
 * Append a TCG_PCR_EVENT2: @pcr, @type, the digests (@digests[i] for
 * bank i, tcg_alg_len(algs[i]) bytes each), the event data @data (@len).
 * False if it does not fit (nothing is written; the log is bad).
 */
bool tcg_log_event(struct tcg_log *l, uint32_t pcr, uint32_t type,
		   const uint8_t (*digests)[TCG_DIGEST_MAX], const void *data,
		   uint32_t len);

#endif /* VTPM_TCG_LOG_H */
