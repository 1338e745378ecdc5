/* SPDX-License-Identifier: MIT */
/*
 * The vTPM engine: Debian's libtpms (TPM 2.0, the engine of swtpm) with
 * OpenSSL's libcrypto. NV state lives in SVSM memory: the named blobs
 * libtpms stores through its NV callbacks. The engine counts every change
 * of the persistent ones and hands them out as one image (nv_image.h),
 * and starts from such an image; sealing it and the storage are the
 * SVSM's (src/core/vtpm_store.c, docs/vtpm.md, "Persistent state").
 * "volatilestate" (TPMLIB_VolatileAll_Store, swtpm's suspend) is never
 * part of the image: the SVSM always starts with Startup(CLEAR). libtpms
 * is a process-wide singleton; the service serialises every call into it.
 * Both libraries use SIMD registers: every call into them is bracketed by
 * plat_simd_begin/end, which keeps the guest's register state from them
 * and theirs from the guest.
 */
#include <libtpms/tpm_error.h>
#include <libtpms/tpm_library.h>
#include <libtpms/tpm_nvfilename.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/plat.h"
#include "svsm/vtpm.h"

#include "nv_image.h"

#define NV_SLOTS NV_IMAGE_MAX
#define NV_NAME_MAX NV_IMAGE_NAME_MAX

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
/* Stores and deletes of persistent blobs since power-on. */
static uint64_t nv_changes;

/* Blobs that are not the TPM's persistent state. */
static bool nv_is_volatile(const char *name)
{
	return strcmp(name, TPM_VOLATILESTATE_NAME) == 0;
}

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
	if (!nv_is_volatile(name)) {
		nv_changes++;
	}
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
	if (!nv_is_volatile(name)) {
		nv_changes++;
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
	nv_changes = 0;
}

/* The blobs of @img as libtpms will load them; false if it is not an
 * image or a blob is refused. */
static bool nv_from_image(const uint8_t *img, size_t len)
{
	struct nv_image_rec recs[NV_IMAGE_MAX];
	unsigned count = 0;
	unsigned i;

	if (!nv_image_parse(img, len, recs, &count)) {
		return false;
	}
	for (i = 0; i < count; i++) {
		if (!nv_is_volatile(recs[i].name) &&
		    nv_store(recs[i].data, recs[i].len, 0, recs[i].name) !=
			    TPM_SUCCESS) {
			return false;
		}
	}
	return true;
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

static enum svsm_err engine_init(uint32_t max_command, const uint8_t *state,
				 size_t state_len)
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

	engine_shutdown();
	/* With no image libtpms finds no "permall" and manufactures. */
	if (state != NULL && !nv_from_image(state, state_len)) {
		nv_clear();
		return SVSM_E_INVAL;
	}
	nv_changes = 0; /* what was loaded is what is stored */
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
		if (state != NULL) {
			plat_simd_begin();
			TPMLIB_Terminate();
			plat_simd_end();
		}
		nv_clear();
		return SVSM_E_INVAL;
	}
	running = true;
	return SVSM_OK;
}

static uint64_t engine_nv_changes(void)
{
	return nv_changes;
}

static enum svsm_err engine_state_save(uint8_t *buf, size_t cap, size_t *len)
{
	struct nv_image_rec recs[NV_IMAGE_MAX];
	unsigned count = 0;
	unsigned i;
	size_t n;

	for (i = 0; i < NV_SLOTS; i++) {
		if (nv[i].data != NULL && !nv_is_volatile(nv[i].name)) {
			memcpy(recs[count].name, nv[i].name, NV_NAME_MAX);
			recs[count].data = nv[i].data;
			recs[count].len = nv[i].len;
			count++;
		}
	}
	n = nv_image_put(buf, cap, recs, count);
	if (n == 0) {
		return SVSM_E_NOMEM;
	}
	*len = n;
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
	.nv_changes = engine_nv_changes,
	.state_save = engine_state_save,
	.shutdown = engine_shutdown,
};
