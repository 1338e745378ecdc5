/* SPDX-License-Identifier: MIT */
/*
 * Protocol dispatch: a switch, not a table of mutable function pointers
 * (docs/coding-style.md). QUERY_PROTOCOL answers from protocols_offered[],
 * and the dispatcher serves exactly the protocols listed there.
 */
#include "svsm/guest_msg.h"
#include "svsm/protocol.h"
#include "svsm/std.h"
#include "svsm/vtpm.h"

#include "abi/svsm_call.h"

static const struct protocol_version_range protocols_offered[] = {
	{.protocol = SVSM_PROTOCOL_CORE, .min_version = 1, .max_version = 1},
	{.protocol = SVSM_PROTOCOL_ATTEST, .min_version = 1, .max_version = 1},
	{.protocol = SVSM_PROTOCOL_VTPM, .min_version = 1, .max_version = 1},
};

/* A protocol whose service did not start is not offered. */
static bool protocol_running(uint32_t protocol)
{
	switch (protocol) {
	case SVSM_PROTOCOL_ATTEST:
		return guest_msg_available();
	case SVSM_PROTOCOL_VTPM:
		return vtpm_service_active();
	default:
		return true;
	}
}

const struct protocol_version_range *protocol_offered(uint32_t protocol)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(protocols_offered); i++) {
		if (protocols_offered[i].protocol == protocol &&
		    protocol_running(protocol)) {
			return &protocols_offered[i];
		}
	}
	return NULL;
}

uint32_t protocol_dispatch(struct call_ctx *ctx)
{
	switch (SVSM_CALL_PROTOCOL(ctx->rax)) {
	case SVSM_PROTOCOL_CORE:
		return core_protocol_handle(ctx);
	case SVSM_PROTOCOL_ATTEST:
		return protocol_running(SVSM_PROTOCOL_ATTEST)
			       ? attest_protocol_handle(ctx)
			       : SVSM_ERR_UNSUPPORTED_PROTOCOL;
	case SVSM_PROTOCOL_VTPM:
		return protocol_running(SVSM_PROTOCOL_VTPM)
			       ? vtpm_protocol_handle(ctx)
			       : SVSM_ERR_UNSUPPORTED_PROTOCOL;
	default:
		return SVSM_ERR_UNSUPPORTED_PROTOCOL;
	}
}
