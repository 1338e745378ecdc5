/* SPDX-License-Identifier: MIT */
/*
 * The vTPM protocol, protocol 2 (58019 section 8; spec notes section 5;
 * Linux drivers/char/tpm/tpm_svsm.c). Threats: the request block is guest
 * memory the guest may change while the TPM works, so it is copied into
 * SVSM memory once and only the copy is checked and executed (T02); the
 * block may not be SVSM memory or a CA's control bytes (T01, T09); sizes
 * are checked against the block and the command's own header (T03).
 * SMP: a TPM command runs long (key generation), so the ownership lock is
 * dropped around it; the response is checked again, under it, as it is
 * written.
 */
#include "svsm/vtpm.h"

#include "svsm/guestmem.h"
#include "svsm/le.h"
#include "svsm/owner_lock.h"
#include "svsm/protocol.h"
#include "svsm/std.h"
#include "svsm/vtpm_store.h"

#include "abi/svsm_call.h"
#include "abi/svsm_vtpm.h"

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

/* Platform commands of the TCG simulator: known but not offered. */
static bool platform_cmd_known(uint32_t cmd)
{
	return (cmd >= 1 && cmd <= 18) || cmd == 20 || cmd == 21 || cmd == 25 ||
	       cmd == 26 || cmd == 30;
}

static enum svsm_result vtpm_cmd(struct call_ctx *ctx)
{
	uint8_t *req = ctx->cpu->scratch;
	uint8_t *rsp = ctx->cpu->scratch + SVSM_VTPM_BUFFER_SIZE;
	gpa_t gpa = gpa_init(ctx->rcx);
	uint32_t cmd;
	uint32_t size;
	uint32_t len;

	_Static_assert(sizeof(ctx->cpu->scratch) >=
			       (size_t)2 * SVSM_VTPM_BUFFER_SIZE,
		       "request and response copies fit the scratch area");
	if (gpa_val(gpa) == 0) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (guestmem_read_param(gpa, req, SVSM_VTPM_BUFFER_SIZE) != SVSM_OK) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	cmd = le_get32(req + SVSM_VTPM_REQ_OFF_CMD);
	if (cmd != SVSM_VTPM_SEND_COMMAND) {
		return platform_cmd_known(cmd) ? SVSM_ERR_UNSUPPORTED_CALL
					       : SVSM_ERR_INVALID_PARAMETER;
	}
	size = le_get32(req + SVSM_VTPM_REQ_OFF_SIZE);
	if (req[SVSM_VTPM_REQ_OFF_LOCALITY] != 0 || size < TPM2_HEADER_SIZE ||
	    size > SVSM_VTPM_MAX_COMMAND ||
	    be32(req + SVSM_VTPM_REQ_OFF_DATA + 2) != size) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	owner_unlock();
	len = vtpm_service_execute(req + SVSM_VTPM_REQ_OFF_DATA, size,
				   rsp + SVSM_VTPM_RSP_OFF_DATA,
				   SVSM_VTPM_MAX_RESPONSE);
	/* What the command changed is on the device before the guest
	 * sees its response (svsm/vtpm_store.h). */
	vtpm_store_commit();
	owner_lock();
	le_put32(rsp + SVSM_VTPM_RSP_OFF_SIZE, len);
	if (guestmem_write_param(gpa, rsp, SVSM_VTPM_RSP_OFF_DATA + len) !=
	    SVSM_OK) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	return SVSM_SUCCESS;
}

enum svsm_result vtpm_protocol_handle(struct call_ctx *ctx)
{
	switch (SVSM_CALL_ID(ctx->rax)) {
	case SVSM_VTPM_QUERY:
		ctx->rcx = SVSM_VTPM_QUERY_CMDS;
		ctx->rdx = 0; /* no features in version 1 */
		return SVSM_SUCCESS;
	case SVSM_VTPM_CMD:
		return vtpm_cmd(ctx);
	default:
		return SVSM_ERR_UNSUPPORTED_CALL;
	}
}
