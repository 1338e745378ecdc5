/* SPDX-License-Identifier: MIT */
/*
 * SVSM_CORE_REMAP_CA (58019 section 6.1). Affects the calling vCPU only.
 * The old CA's call_pending was already cleared when the request was taken.
 */
#include "svsm/deposit.h"
#include "svsm/err.h"
#include "svsm/guestmem.h"
#include "svsm/ownership.h"
#include "svsm/protocol.h"

#include "abi/svsm_caa.h"
#include "abi/svsm_call.h"

enum svsm_result core_remap_ca(struct call_ctx *ctx)
{
	gpa_t caa = gpa_init(ctx->rcx);
	uint8_t hdr[8] = {0};
	enum svsm_err err;

	if (!gpa_is_aligned(caa, SNP_PAGE_SIZE)) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (gpa_eq(caa, ctx->caller->caa_gpa)) {
		return SVSM_SUCCESS;
	}
	/* T01/T05: not SVSM memory, not a VMSA, not another APIC ID's CA
	 * (the rule CREATE_VCPU follows). */
	if (!owner_caa_ok(caa, ctx->caller->apic_id)) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	hdr[SVSM_CAA_OFF_CALL_PENDING] = SVSM_CALL_PENDING_NONE;
	hdr[SVSM_CAA_OFF_MEM_AVAILABLE] =
		ctx->caller->is_startup && deposit_has_free() ? 1 : 0;
	/* A CA that faults (not validated) is refused before it is used. */
	err = guestmem_write(caa, hdr, sizeof(hdr));
	if (err != SVSM_OK) {
		return err_to_result(err);
	}
	ctx->caller->caa_gpa = caa;
	return SVSM_SUCCESS;
}
