/* SPDX-License-Identifier: MIT */
/*
 * Measured boot through the SVSM's own vTPM (svsm/vtpm.h): digests with
 * libcrypto, one per active bank; TPM2_PCR_Extend as command bytes
 * through vtpm_service_execute, the path a guest's commands take, so the
 * engine's internals stay the engine's; the event in a TCG2 log
 * (tcg_log.c). The TPM's answers are the SVSM's own component's and are
 * still read with bounds (tpm_wire.h). Invariant: an event is logged only
 * after its extend succeeded, so the log never claims more than the PCRs
 * hold; a failed extend leaves the caller to fail the boot.
 */
#include "svsm/crypto.h"
#include "svsm/log.h"
#include "svsm/std.h"
#include "svsm/vtpm.h"

#include "abi/svsm_vtpm.h"

#include "tcg_log.h"
#include "tpm_wire.h"

#define TPM2_CC_PCR_EXTEND 0x182u
#define TPM2_CC_GET_CAPABILITY 0x17Au
#define TPM2_CAP_PCRS 5u

static struct tcg_log log_state;
static struct crypto_hash *hashes[TCG_LOG_MAX_BANKS];
static uint8_t cmd_buf[SVSM_VTPM_MAX_COMMAND];
static uint8_t rsp_buf[SVSM_VTPM_MAX_RESPONSE];

static bool run(const struct tpm_buf *cmd, uint32_t *rsp_len)
{
	*rsp_len = vtpm_service_execute(cmd->data, (uint32_t)cmd->len, rsp_buf,
					sizeof(rsp_buf));
	return *rsp_len >= TPM2_HEADER_SIZE &&
	       tpm_be32(rsp_buf + 6) == TPM2_RC_SUCCESS;
}

/* The banks with at least one PCR allocated, in the TPM's order. */
static enum svsm_err active_banks(uint16_t *algs, unsigned *n)
{
	struct tpm_buf b = {.data = cmd_buf, .cap = sizeof(cmd_buf)};
	uint32_t len = 0, count, i;

	tpm_begin(&b, TPM2_ST_NO_SESSIONS, TPM2_CC_GET_CAPABILITY);
	tpm_put_u32(&b, TPM2_CAP_PCRS);
	tpm_put_u32(&b, 0); /* property */
	tpm_put_u32(&b, 1); /* propertyCount */
	tpm_end(&b);
	if (b.bad || !run(&b, &len)) {
		LOG_ERROR("vtpm: GetCapability(TPM_CAP_PCRS) failed");
		return SVSM_E_INVAL;
	}
	b = (struct tpm_buf){
		.data = rsp_buf, .cap = len, .len = TPM2_HEADER_SIZE};
	(void)tpm_get_u8(&b); /* moreData */
	if (tpm_get_u32(&b) != TPM2_CAP_PCRS) {
		return SVSM_E_INVAL;
	}
	count = tpm_get_u32(&b);
	*n = 0;
	for (i = 0; i < count && !b.bad; i++) {
		uint16_t alg = tpm_get_u16(&b);
		uint8_t size = tpm_get_u8(&b);
		const uint8_t *sel = tpm_get_bytes(&b, size);
		bool any = false;
		unsigned j;

		for (j = 0; sel != NULL && j < size; j++) {
			any = any || sel[j] != 0;
		}
		if (!any) {
			continue;
		}
		/* A bank the SVSM cannot hash would stay unmeasured. */
		if (*n == TCG_LOG_MAX_BANKS || tcg_alg_len(alg) == 0 ||
		    crypto_hash_len(alg) != tcg_alg_len(alg)) {
			LOG_ERROR("vtpm: PCR bank 0x%x cannot be measured",
				  alg);
			return SVSM_E_INVAL;
		}
		algs[(*n)++] = alg;
	}
	return b.bad || *n == 0 ? SVSM_E_INVAL : SVSM_OK;
}

