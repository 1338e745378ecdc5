/* SPDX-License-Identifier: MIT */
/*
 * SVSM calling convention: protocol and call numbers, result codes.
 * AMD publication 58019 (SVSM for SEV-SNP Guests) rev 1.00, sections 5 and 6,
 * Tables 3 and 4. Export header: constants only, identical for the firmware,
 * the simulator and the in-VM test guest.
 */
#ifndef ABI_SVSM_CALL_H
#define ABI_SVSM_CALL_H

#include <stdint.h>

/* RAX on entry: [63:32] protocol, [31:0] call (58019 section 5). */
#define SVSM_CALL(protocol, call)                                              \
	((((uint64_t)(protocol)) << 32) | (uint64_t)(uint32_t)(call))
#define SVSM_CALL_PROTOCOL(rax) ((uint32_t)((rax) >> 32))
#define SVSM_CALL_ID(rax) ((uint32_t)(rax))

/* Protocol numbers, 58019 Table 3. */
#define SVSM_PROTOCOL_CORE 0u
#define SVSM_PROTOCOL_ATTEST 1u
#define SVSM_PROTOCOL_VTPM 2u

/* Core protocol calls, 58019 section 6 (Table 5). */
#define SVSM_CORE_REMAP_CA 0u
#define SVSM_CORE_PVALIDATE 1u
#define SVSM_CORE_CREATE_VCPU 2u
#define SVSM_CORE_DELETE_VCPU 3u
#define SVSM_CORE_DEPOSIT_MEM 4u
#define SVSM_CORE_WITHDRAW_MEM 5u
#define SVSM_CORE_QUERY_PROTOCOL 6u
#define SVSM_CORE_CONFIGURE_VTOM 7u

/*
 * The names a tool prints for protocols and calls (the emulated machine's
 * instrument), as Linux's SVM_EXIT_REASONS: X(protocol, "name") for each
 * protocol, X(protocol, call, "name") for each call ("core PVALIDATE":
 * the protocol's name, then the call's), beside the call's number
 * (svsm_attest.h and svsm_vtpm.h list their protocols' calls).
 */
#define SVSM_PROTOCOL_NAMES(X)                                                 \
	X(SVSM_PROTOCOL_CORE, "core")                                          \
	X(SVSM_PROTOCOL_ATTEST, "attest")                                      \
	X(SVSM_PROTOCOL_VTPM, "vtpm")
#define SVSM_CORE_CALL_NAMES(X)                                                \
	X(SVSM_PROTOCOL_CORE, SVSM_CORE_REMAP_CA, "core REMAP_CA")             \
	X(SVSM_PROTOCOL_CORE, SVSM_CORE_PVALIDATE, "core PVALIDATE")           \
	X(SVSM_PROTOCOL_CORE, SVSM_CORE_CREATE_VCPU, "core CREATE_VCPU")       \
	X(SVSM_PROTOCOL_CORE, SVSM_CORE_DELETE_VCPU, "core DELETE_VCPU")       \
	X(SVSM_PROTOCOL_CORE, SVSM_CORE_DEPOSIT_MEM, "core DEPOSIT_MEM")       \
	X(SVSM_PROTOCOL_CORE, SVSM_CORE_WITHDRAW_MEM, "core WITHDRAW_MEM")     \
	X(SVSM_PROTOCOL_CORE, SVSM_CORE_QUERY_PROTOCOL, "core QUERY_PROTOCOL") \
	X(SVSM_PROTOCOL_CORE, SVSM_CORE_CONFIGURE_VTOM, "core CONFIGURE_VTOM")

/*
 * Result codes, 58019 Table 4: what a call returns to the guest in RAX
 * (only RAX[31:0] is significant). A type of its own, so the compiler
 * (-Wenum-conversion) refuses an internal error (enum svsm_err) or an
 * instruction's EAX (enum snp_ret) where a result is due; the mappings
 * are err_to_result() and core_rmp_result() (svsm/err.h). Values past
 * INT_MAX make the enum unsigned, as the wire value is.
 */
enum svsm_result {
	SVSM_SUCCESS = 0x00000000u,
	SVSM_ERR_INCOMPLETE = 0x80000000u,
	SVSM_ERR_UNSUPPORTED_PROTOCOL = 0x80000001u,
	SVSM_ERR_UNSUPPORTED_CALL = 0x80000002u,
	SVSM_ERR_INVALID_ADDRESS = 0x80000003u,
	SVSM_ERR_INVALID_FORMAT = 0x80000004u,
	SVSM_ERR_INVALID_PARAMETER = 0x80000005u,
	SVSM_ERR_INVALID_REQUEST = 0x80000006u,
	SVSM_ERR_BUSY = 0x80000007u,
	/* Protocol-defined errors start here (58019 Table 4). */
	SVSM_ERR_PROTOCOL_BASE = 0x80001000u,
	/*
	 * Core-protocol errors (58019 sections 6.2 and 6.4): 0x8000_1000 +
	 * the EAX of a failed PVALIDATE or RMPADJUST, plus two software
	 * codes.
	 */
	SVSM_PVALIDATE_FAIL_INPUT = 0x80001001u,
	SVSM_PVALIDATE_FAIL_PERMISSION = 0x80001002u,
	SVSM_ERR_FAIL_INUSE = 0x80001003u,
	SVSM_PVALIDATE_FAIL_SIZEMISMATCH = 0x80001006u,
	SVSM_PVALIDATE_FAIL_UNCHANGED = 0x80001010u,
	SVSM_PVALIDATE_FAIL_UNKNOWN = 0x80001011u,
	/* 0x4000_0000 + N: SVSM_RESULT_NEED_MEMORY(N) below. */
	SVSM_RESULT_NEED_MEMORY_BASE = 0x40000000u,
};

/*
 * 0x4000_0000 - 0x7FFF_FFFF: the SVSM needs more memory; [29:0] is the number
 * of 4 KiB pages the guest should lend with DEPOSIT_MEM (58019 Table 4).
 */
#define SVSM_RESULT_NEED_MEMORY_MASK 0x3FFFFFFFu
#define SVSM_RESULT_NEED_MEMORY(pages)                                         \
	((enum svsm_result)(SVSM_RESULT_NEED_MEMORY_BASE |                     \
			    ((uint32_t)(pages)&SVSM_RESULT_NEED_MEMORY_MASK)))

#endif /* ABI_SVSM_CALL_H */
