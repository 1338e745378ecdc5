/* SPDX-License-Identifier: MIT */
/*
 * Protocol dispatch: a switch, not a table of mutable function pointers
 * (docs/coding-style.md). It serves exactly the protocols the registry
 * offers (registry.c, which QUERY_PROTOCOL answers from).
 */
#include "svsm/protocol.h"
#include "svsm/std.h"

#include "abi/svsm_call.h"

enum svsm_result protocol_dispatch(struct call_ctx *ctx)
{
	switch (SVSM_CALL_PROTOCOL(ctx->rax)) {
	case SVSM_PROTOCOL_CORE:
		return core_protocol_handle(ctx);
	case SVSM_PROTOCOL_ATTEST:
		return protocol_offered(SVSM_PROTOCOL_ATTEST) != NULL
			       ? attest_protocol_handle(ctx)
			       : SVSM_ERR_UNSUPPORTED_PROTOCOL;
	case SVSM_PROTOCOL_VTPM:
		return protocol_offered(SVSM_PROTOCOL_VTPM) != NULL
			       ? vtpm_protocol_handle(ctx)
			       : SVSM_ERR_UNSUPPORTED_PROTOCOL;
	default:
		return SVSM_ERR_UNSUPPORTED_PROTOCOL;
	}
}
