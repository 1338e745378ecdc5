/* SPDX-License-Identifier: MIT */
/*
 * Attestation of the SVSM's services (protocol 1): the services manifest
 * and the decoding of a guest's request. The handler itself is in
 * src/core/protocol/attest.c; the parts here are pure functions so they
 * can be tested and fuzzed alone.
 */
#ifndef SVSM_ATTEST_H
#define SVSM_ATTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/svsm_attest.h"

/**
 * Build the services manifest (SPEC Table 12) of every running service
 * into @buf if it fits in @cap. Returns its size (0: could not be built).
 */
size_t services_manifest(uint8_t *buf, size_t cap);

/**
 * The manifest of one service (ATTEST_SINGLE_SERVICE) at @version into
 * @buf (@cap bytes): the vTPM's is its EK's TPMT_PUBLIC, csvsm's vTPM
 * state entry the state's outcome, generations and digests
 * (abi/csvsm_vtpm_state.h). Its length; 0 if the GUID names no running
 * service, the version is not one it has, or @cap is short.
 */
size_t service_manifest(const uint8_t guid[16], uint32_t version, uint8_t *buf,
			size_t cap);

/**
 * Check the request @req (a copy in SVSM memory; @single: SINGLE_SERVICE
 * layout) for what needs no guest memory: reserved bytes zero, a 64-byte
 * nonce within one page, page-aligned output buffers, manifest version 0.
 * Returns SVSM_SUCCESS or the result code for the guest.
 */
enum svsm_result attest_request_check(const struct svsm_attest_req *req,
				      bool single);

#endif /* SVSM_ATTEST_H */
