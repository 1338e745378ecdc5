/* SPDX-License-Identifier: MIT */
/*
 * The vTPM service: one TPM 2.0 engine behind protocol 2. The engine is a
 * platform's to provide (libtpms with libcrypto; a platform without one
 * offers no protocol 2), through the narrow interface below. The service
 * serialises every command (the engine is single-threaded), manufactures
 * and starts the TPM at boot, and creates the endorsement key.
 */
#ifndef SVSM_VTPM_H
#define SVSM_VTPM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/err.h"

struct vtpm_engine {
	const char *name;
	/** Power on a freshly manufactured TPM (volatile NV). */
	enum svsm_err (*init)(uint32_t max_command);
	/**
	 * Run one command; the response (at most @rsp_max bytes) goes to
	 * @rsp. An engine that cannot answer returns an error and the
	 * service answers TPM_RC_FAILURE itself.
	 */
	enum svsm_err (*execute)(const uint8_t *cmd, uint32_t cmd_len,
				 uint8_t *rsp, uint32_t rsp_max,
				 uint32_t *rsp_len);
	void (*shutdown)(void);
};

/** libtpms + libcrypto (src/engine/libtpms.c; hosted builds so far). */
extern const struct vtpm_engine vtpm_engine_libtpms;

/** Start the engine, Startup(CLEAR), the EK; NULL: no vTPM. */
enum svsm_err vtpm_service_init(const struct vtpm_engine *engine);
void vtpm_service_shutdown(void);
bool vtpm_service_active(void);

/**
 * Execute one TPM command (already copied into SVSM memory and checked
 * against its own header). Always produces a response of at most @rsp_max
 * bytes (TPM_RC_FAILURE if the engine could not answer).
 */
uint32_t vtpm_service_execute(const uint8_t *cmd, uint32_t cmd_len,
			      uint8_t *rsp, uint32_t rsp_max);

/** The EK's TPMT_PUBLIC (the vTPM's attestation manifest). */
const uint8_t *vtpm_ek_public(size_t *len);

#endif /* SVSM_VTPM_H */
