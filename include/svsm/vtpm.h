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
	/**
	 * Power on: from @state (@len bytes, an image state_save gave) or,
	 * with @state NULL, a freshly manufactured TPM. SVSM_E_INVAL if the
	 * engine cannot start (from that image).
	 */
	enum svsm_err (*init)(uint32_t max_command, const uint8_t *state,
			      size_t len);
	/**
	 * Run one command; the response (at most @rsp_max bytes) goes to
	 * @rsp. An engine that cannot answer returns an error and the
	 * service answers TPM_RC_FAILURE itself.
	 */
	enum svsm_err (*execute)(const uint8_t *cmd, uint32_t cmd_len,
				 uint8_t *rsp, uint32_t rsp_max,
				 uint32_t *rsp_len);
	/** How often the persistent state changed since power-on (it only
	 * grows): a store compares it with the count it last saved. */
	uint64_t (*nv_changes)(void);
	/**
	 * The persistent state as one image into @buf (@cap bytes), its
	 * length in *@len; with @buf NULL only the length. SVSM_E_NOMEM if
	 * it does not fit.
	 */
	enum svsm_err (*state_save)(uint8_t *buf, size_t cap, size_t *len);
	void (*shutdown)(void);
};

/** libtpms + libcrypto (src/engine/libtpms.c; hosted builds so far). */
extern const struct vtpm_engine vtpm_engine_libtpms;

/**
 * Start the engine from @state (@len bytes; NULL: manufacture), then
 * Startup(CLEAR) and the EKs; @engine NULL: no vTPM. SVSM_E_STATE if the
 * engine refused @state (nothing runs then: the caller may start fresh).
 */
enum svsm_err vtpm_service_init(const struct vtpm_engine *engine,
				const uint8_t *state, size_t len);
/** The engine's count of persistent-state changes (0 without a vTPM). */
uint64_t vtpm_service_nv_changes(void);
/** The engine's persistent state image (vtpm_engine.state_save), taken
 * under the libraries' lock. */
enum svsm_err vtpm_service_state_save(uint8_t *buf, size_t cap, size_t *len);
void vtpm_service_shutdown(void);
bool vtpm_service_active(void);

/**
 * Execute one TPM command (already copied into SVSM memory and checked
 * against its own header). Always produces a response of at most @rsp_max
 * bytes (TPM_RC_FAILURE if the engine could not answer).
 */
uint32_t vtpm_service_execute(const uint8_t *cmd, uint32_t cmd_len,
			      uint8_t *rsp, uint32_t rsp_max);

/*
 * Measured boot (src/vtpm/measure.c, docs/vtpm.md): the loader hashes an
 * object with every active PCR bank, extends one PCR with those digests
 * through vtpm_service_execute (TPM2_PCR_Extend, the path guest commands
 * take) and appends the event to a TCG2 crypto-agile log. Boot only: one
 * caller, before the guest runs (a single static state).
 */
#define VTPM_EV_IPL 0x0Du

/**
 * The active banks (TPM2_GetCapability(TPM_CAP_PCRS)), then the log's
 * Spec ID event at @log (@cap bytes). SVSM_E_INVAL if the TPM gives no
 * banks or a bank libcrypto cannot hash; SVSM_E_NOMEM if @cap is short.
 */
enum svsm_err vtpm_measure_begin(uint8_t *log, size_t cap);
/** Start an event's digests (one per bank). */
enum svsm_err vtpm_measure_start(void);
/** More bytes of the object being measured. */
enum svsm_err vtpm_measure_update(const void *data, size_t len);
/**
 * Finish the digests, extend @pcr with them, log the event (@type, event
 * data @data of @len bytes). SVSM_E_NOMEM if the log is full (nothing
 * extended), SVSM_E_INVAL if the TPM refused the extend.
 */
enum svsm_err vtpm_measure_finish(uint32_t pcr, uint32_t type, const void *data,
				  uint32_t len);
/** The log's length so far. */
size_t vtpm_measure_log_len(void);

/** The EK's TPMT_PUBLIC (the vTPM's attestation manifest). */
const uint8_t *vtpm_ek_public(size_t *len);
/** The ECC P-256 EK's TPMT_PUBLIC (csvsm's manifest entry,
 * abi/csvsm_ek.h), NULL if the vTPM has none. */
const uint8_t *vtpm_ek_ecc_public(size_t *len);

#endif /* SVSM_VTPM_H */
