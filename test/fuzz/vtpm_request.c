/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the vTPM protocol's front end (src/core/protocol/vtpm.c): the
 * input is the guest's request block at a fuzzer-chosen offset in two
 * validated pages. One machine (with its manufactured TPM) serves every
 * input: making a TPM costs far more than a run. Checks: the result is one
 * of the codes 58019 allows for the call; on success the response size is
 * within the block and equals the TPM response header's size; the
 * machine's invariants hold.
 */
#include <stdint.h>
#include <string.h>

#include "abi/svsm_call.h"
#include "abi/svsm_vtpm.h"

#include "fuzz_harness.h"

#define PAGES_GPA 0x100000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sim_machine *vtpm_machine(void)
{
	static struct sim_machine *m;

	if (m == NULL) {
		m = fuzz_machine_with(1, true);
		fuzz_validate(m, PAGES_GPA, 2);
	}
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t pages[0x2000];
	struct sim_machine *m;
	struct sim_regs r = {0};
	uint64_t off;
	uint32_t rsp_size;
	uint32_t ret;

	if (size < 3) {
		return 0;
	}
	m = vtpm_machine();
	off = ((uint64_t)data[0] | ((uint64_t)data[1] << 8)) % 0x2000;
	memset(pages, 0, sizeof(pages));
	memcpy(pages + off, data + 3,
	       size - 3 < sizeof(pages) - off ? size - 3 : sizeof(pages) - off);
	if ((data[2] & 1) != 0 && off + 19 <= sizeof(pages)) {
		/* A well-formed block around fuzzed TPM bytes, so that the
		 * engine and the response path are reached too. */
		uint32_t n = (uint32_t)(size - 3 < 4087 ? size - 3 : 4087);

		n = n < 10 ? 10 : n;
		pages[off] = 8;
		memset(pages + off + 1, 0, 4);
		memcpy(pages + off + 5, &n, 4);
		pages[off + 11] = (uint8_t)(n >> 24);
		pages[off + 12] = (uint8_t)(n >> 16);
		pages[off + 13] = (uint8_t)(n >> 8);
		pages[off + 14] = (uint8_t)n;
	}
	if (sim_mem_write(m, PAGES_GPA, pages, sizeof(pages)) != SIM_OK) {
		abort();
	}
	r.rax = SVSM_CALL(SVSM_PROTOCOL_VTPM, SVSM_VTPM_CMD);
	r.rcx = PAGES_GPA + off;
	if (sim_call(m, 0, &r) != SIM_OK) {
		abort();
	}
	ret = (uint32_t)r.rax;
	if (ret == SVSM_SUCCESS) {
		uint8_t rsp[SVSM_VTPM_BUFFER_SIZE];

		if (sim_mem_read(m, PAGES_GPA + off, rsp, sizeof(rsp)) !=
		    SIM_OK) {
			abort();
		}
		memcpy(&rsp_size, rsp, 4);
		if (rsp_size < 10 || rsp_size > SVSM_VTPM_MAX_RESPONSE ||
		    (((uint32_t)rsp[6] << 24) | ((uint32_t)rsp[7] << 16) |
		     ((uint32_t)rsp[8] << 8) | rsp[9]) != rsp_size) {
			fprintf(stderr, "bad response size %u\n", rsp_size);
			abort();
		}
	} else if (ret != SVSM_ERR_INVALID_PARAMETER &&
		   ret != SVSM_ERR_INVALID_ADDRESS &&
		   ret != SVSM_ERR_UNSUPPORTED_CALL) {
		fprintf(stderr, "unexpected result 0x%x\n", ret);
		abort();
	}
	fuzz_check(m);
	return 0;
}