enum svsm_err vtpm_measure_begin(uint8_t *log, size_t cap)
{
	uint16_t algs[TCG_LOG_MAX_BANKS];
	unsigned n = 0;
	enum svsm_err err = active_banks(algs, &n);

	if (err != SVSM_OK) {
		return err;
	}
	return tcg_log_begin(&log_state, log, cap, algs, n) ? SVSM_OK
							    : SVSM_E_NOMEM;
}

static void drop_hashes(void)
{
	unsigned i;
	uint8_t sink[TCG_DIGEST_MAX];

	for (i = 0; i < TCG_LOG_MAX_BANKS; i++) {
		if (hashes[i] != NULL) {
			(void)crypto_hash_end(hashes[i], sink);
			hashes[i] = NULL;
		}
	}
}

enum svsm_err vtpm_measure_start(void)
{
	unsigned i;

	drop_hashes();
	if (log_state.nbanks == 0 || log_state.bad) {
		return SVSM_E_STATE;
	}
	for (i = 0; i < log_state.nbanks; i++) {
		hashes[i] = crypto_hash_begin(log_state.algs[i]);
		if (hashes[i] == NULL) {
			drop_hashes();
			return SVSM_E_NOMEM;
		}
	}
	return SVSM_OK;
}

enum svsm_err vtpm_measure_update(const void *data, size_t len)
{
	unsigned i;

	for (i = 0; i < log_state.nbanks; i++) {
		if (!crypto_hash_update(hashes[i], data, len)) {
			drop_hashes();
			return SVSM_E_STATE;
		}
	}
	return SVSM_OK;
}

static enum svsm_err extend(uint32_t pcr,
			    const uint8_t (*digests)[TCG_DIGEST_MAX])
{
	struct tpm_buf b = {.data = cmd_buf, .cap = sizeof(cmd_buf)};
	uint32_t len = 0;
	unsigned i;

	tpm_begin(&b, TPM2_ST_SESSIONS, TPM2_CC_PCR_EXTEND);
	tpm_put_u32(&b, pcr); /* a PCR's handle is its index */
	tpm_put_pw_session(&b);
	tpm_put_u32(&b, log_state.nbanks);
	for (i = 0; i < log_state.nbanks; i++) {
		tpm_put_u16(&b, log_state.algs[i]);
		tpm_put_bytes(&b, digests[i], tcg_alg_len(log_state.algs[i]));
	}
	tpm_end(&b);
	if (b.bad || !run(&b, &len)) {
		LOG_ERROR("vtpm: PCR_Extend(%u) failed (0x%x)", pcr,
			  len >= TPM2_HEADER_SIZE ? tpm_be32(rsp_buf + 6) : 0);
		return SVSM_E_INVAL;
	}
	return SVSM_OK;
}

enum svsm_err vtpm_measure_finish(uint32_t pcr, uint32_t type, const void *data,
				  uint32_t len)
{
	static uint8_t digests[TCG_LOG_MAX_BANKS][TCG_DIGEST_MAX];
	struct tcg_log probe = log_state;
	enum svsm_err err;
	unsigned i;

	for (i = 0; i < log_state.nbanks; i++) {
		bool ok = crypto_hash_end(hashes[i], digests[i]);

		hashes[i] = NULL;
		if (!ok) {
			drop_hashes();
			return SVSM_E_STATE;
		}
	}
	/* Room first (on a copy): nothing is extended that cannot be
	 * logged. The copy writes the same bytes the real append will. */
	if (!tcg_log_event(&probe, pcr, type, digests, data, len)) {
		return SVSM_E_NOMEM;
	}
	err = extend(pcr, digests);
	if (err != SVSM_OK) {
		return err;
	}
	(void)tcg_log_event(&log_state, pcr, type, digests, data, len);
	return SVSM_OK;
}

size_t vtpm_measure_log_len(void)
{
	return log_state.len;
}
