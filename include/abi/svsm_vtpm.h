/* SPDX-License-Identifier: MIT */
/*
 * The SVSM vTPM protocol (protocol 2, 58019 section 8; Linux
 * include/linux/tpm_svsm.h).
 * The request/response buffer is one 4 KiB block, little-endian, packed.
 */
#ifndef ABI_SVSM_VTPM_H
#define ABI_SVSM_VTPM_H

#include <stdint.h>

#define SVSM_VTPM_QUERY 0u
#define SVSM_VTPM_CMD 1u
/* Their names, as svsm_call.h's SVSM_CORE_CALL_NAMES. */
#define SVSM_VTPM_CALL_NAMES(X)                                                \
	X(SVSM_PROTOCOL_VTPM, SVSM_VTPM_QUERY, "vtpm QUERY")                   \
	X(SVSM_PROTOCOL_VTPM, SVSM_VTPM_CMD, "vtpm CMD")

#define SVSM_VTPM_BUFFER_SIZE 4096u
/* Platform commands (TCG simulator numbering, TpmTcpProtocol.h). */
#define SVSM_VTPM_PLATFORM_CMD_MAX 30u
#define SVSM_VTPM_SEND_COMMAND 8u
#define SVSM_VTPM_QUERY_CMDS (1ull << SVSM_VTPM_SEND_COMMAND)

/* TPM_SEND_COMMAND request (SPEC Table 16). */
#define SVSM_VTPM_REQ_OFF_CMD 0u
#define SVSM_VTPM_REQ_OFF_LOCALITY 4u
#define SVSM_VTPM_REQ_OFF_SIZE 5u
#define SVSM_VTPM_REQ_OFF_DATA 9u
#define SVSM_VTPM_MAX_COMMAND (SVSM_VTPM_BUFFER_SIZE - SVSM_VTPM_REQ_OFF_DATA)
/* Response (SPEC Table 17). */
#define SVSM_VTPM_RSP_OFF_SIZE 0u
#define SVSM_VTPM_RSP_OFF_DATA 4u
#define SVSM_VTPM_MAX_RESPONSE (SVSM_VTPM_BUFFER_SIZE - SVSM_VTPM_RSP_OFF_DATA)

_Static_assert(SVSM_VTPM_MAX_COMMAND == 4087, "Linux: len > 4087 rejected");
_Static_assert(SVSM_VTPM_MAX_RESPONSE == 4092, "Linux: buf_size > 4092");

/* TPM 2.0 wire facts the SVSM itself needs (TPM 2.0 Part 2). */
#define TPM2_HEADER_SIZE 10u
#define TPM2_ST_NO_SESSIONS 0x8001u
#define TPM2_ST_SESSIONS 0x8002u
#define TPM2_RC_SUCCESS 0x000u
#define TPM2_RC_FAILURE 0x101u
#define TPM2_RC_INITIALIZE 0x100u

#endif /* ABI_SVSM_VTPM_H */
