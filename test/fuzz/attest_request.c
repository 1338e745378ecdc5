/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the attestation protocol's front end (src/core/protocol/attest.c):
 * the request structure (services or single-service layout) and the
 * nonce come from the fuzzer; buffer addresses are drawn near validated
 * pages, SVSM memory and the end of RAM. One machine with a vTPM serves
 * every input. Checks: the result is one the protocol may return; on
 * success RCX/RDX/R8 are sizes that fit what the request offered; the
 * machine's invariants hold (no SVSM memory touched).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "abi/svsm_attest.h"
#include "abi/svsm_call.h"

#include "fuzz_harness.h"

#define PAGES_GPA 0x100000ull
#define PAGES 8u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sim_machine *attest_machine(void)
{
	static struct sim_machine *m;

	if (m == NULL) {
		m = fuzz_machine_with(1, true);
		fuzz_validate(m, PAGES_GPA, PAGES);
	}
	return m;
}

/* A fuzzed address: inside the validated pages, in SVSM memory, near
 * the end of RAM, or raw. */
static uint64_t pick(uint8_t sel, uint64_t raw)
{
	switch (sel & 3) {
	case 0:
		return PAGES_GPA + (raw % (PAGES * 0x1000ull));
	case 1:
		return PAGES_GPA + ((raw % PAGES) * 0x1000ull);
	case 2:
		return (2ull << 20) + (raw % (1ull << 20));
	default:
		return raw;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_machine *m;
	struct svsm_attest_req req;
	uint8_t nonce[64];
	struct sim_regs r = {0};
	uint64_t caa;
	uint32_t ret;
	bool single;

	if (size < 2 + sizeof(req)) {
		return 0;
	}
	m = attest_machine();
	caa = sim_current_caa_gpa(m, 0);
	single = (data[0] & 0x80) != 0;
	memcpy(&req, data + 2, sizeof(req));
	req.report.pa = pick(data[0], req.report.pa);
	req.manifest.pa = pick(data[0] >> 2, req.manifest.pa);
	req.certificates.pa = pick(data[0] >> 4, req.certificates.pa);
	req.nonce_pa = pick(data[1], req.nonce_pa);
	if ((data[1] & 0x80) != 0) {
		/* Mostly well formed, so the PSP path is reached too. */
		memset(req.rsvd1, 0, sizeof(req.rsvd1));
		memset(req.report.rsvd, 0, 4);
		memset(req.manifest.rsvd, 0, 4);
		memset(req.certificates.rsvd, 0, 4);
		memset(req.rsvd2, 0, 4);
		req.nonce_len = 64;
		req.manifest_version = 0;
	}
	memset(nonce, 0x5A, sizeof(nonce));
	(void)sim_mem_write(m, caa + 8, &req, sizeof(req));
	r.rax = SVSM_CALL(SVSM_PROTOCOL_ATTEST,
			  single ? SVSM_ATTEST_SINGLE_SERVICE
				 : SVSM_ATTEST_SERVICES);
	r.rcx = (data[1] & 0x40) != 0 ? pick(data[1] >> 2, req.report.pa)
				      : caa + 8;
	r.rdx = r.r8 = ~0ull;
	if (sim_call(m, 0, &r) != SIM_OK) {
		abort();
	}
	ret = (uint32_t)r.rax;
	if (ret == SVSM_SUCCESS) {
		if (r.r8 != SNP_REPORT_SIZE || r.r8 > req.report.len ||
		    r.rcx > req.manifest.len || r.rdx > req.certificates.len) {
			fprintf(stderr, "sizes past the buffers\n");
			abort();
		}
	} else if (ret != SVSM_ERR_INVALID_PARAMETER &&
		   ret != SVSM_ERR_INVALID_ADDRESS &&
		   ret != SVSM_ERR_UNSUPPORTED_PROTOCOL) {
		fprintf(stderr, "unexpected result 0x%x\n", ret);
		abort();
	}
	fuzz_check(m);
	return 0;
}
