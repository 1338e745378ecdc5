/* SPDX-License-Identifier: MIT */
/*
 * The protocols the SVSM offers: QUERY_PROTOCOL answers from
 * protocols_offered[], and the dispatcher serves exactly the protocols
 * listed there whose service is running.
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
