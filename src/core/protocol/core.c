/* SPDX-License-Identifier: MIT */
/*
 * Core protocol (protocol 0, version 1; AMD 58019 section 6). Every core
 * call runs start to end under the ownership lock request_process() holds
 * (svsm/owner_lock.h), so a second vCPU cannot race a check against its
 * use (T05): no core call waits on the host.
 */
#include "svsm/err.h"
#include "svsm/protocol.h"

#include "abi/snp.h"
#include "abi/svsm_call.h"

uint32_t core_protocol_handle(struct call_ctx *ctx)
{
	switch (SVSM_CALL_ID(ctx->rax)) {
	case SVSM_CORE_REMAP_CA:
		return core_remap_ca(ctx);
	case SVSM_CORE_PVALIDATE:
		return core_pvalidate(ctx);
	case SVSM_CORE_CREATE_VCPU:
		return core_create_vcpu(ctx);
	case SVSM_CORE_DELETE_VCPU:
		return core_delete_vcpu(ctx);
	case SVSM_CORE_DEPOSIT_MEM:
		return core_deposit_mem(ctx);
	case SVSM_CORE_WITHDRAW_MEM:
		return core_withdraw_mem(ctx);
	case SVSM_CORE_QUERY_PROTOCOL:
		return core_query_protocol(ctx);
	case SVSM_CORE_CONFIGURE_VTOM:
		return core_configure_vtom(ctx);
	default:
		return SVSM_ERR_UNSUPPORTED_CALL;
	}
}

/* 58019 sections 6.2 and 6.4: 0x8000_1000 + EAX, 0x8000_1011 above 0xF. */
uint32_t core_rmp_result(uint32_t eax)
{
	if (eax == SNP_RET_SUCCESS) {
		return SVSM_SUCCESS;
	}
	if (eax > 0xFu) {
		return SVSM_PVALIDATE_FAIL_UNKNOWN;
	}
	return SVSM_ERR_PROTOCOL_BASE + eax;
}

/* The one mapping from internal errors to guest result codes. */
uint32_t err_to_result(enum svsm_err err)
{
	switch (err) {
	case SVSM_OK:
		return SVSM_SUCCESS;
	case SVSM_E_INVAL:
		return SVSM_ERR_INVALID_PARAMETER;
	case SVSM_E_ADDR:
	case SVSM_E_FAULT:
		return SVSM_ERR_INVALID_ADDRESS;
	case SVSM_E_NOMEM:
		return SVSM_RESULT_NEED_MEMORY(1);
	case SVSM_E_INUSE:
		return SVSM_ERR_FAIL_INUSE;
	case SVSM_E_STATE:
		return SVSM_ERR_INVALID_REQUEST;
	default:
		return SVSM_ERR_INVALID_REQUEST;
	}
}
