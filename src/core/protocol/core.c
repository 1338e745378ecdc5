/* SPDX-License-Identifier: MIT */
/*
 * Core protocol (protocol 0, version 1; AMD 58019 section 6). Every core
 * call runs start to end under the ownership lock request_process() holds
 * (svsm/owner_lock.h), so a second vCPU cannot race a check against its
 * use (T05): no core call waits on the host.
 */
#include "svsm/protocol.h"

#include "abi/svsm_call.h"

enum svsm_result core_protocol_handle(struct call_ctx *ctx)
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
