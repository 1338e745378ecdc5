/* SPDX-License-Identifier: MIT */
/*
 * Protocol handlers. Each call gets the caller's registers copied out of its
 * VMSA into a struct call_ctx; the handler returns a result code
 * (abi/svsm_call.h) and may set output registers in the context, which the
 * request loop writes back (RAX, RCX, RDX and R8 always).
 */
#ifndef SVSM_PROTOCOL_H
#define SVSM_PROTOCOL_H

#include <stdint.h>

#include "svsm/vcpu.h"

struct call_ctx {
	struct svsm_cpu *cpu;
	struct vcpu *caller;
	uint64_t rax;
	uint64_t rcx;
	uint64_t rdx;
	uint64_t r8;
	uint64_t r9;
	/* Set when the caller deleted its own VMSA: do not resume it. */
	bool caller_deleted;
};

/** One protocol the SVSM offers and the versions it speaks. */
struct protocol_version_range {
	uint32_t protocol;
	uint32_t min_version;
	uint32_t max_version;
};

/** Dispatch on RAX[63:32] then RAX[31:0]; returns the result code. */
enum svsm_result protocol_dispatch(struct call_ctx *ctx);
/** The protocols QUERY_PROTOCOL reports and dispatch serves (registry.c). */
const struct protocol_version_range *protocol_offered(uint32_t protocol);

enum svsm_result core_protocol_handle(struct call_ctx *ctx);
enum svsm_result core_remap_ca(struct call_ctx *ctx);
enum svsm_result core_pvalidate(struct call_ctx *ctx);
enum svsm_result core_create_vcpu(struct call_ctx *ctx);
enum svsm_result core_delete_vcpu(struct call_ctx *ctx);
enum svsm_result core_deposit_mem(struct call_ctx *ctx);
enum svsm_result core_withdraw_mem(struct call_ctx *ctx);
enum svsm_result core_query_protocol(struct call_ctx *ctx);
enum svsm_result core_configure_vtom(struct call_ctx *ctx);

enum svsm_result attest_protocol_handle(struct call_ctx *ctx);
enum svsm_result vtpm_protocol_handle(struct call_ctx *ctx);

#endif /* SVSM_PROTOCOL_H */
