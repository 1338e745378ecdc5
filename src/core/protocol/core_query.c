/* SPDX-License-Identifier: MIT */
/*
 * SVSM_CORE_QUERY_PROTOCOL and SVSM_CORE_CONFIGURE_VTOM (58019 sections 6.7,
 * 6.8).
 */
#include "svsm/memmap.h"
#include "svsm/protocol.h"
#include "svsm/std.h"

#include "abi/snp.h"
#include "abi/svsm_call.h"
#include "abi/svsm_core.h"

/* vTOM granularity: 2 MiB, so the boundary never splits a large page. */
#define VTOM_ALIGN_LOG2 21u
/* The highest vTOM: the top of a 52-bit guest-physical address space. */
#define VTOM_MAX ((1ull << 52) - (1ull << VTOM_ALIGN_LOG2))

enum svsm_result core_query_protocol(struct call_ctx *ctx)
{
	uint32_t protocol = (uint32_t)(ctx->rcx >> 32);
	uint32_t version = (uint32_t)ctx->rcx;
	const struct protocol_version_range *r = protocol_offered(protocol);

	if (r != NULL && version >= r->min_version &&
	    version <= r->max_version) {
		ctx->rcx =
			QUERY_PROTOCOL_RESULT(r->min_version, r->max_version);
	} else {
		ctx->rcx = 0;
	}
	return SVSM_SUCCESS;
}

/* Everything the SVSM owns must stay below vTOM (private). */
static uint64_t vtom_min(void)
{
	struct mem_range svsm = memmap_svsm_region();

	return ALIGN_UP(gpa_val(svsm.base) + svsm.size,
			1ull << VTOM_ALIGN_LOG2);
}

enum svsm_result core_configure_vtom(struct call_ctx *ctx)
{
	struct snp_vmsa *vmsa = ctx->caller->vmsa;
	uint64_t vtom = ctx->rcx & VTOM_RCX_VALUE_MASK;

	if (ctx->rcx & VTOM_RCX_QUERY) {
		ctx->rcx = VTOM_QUERY_SUPPORTED | ((uint64_t)VTOM_ALIGN_LOG2
						   << VTOM_QUERY_ALIGN_SHIFT);
		ctx->rdx = vtom_min();
		ctx->r8 = VTOM_MAX;
		return SVSM_SUCCESS;
	}
	if (ctx->rcx & VTOM_RCX_RESERVED_MASK) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	/* Switching address-space mode is only coherent on a single vCPU. */
	if (vcpu_count() != 1) {
		return SVSM_ERR_INVALID_REQUEST;
	}
	if (ctx->rcx & VTOM_RCX_ENABLE) {
		if (!IS_ALIGNED(vtom, 1ull << VTOM_ALIGN_LOG2) ||
		    vtom < vtom_min() || vtom > VTOM_MAX) {
			return SVSM_ERR_INVALID_ADDRESS;
		}
		vmsa->virtual_tom = vtom;
		vmsa->sev_features |= SEV_FEAT_VTOM;
	} else {
		vmsa->virtual_tom = 0;
		vmsa->sev_features &= ~SEV_FEAT_VTOM;
	}
	if (ctx->rcx & VTOM_RCX_SET_CR3) {
		vmsa->cr3 = ctx->rdx;
	}
	if (ctx->rcx & VTOM_RCX_SET_RIP) {
		vmsa->rip = ctx->r8;
	}
	if (ctx->rcx & VTOM_RCX_SET_RSP) {
		vmsa->rsp = ctx->r9;
	}
	return SVSM_SUCCESS;
}
