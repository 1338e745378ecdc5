/* SPDX-License-Identifier: MIT */
#include "ek.h"

#include "svsm/log.h"
#include "svsm/std.h"

#include "abi/svsm_vtpm.h"

#include "tpm_wire.h"

#define TPM_CC_EVICT_CONTROL 0x00000120u
#define TPM_CC_CREATE_PRIMARY 0x00000131u
#define TPM_CC_FLUSH_CONTEXT 0x00000165u
#define TPM_RH_OWNER 0x40000001u
#define TPM_RH_ENDORSEMENT 0x4000000Bu
#define TPM_ALG_RSA 0x0001u
#define TPM_ALG_SHA256 0x000Bu
#define TPM_ALG_AES 0x0006u
#define TPM_ALG_CFB 0x0043u
#define TPM_ALG_NULL 0x0010u
/* fixedTPM | fixedParent | sensitiveDataOrigin | adminWithPolicy |
 * restricted | decrypt (EK Credential Profile 2.x, template L-1). */
#define EK_ATTRIBUTES 0x000300B2u
#define EK_PUBLIC_MAX 512u

/* PolicySecret(TPM_RH_ENDORSEMENT) with SHA-256 (the profile's policy). */
static const uint8_t ek_policy[32] = {
	0x83, 0x71, 0x97, 0x67, 0x44, 0x84, 0xB3, 0xF8, 0x1A, 0x90, 0xCC,
	0x8D, 0x46, 0xA5, 0xD7, 0x24, 0xFD, 0x52, 0xD7, 0x6E, 0x06, 0x52,
	0x0B, 0x64, 0xF2, 0xA1, 0xDA, 0x1B, 0x33, 0x14, 0x69, 0xAA,
};

static uint8_t ek_public[EK_PUBLIC_MAX];
static size_t ek_public_len;

const uint8_t *vtpm_ek_public(size_t *len)
{
	*len = ek_public_len;
	return ek_public_len != 0 ? ek_public : NULL;
}

static void put_ek_template(struct tpm_buf *b)
{
	static const uint8_t zero[256];
	size_t size_at;

	size_at = b->len;
	tpm_put_u16(b, 0); /* TPM2B_PUBLIC size, patched below */
	tpm_put_u16(b, TPM_ALG_RSA);
	tpm_put_u16(b, TPM_ALG_SHA256);
	tpm_put_u32(b, EK_ATTRIBUTES);
	tpm_put_u16(b, sizeof(ek_policy));
	tpm_put_bytes(b, ek_policy, sizeof(ek_policy));
	tpm_put_u16(b, TPM_ALG_AES); /* symmetric */
	tpm_put_u16(b, 128);
	tpm_put_u16(b, TPM_ALG_CFB);
	tpm_put_u16(b, TPM_ALG_NULL); /* scheme */
	tpm_put_u16(b, 2048);	      /* keyBits */
	tpm_put_u32(b, 0);	      /* exponent: the default */
	tpm_put_u16(b, sizeof(zero)); /* unique: 256 zero bytes */
	tpm_put_bytes(b, zero, sizeof(zero));
	if (!b->bad) {
		size_t n = b->len - size_at - 2;

		b->data[size_at] = (uint8_t)(n >> 8);
		b->data[size_at + 1] = (uint8_t)n;
	}
}

static uint32_t run(const struct vtpm_engine *e, struct tpm_buf *cmd,
		    uint8_t *rsp, uint32_t rsp_max, uint32_t *rsp_len)
{
	tpm_end(cmd);
	if (cmd->bad ||
	    e->execute(cmd->data, (uint32_t)cmd->len, rsp, rsp_max, rsp_len) !=
		    SVSM_OK ||
	    *rsp_len < TPM2_HEADER_SIZE) {
		return TPM2_RC_FAILURE;
	}
	return tpm_be32(rsp + 6);
}

enum svsm_err ek_create(const struct vtpm_engine *e)
{
	static uint8_t cbuf[1024];
	static uint8_t rbuf[SVSM_VTPM_MAX_RESPONSE];
	struct tpm_buf cmd = {.data = cbuf, .cap = sizeof(cbuf)};
	struct tpm_buf rsp;
	uint32_t rsp_len = 0;
	uint32_t handle;
	uint32_t rc;
	uint16_t pub_size;
	const uint8_t *pub;

	tpm_begin(&cmd, TPM2_ST_SESSIONS, TPM_CC_CREATE_PRIMARY);
	tpm_put_u32(&cmd, TPM_RH_ENDORSEMENT);
	tpm_put_pw_session(&cmd);
	tpm_put_u16(&cmd, 4); /* inSensitive: empty userAuth and data */
	tpm_put_u16(&cmd, 0);
	tpm_put_u16(&cmd, 0);
	put_ek_template(&cmd);
	tpm_put_u16(&cmd, 0); /* outsideInfo */
	tpm_put_u32(&cmd, 0); /* creationPCR: none */
	rc = run(e, &cmd, rbuf, sizeof(rbuf), &rsp_len);
	if (rc != TPM2_RC_SUCCESS) {
		LOG_ERROR("vtpm: EK CreatePrimary failed: rc 0x%x", rc);
		return SVSM_E_INVAL;
	}
	/* objectHandle, parameterSize, outPublic (TPM2B_PUBLIC). */
	rsp = (struct tpm_buf){.data = rbuf, .cap = rsp_len};
	(void)tpm_get_bytes(&rsp, TPM2_HEADER_SIZE);
	handle = tpm_get_u32(&rsp);
	(void)tpm_get_u32(&rsp);
	pub_size = tpm_get_u16(&rsp);
	pub = tpm_get_bytes(&rsp, pub_size);
	if (pub == NULL || pub_size > sizeof(ek_public)) {
		LOG_ERROR("vtpm: EK CreatePrimary response malformed");
		return SVSM_E_INVAL;
	}
	memcpy(ek_public, pub, pub_size);
	ek_public_len = pub_size;

	tpm_begin(&cmd, TPM2_ST_SESSIONS, TPM_CC_EVICT_CONTROL);
	tpm_put_u32(&cmd, TPM_RH_OWNER);
	tpm_put_u32(&cmd, handle);
	tpm_put_pw_session(&cmd);
	tpm_put_u32(&cmd, EK_HANDLE);
	rc = run(e, &cmd, rbuf, sizeof(rbuf), &rsp_len);
	tpm_begin(&cmd, TPM2_ST_NO_SESSIONS, TPM_CC_FLUSH_CONTEXT);
	tpm_put_u32(&cmd, handle);
	(void)run(e, &cmd, rbuf, sizeof(rbuf), &rsp_len);
	if (rc != TPM2_RC_SUCCESS) {
		LOG_ERROR("vtpm: EK EvictControl failed: rc 0x%x", rc);
		ek_public_len = 0;
		return SVSM_E_INVAL;
	}
	return SVSM_OK;
}
