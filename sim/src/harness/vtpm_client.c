/* SPDX-License-Identifier: MIT */
/*
 * The guest's vTPM driver, after Linux's tpm_svsm.c: it fills the request
 * block, makes the call, and parses the response size (rejecting one over
 * 4092 bytes or over the caller's buffer, as the driver does).
 */
#include <string.h>

#include "svsm/le.h"

#include "abi/svsm_call.h"
#include "abi/svsm_vtpm.h"

#include "sim_harness.h"

enum sim_status sim_vtpm_command(struct sim_machine *m, unsigned vcpu,
				 uint64_t block_gpa, const void *cmd,
				 uint32_t cmd_len, void *rsp, uint32_t rsp_max,
				 uint32_t *rsp_len, uint32_t *result)
{
	static uint8_t block[SVSM_VTPM_BUFFER_SIZE];
	struct sim_regs r = {
		.rax = SVSM_CALL(SVSM_PROTOCOL_VTPM, SVSM_VTPM_CMD),
		.rcx = block_gpa,
	};
	enum sim_status st;
	uint32_t size;

	if (m == NULL || cmd_len > SVSM_VTPM_MAX_COMMAND) {
		return SIM_BAD_ARG;
	}
	/* Only what the driver fills in: the rest of the block is stale. */
	le_put32(block + SVSM_VTPM_REQ_OFF_CMD, SVSM_VTPM_SEND_COMMAND);
	block[SVSM_VTPM_REQ_OFF_LOCALITY] = 0;
	le_put32(block + SVSM_VTPM_REQ_OFF_SIZE, cmd_len);
	memcpy(block + SVSM_VTPM_REQ_OFF_DATA, cmd, cmd_len);
	st = sim_mem_write(m, block_gpa, block,
			   SVSM_VTPM_REQ_OFF_DATA + cmd_len);
	if (st != SIM_OK) {
		return st;
	}
	st = sim_call(m, vcpu, &r);
	if (st != SIM_OK) {
		return st;
	}
	*result = (uint32_t)r.rax;
	*rsp_len = 0;
	if (*result != SVSM_SUCCESS) {
		return SIM_OK;
	}
	st = sim_mem_read(m, block_gpa, block, SVSM_VTPM_RSP_OFF_DATA);
	if (st != SIM_OK) {
		return st;
	}
	size = (uint32_t)block[0] | ((uint32_t)block[1] << 8) |
	       ((uint32_t)block[2] << 16) | ((uint32_t)block[3] << 24);
	if (size > SVSM_VTPM_MAX_RESPONSE || size > rsp_max) {
		return SIM_BAD_ARG;
	}
	st = sim_mem_read(m, block_gpa + SVSM_VTPM_RSP_OFF_DATA, rsp, size);
	if (st != SIM_OK) {
		return st;
	}
	*rsp_len = size;
	return SIM_OK;
}
