/* SPDX-License-Identifier: MIT */
/*
 * The mappings to guest result codes (svsm/err.h): internal errors, and the
 * EAX of PVALIDATE or RMPADJUST. Protocol handlers call down to these; they
 * decide nothing else.
 */
#include "svsm/err.h"

#include "abi/snp.h"
#include "abi/svsm_call.h"

/* 58019 sections 6.2 and 6.4: 0x8000_1000 + EAX, 0x8000_1011 above 0xF. */
enum svsm_result core_rmp_result(enum snp_ret eax)
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
enum svsm_result err_to_result(enum svsm_err err)
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
	default:
		return SVSM_ERR_INVALID_REQUEST;
	}
}
