/* SPDX-License-Identifier: MIT */
/*
 * Internal error values. These never reach the guest directly: protocol
 * handlers convert them with err_to_result() (one mapping, one place), so
 * guest-visible result codes (abi/svsm_call.h) and internal errors never mix.
 * See docs/error-handling.md for the three error classes.
 */
#ifndef SVSM_ERR_H
#define SVSM_ERR_H

#include <stdint.h>

#include "abi/snp.h"
#include "abi/svsm_call.h"

/** Internal result of an SVSM operation. */
enum svsm_err {
	SVSM_OK = 0,
	/** A guest-supplied value is malformed (alignment, reserved bits). */
	SVSM_E_INVAL,
	/** A guest address is outside guest memory, wraps, or is SVSM-owned. */
	SVSM_E_ADDR,
	/** Guest memory faulted when the SVSM accessed it (not validated). */
	SVSM_E_FAULT,
	/** The SVSM is out of memory; the guest may deposit more. */
	SVSM_E_NOMEM,
	/** The object is in use (a running VMSA). */
	SVSM_E_INUSE,
	/** The request is well formed but not possible in this state. */
	SVSM_E_STATE,
};

/** The guest result code for @err (src/core/err.c). */
enum svsm_result err_to_result(enum svsm_err err);
/** Map a PVALIDATE/RMPADJUST EAX to the core protocol's result code. */
enum svsm_result core_rmp_result(enum snp_ret eax);

#endif /* SVSM_ERR_H */
