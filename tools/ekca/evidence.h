/* SPDX-License-Identifier: MIT */
/*
 * The evidence a relying party verifies before it certifies an EK: an
 * SVSM attestation report, its VCEK and AMD's chain (the trust anchor the
 * relying party supplies), the nonce it chose, the services manifest the
 * report binds, and the launch MEASUREMENT of the SVSM image it trusts.
 * The checks are csvsm-verify's (tools/verify/, the same library
 * functions, docs/attestation.md), plus what makes a report the SVSM's
 * and its keys private: VMPL 0 and a guest policy without DEBUG.
 */
#ifndef TOOLS_EKCA_EVIDENCE_H
#define TOOLS_EKCA_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../verify/verify.h"

struct evidence {
	uint8_t report[SNP_REPORT_SIZE];
	X509 *vcek, *ask, *ark;
	const uint8_t *nonce;
	size_t nonce_len;
	const uint8_t *manifest;
	size_t manifest_len;
	bool single; /* the manifest is the vTPM's alone (ATTEST_SINGLE_SERVICE)
		      */
	uint8_t measurement[SNP_MEASUREMENT_LEN];
};

/** The first failed check: its name and what it expected. */
struct evidence_failure {
	const char *check;
	const char *expected;
};

/**
 * Verify @ev. True if every check passed; else false with the first
 * failure in *@fail. On success the manifest parsed into *@m (for a
 * single-service manifest, one vTPM entry covering all of it).
 */
bool evidence_verify(const struct evidence *ev, struct manifest *m,
		     struct evidence_failure *fail);

#endif /* TOOLS_EKCA_EVIDENCE_H */
