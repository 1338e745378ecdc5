/* SPDX-License-Identifier: MIT */
/*
 * The vTPM service (include/svsm/vtpm.h). Boot: the engine powers on a
 * restored or a manufactured TPM, the SVSM sends Startup(CLEAR) and reads
 * or creates the EKs, so
 * the guest finds a started TPM (Linux also copes with RC_INITIALIZE).
 * Every command runs under the libraries' lock (svsm/lib_lock.h): the
 * engine is single-threaded and shares libcrypto with the SVSM.
 */
#include "svsm/lib_lock.h"
#include "svsm/log.h"
#include "svsm/plat.h"
#include "svsm/std.h"
#include "svsm/vtpm.h"

#include "abi/svsm_vtpm.h"

#include "ek.h"
#include "tpm_wire.h"

static const struct vtpm_engine *engine;

bool vtpm_service_active(void)
{
	return __atomic_load_n(&engine, __ATOMIC_ACQUIRE) != NULL;
}

/* The TPM's own answer when the engine has none: a bare TPM_RC_FAILURE. */
static uint32_t failure_response(uint8_t *rsp, uint32_t rsp_max)
{
	struct tpm_buf b = {.data = rsp, .cap = rsp_max};

	tpm_put_u16(&b, TPM2_ST_NO_SESSIONS);
	tpm_put_u32(&b, TPM2_HEADER_SIZE);
	tpm_put_u32(&b, TPM2_RC_FAILURE);
	return b.bad ? 0 : (uint32_t)b.len;
}

uint32_t vtpm_service_execute(const uint8_t *cmd, uint32_t cmd_len,
			      uint8_t *rsp, uint32_t rsp_max)
{
	uint32_t len = 0;
	enum svsm_err err;

	if (!vtpm_service_active()) {
		return failure_response(rsp, rsp_max);
	}
	lib_lock();
	err = engine->execute(cmd, cmd_len, rsp, rsp_max, &len);
	lib_unlock();
	/* An engine answer must be a TPM response that fits. */
	if (err != SVSM_OK || len < TPM2_HEADER_SIZE || len > rsp_max ||
	    tpm_be32(rsp + 2) != len) {
		LOG_ERROR("vtpm: engine gave no valid response (error %d)",
			  (int)err);
		return failure_response(rsp, rsp_max);
	}
	return len;
}

static bool startup_clear(const struct vtpm_engine *e)
{
	static const uint8_t cmd[] = {0x80, 0x01, 0x00, 0x00, 0x00, 0x0C,
				      0x00, 0x00, 0x01, 0x44, 0x00, 0x00};
	uint8_t rsp[TPM2_HEADER_SIZE + 16];
	uint32_t len = 0;

	return e->execute(cmd, sizeof(cmd), rsp, sizeof(rsp), &len) ==
		       SVSM_OK &&
	       len >= TPM2_HEADER_SIZE && tpm_be32(rsp + 6) == TPM2_RC_SUCCESS;
}

uint64_t vtpm_service_nv_changes(void)
{
	uint64_t n = 0;

	if (vtpm_service_active()) {
		lib_lock();
		n = engine->nv_changes();
		lib_unlock();
	}
	return n;
}

enum svsm_err vtpm_service_state_save(uint8_t *buf, size_t cap, size_t *len)
{
	enum svsm_err err = SVSM_E_STATE;

	if (vtpm_service_active()) {
		lib_lock();
		err = engine->state_save(buf, cap, len);
		lib_unlock();
	}
	return err;
}

enum svsm_err vtpm_service_init(const struct vtpm_engine *e,
				const uint8_t *state, size_t len)
{
	enum svsm_err err;
	uint64_t t0 = 0;
	uint64_t t1 = 0;
	unsigned created = 0;

	__atomic_store_n(&engine, NULL, __ATOMIC_RELEASE);
	if (e == NULL) {
		return SVSM_OK;
	}
	t0 = plat_clock_ns();
	err = e->init(SVSM_VTPM_MAX_COMMAND, state, len);
	if (err != SVSM_OK && state != NULL) {
		/* Authentic state the engine cannot read (e.g. a newer
		 * libtpms's): the caller names it and starts afresh. */
		LOG_NOTICE("vtpm: %s refused its stored state", e->name);
		return SVSM_E_STATE;
	}
	if (err != SVSM_OK) {
		LOG_ERROR("vtpm: %s did not start (error %d)", e->name,
			  (int)err);
		return err;
	}
	if (!startup_clear(e)) {
		LOG_ERROR("vtpm: Startup(CLEAR) failed");
		e->shutdown();
		return SVSM_E_INVAL;
	}
	t1 = plat_clock_ns();
	err = ek_init(e, &created);
	if (err != SVSM_OK) {
		e->shutdown();
		return err;
	}
	__atomic_store_n(&engine, e, __ATOMIC_RELEASE);
	/* The two shares of the vTPM's boot, for scripts/bench-linux.sh. */
	LOG_INFO("vtpm: %s started, EK at 0x%x (ECC 0x%x, %u created); %llu "
		 "us to %s and start, %llu us for the EK",
		 e->name, EK_HANDLE, EK_ECC_HANDLE, created,
		 (unsigned long long)(t1 - t0) / 1000,
		 state != NULL ? "restore" : "manufacture",
		 (unsigned long long)(plat_clock_ns() - t1) / 1000);
	return SVSM_OK;
}

void vtpm_service_shutdown(void)
{
	const struct vtpm_engine *e =
		__atomic_exchange_n(&engine, NULL, __ATOMIC_ACQ_REL);

	if (e != NULL) {
		e->shutdown();
	}
}
