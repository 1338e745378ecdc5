/* SPDX-License-Identifier: MIT */
/*
 * The vTPM engine: Debian's libtpms (TPM 2.0, the engine of swtpm) with
 * OpenSSL's libcrypto. NV state lives in SVSM memory (volatile: sealing it
 * across boots needs the attestation issue's derived keys). libtpms is a
 * process-wide singleton; the service serialises every call into it.
 * Both libraries use SIMD registers: every call into them is bracketed by
 * plat_simd_begin/end, which keeps the guest's register state from them
 * and theirs from the guest.
 */
#include <libtpms/tpm_error.h>
#include <libtpms/tpm_library.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/plat.h"
#include "svsm/vtpm.h"

#define NV_SLOTS 8u
#define NV_NAME_MAX 32u

struct nv_blob {
	char name[NV_NAME_MAX];
	unsigned char *data;
	uint32_t len;
};

static struct nv_blob nv[NV_SLOTS];
static unsigned char *rsp_buf; /* libtpms grows it with realloc */
static uint32_t rsp_buf_size;
static unsigned char cmd_buf[4096];
static bool running;

static struct nv_blob *nv_find(const char *name)
{
	unsigned i;

	for (i = 0; i < NV_SLOTS; i++) {
		if (nv[i].data != NULL && strcmp(nv[i].name, name) == 0) {
			return &nv[i];
		}
	}
	return NULL;
}

static TPM_RESULT nv_init(void)
{
	return TPM_SUCCESS;
}

/* libtpms frees what this returns with free(). */
static TPM_RESULT nv_load(unsigned char **data, uint32_t *length,
			  uint32_t tpm_number, const char *name)
{
	struct nv_blob *b = nv_find(name);

	(void)tpm_number;
	if (b == NULL) {
		return TPM_RETRY; /* nothing stored: manufacture */
	}
	*data = malloc(b->len);
	if (*data == NULL) {
		return TPM_FAIL;
	}
	memcpy(*data, b->data, b->len);
	*length = b->len;
	return TPM_SUCCESS;
}

static TPM_RESULT nv_store(const unsigned char *data, uint32_t length,
			   uint32_t tpm_number, const char *name)
{
	struct nv_blob *b = nv_find(name);
	unsigned char *copy;
	unsigned i;
	size_t name_len = strlen(name);

	(void)tpm_number;
	if (name_len >= NV_NAME_MAX) {
		return TPM_FAIL;
	}
	for (i = 0; b == NULL && i < NV_SLOTS; i++) {
		if (nv[i].data == NULL) {
			b = &nv[i];
		}
	}
	copy = malloc(length != 0 ? length : 1);
	if (b == NULL || copy == NULL) {
		free(copy);
		return TPM_FAIL;
	}
	memcpy(copy, data, length);
	free(b->data);
	memcpy(b->name, name, name_len + 1);
	b->data = copy;
	b->len = length;
	return TPM_SUCCESS;
}

static TPM_RESULT nv_delete(uint32_t tpm_number, const char *name,
			    TPM_BOOL must_exist)
{
	struct nv_blob *b = nv_find(name);

	(void)tpm_number;
	if (b == NULL) {
		return must_exist ? TPM_FAIL : TPM_SUCCESS;
	}
	free(b->data);
	memset(b, 0, sizeof(*b));
	return TPM_SUCCESS;
}

static TPM_RESULT io_init(void)
{
	return TPM_SUCCESS;
}

static TPM_RESULT io_locality(TPM_MODIFIER_INDICATOR *locality,
			      uint32_t tpm_number)
{
	(void)tpm_number;
	*locality = 0;
	return TPM_SUCCESS;
}

static TPM_RESULT io_presence(TPM_BOOL *present, uint32_t tpm_number)
{
	(void)tpm_number;
	*present = FALSE;
	return TPM_SUCCESS;
}

static void nv_clear(void)
{
	unsigned i;

	for (i = 0; i < NV_SLOTS; i++) {
		free(nv[i].data);
		memset(&nv[i], 0, sizeof(nv[i]));
	}
}

static void engine_shutdown(void)
{
	if (running) {
		plat_simd_begin();
		TPMLIB_Terminate();
		plat_simd_end();
		running = false;
	}
	nv_clear();
	free(rsp_buf);
	rsp_buf = NULL;
	rsp_buf_size = 0;
}

static enum svsm_err engine_init(uint32_t max_command)
{
	static struct libtpms_callbacks cbs = {
		.sizeOfStruct = sizeof(struct libtpms_callbacks),
		.tpm_nvram_init = nv_init,
		.tpm_nvram_loaddata = nv_load,
		.tpm_nvram_storedata = nv_store,
		.tpm_nvram_deletename = nv_delete,
		.tpm_io_init = io_init,
		.tpm_io_getlocality = io_locality,
		.tpm_io_getphysicalpresence = io_presence,
	};
	uint32_t min_size = 0;
	uint32_t max_size = 0;
	bool ok;

	engine_shutdown(); /* a fresh, newly manufactured TPM every boot */
	plat_simd_begin();
	/* GetCapability then reports MAX_COMMAND/RESPONSE_SIZE that fit the
	 * protocol block (libtpms' default, 4096, does not). */
	ok = TPMLIB_ChooseTPMVersion(TPMLIB_TPM_VERSION_2) == TPM_SUCCESS &&
	     TPMLIB_RegisterCallbacks(&cbs) == TPM_SUCCESS &&
	     TPMLIB_SetBufferSize(max_command, &min_size, &max_size) ==
		     max_command &&
	     TPMLIB_MainInit() == TPM_SUCCESS;
	plat_simd_end();
	if (!ok) {
		return SVSM_E_INVAL;
	}
	running = true;
	return SVSM_OK;
}

static enum svsm_err engine_execute(const uint8_t *cmd, uint32_t cmd_len,
				    uint8_t *rsp, uint32_t rsp_max,
				    uint32_t *rsp_len)
{
	uint32_t len = 0;
	TPM_RESULT rc;

	if (!running || cmd_len > sizeof(cmd_buf)) {
		return SVSM_E_INVAL;
	}
	memcpy(cmd_buf, cmd, cmd_len); /* libtpms takes a non-const buffer */
	plat_simd_begin();
	rc = TPMLIB_Process(&rsp_buf, &len, &rsp_buf_size, cmd_buf, cmd_len);
	plat_simd_end();
	if (rc != TPM_SUCCESS || len > rsp_max) {
		return SVSM_E_INVAL;
	}
	memcpy(rsp, rsp_buf, len);
	*rsp_len = len;
	return SVSM_OK;
}

const struct vtpm_engine vtpm_engine_libtpms = {
	.name = "libtpms",
	.init = engine_init,
	.execute = engine_execute,
	.shutdown = engine_shutdown,
};
