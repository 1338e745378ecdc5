/* SPDX-License-Identifier: MIT */
/*
 * The GHCB: MSR protocol values and the GHCB page fields the SVSM and its
 * platforms use (AMD 56421; Linux sev-common.h and struct ghcb; spec file
 * svsm-interfaces.md section 7).
 */
#ifndef ABI_GHCB_H
#define ABI_GHCB_H

#include <stdint.h>

/* MSR protocol: GHCBInfo is bits [11:0]. */
#define GHCB_MSR_SEV_INFO_RESP 0x001ull
#define GHCB_MSR_SEV_INFO_REQ 0x002ull
#define GHCB_MSR_REG_GPA_REQ 0x012ull
#define GHCB_MSR_REG_GPA_RESP 0x013ull
#define GHCB_MSR_PSC_REQ 0x014ull
#define GHCB_MSR_PSC_RESP 0x015ull
#define GHCB_MSR_HV_FT_REQ 0x080ull
#define GHCB_MSR_HV_FT_RESP 0x081ull
#define GHCB_MSR_TERM_REQ 0x100ull

#define GHCB_PROTOCOL_MIN 1ull
#define GHCB_PROTOCOL_MAX 2ull
#define GHCB_PSC_OP_PRIVATE 1u
#define GHCB_PSC_OP_SHARED 2u

/* Hypervisor feature bits (MSR 0x080 response [63:12]). */
#define GHCB_HV_FT_SNP (1ull << 0)
#define GHCB_HV_FT_SNP_AP_CREATION (1ull << 1)
#define GHCB_HV_FT_SNP_MULTI_VMPL (1ull << 5)

/* GHCB page offsets. */
#define GHCB_OFF_RAX 0x1F8u
#define GHCB_OFF_SW_EXIT_CODE 0x390u
#define GHCB_OFF_SW_EXIT_INFO_1 0x398u
#define GHCB_OFF_SW_EXIT_INFO_2 0x3A0u
#define GHCB_OFF_SW_SCRATCH 0x3A8u
#define GHCB_OFF_VALID_BITMAP 0x3F0u
#define GHCB_OFF_PROTOCOL_VERSION 0xFFAu
#define GHCB_OFF_USAGE 0xFFCu

/* A field's valid bit: offset / 8, in a 128-bit little-endian bitmap. */
#define GHCB_VALID_BIT(off) ((off) / 8u)

/* NAE events (sw_exit_code). */
#define SVM_VMGEXIT_AP_CREATION 0x80000013ull
#define SVM_VMGEXIT_SNP_RUN_VMPL 0x80000018ull
#define SVM_VMGEXIT_TERM_REQUEST 0x8000FFFEull

/* sw_exit_info_1 results. */
#define GHCB_RESULT_OK 0ull
#define GHCB_RESULT_MALFORMED 2ull
/* sw_exit_info_2 with GHCB_RESULT_MALFORMED. */
#define GHCB_ERR_NOT_REGISTERED 1ull
#define GHCB_ERR_INVALID_USAGE 2ull
#define GHCB_ERR_MISSING_INPUT 4ull
#define GHCB_ERR_INVALID_INPUT 5ull

#endif /* ABI_GHCB_H */
