/* SPDX-License-Identifier: MIT */
/*
 * The endorsement keys (ek.h). A key's identity is the endorsement seed
 * and its template: with a restored state both persistent EKs are
 * already there and are only read (TPM2_ReadPublic, no key generation);
 * with a new TPM, or a handle that lost its EK, they are created
 * (TPM2_CreatePrimary) and made persistent (TPM2_EvictControl).
 *
 * Threat: the guest OS holds owner authorization and may evict an EK and
 * put another object at its handle. The SVSM publishes an object found
 * there only if its public area is the template's in every field but
 * the unique one (the key); otherwise it creates the EK again from the
 * template and, if the guest's object cannot be evicted (an owner auth
 * the SVSM does not know), publishes the EK it created without
 * persisting it (and says so). The guest can replace an EK with another
 * key of the same template created in this TPM, whose private part is as
 * confined to this vTPM as the EK's (fixedTPM); docs/vtpm.md.
 */
#include "ek.h"

#include "svsm/log.h"
#include "svsm/std.h"

#include "abi/svsm_vtpm.h"

#include "tpm_wire.h"

#define TPM_CC_EVICT_CONTROL 0x00000120u
#define TPM_CC_CREATE_PRIMARY 0x00000131u
#define TPM_CC_FLUSH_CONTEXT 0x00000165u
#define TPM_CC_READ_PUBLIC 0x00000173u
#define TPM_RH_OWNER 0x40000001u
#define TPM_RH_ENDORSEMENT 0x4000000Bu
#define TPM_ALG_RSA 0x0001u
#define TPM_ALG_SHA256 0x000Bu
#define TPM_ALG_AES 0x0006u
#define TPM_ALG_CFB 0x0043u
#define TPM_ALG_NULL 0x0010u
#define TPM_ALG_ECC 0x0023u
#define TPM_ECC_NIST_P256 0x0003u
/* fixedTPM | fixedParent | sensitiveDataOrigin | adminWithPolicy |
 * restricted | decrypt (EK Credential Profile 2.x, templates L-1, L-2). */
#define EK_ATTRIBUTES 0x000300B2u
#define EK_PUBLIC_MAX 512u

/* PolicySecret(TPM_RH_ENDORSEMENT) with SHA-256 (the profile's policy). */
static const uint8_t ek_policy[32] = {
	0x83, 0x71, 0x97, 0x67, 0x44, 0x84, 0xB3, 0xF8, 0x1A, 0x90, 0xCC,
	0x8D, 0x46, 0xA5, 0xD7, 0x24, 0xFD, 0x52, 0xD7, 0x6E, 0x06, 0x52,
	0x0B, 0x64, 0xF2, 0xA1, 0xDA, 0x1B, 0x33, 0x14, 0x69, 0xAA,
};

enum ek_kind { EK_RSA, EK_ECC, EK_KINDS };

struct ek {
	const char *name;
	uint32_t handle;
	uint8_t pub[EK_PUBLIC_MAX]; /* TPMT_PUBLIC */
	size_t pub_len;
};

static struct ek eks[EK_KINDS] = {
	{.name = "RSA 2048", .handle = EK_HANDLE},
	{.name = "ECC P-256", .handle = EK_ECC_HANDLE},
};

const uint8_t *vtpm_ek_public(size_t *len)
{
	*len = eks[EK_RSA].pub_len;
	return *len != 0 ? eks[EK_RSA].pub : NULL;
}

const uint8_t *vtpm_ek_ecc_public(size_t *len)
{
	*len = eks[EK_ECC].pub_len;
	return *len != 0 ? eks[EK_ECC].pub : NULL;
}

/* The template's TPMT_PUBLIC up to its unique field, which follows. */
static void put_template_head(struct tpm_buf *b, enum ek_kind kind)
{
	tpm_put_u16(b, kind == EK_RSA ? TPM_ALG_RSA : TPM_ALG_ECC);
	tpm_put_u16(b, TPM_ALG_SHA256);
	tpm_put_u32(b, EK_ATTRIBUTES);
	tpm_put_u16(b, sizeof(ek_policy));
	tpm_put_bytes(b, ek_policy, sizeof(ek_policy));
	tpm_put_u16(b, TPM_ALG_AES); /* symmetric */
	tpm_put_u16(b, 128);
	tpm_put_u16(b, TPM_ALG_CFB);
	tpm_put_u16(b, TPM_ALG_NULL); /* scheme */
	if (kind == EK_RSA) {
		tpm_put_u16(b, 2048); /* keyBits */
		tpm_put_u32(b, 0);    /* exponent: the default */
	} else {
		tpm_put_u16(b, TPM_ECC_NIST_P256);
		tpm_put_u16(b, TPM_ALG_NULL); /* kdf */
	}
}

/* The template as a TPM2B_PUBLIC: L-1's unique is 256 zero bytes, L-2's
 * two 32-byte zero coordinates. */
static void put_template(struct tpm_buf *b, enum ek_kind kind)
{
	static const uint8_t zero[256];
	size_t size_at = b->len;

	tpm_put_u16(b, 0); /* TPM2B_PUBLIC size, patched below */
	put_template_head(b, kind);
	if (kind == EK_RSA) {
		tpm_put_u16(b, sizeof(zero));
		tpm_put_bytes(b, zero, sizeof(zero));
	} else {
		tpm_put_u16(b, 32);
		tpm_put_bytes(b, zero, 32);
		tpm_put_u16(b, 32);
		tpm_put_bytes(b, zero, 32);
	}
	if (!b->bad) {
		size_t n = b->len - size_at - 2;

		b->data[size_at] = (uint8_t)(n >> 8);
		b->data[size_at + 1] = (uint8_t)n;
	}
}

/* Is @pub (a TPMT_PUBLIC) of the EK template @kind in all but unique? */
static bool is_template(const uint8_t *pub, size_t len, enum ek_kind kind)
{
	uint8_t head[128];
	struct tpm_buf b = {.data = head, .cap = sizeof(head)};

	put_template_head(&b, kind);
	return !b.bad && len > b.len && memcmp(pub, head, b.len) == 0;
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

static uint8_t cbuf[1024];
static uint8_t rbuf[SVSM_VTPM_MAX_RESPONSE];

/* Copy the TPM2B_PUBLIC at the reader into @k; false if malformed. */
static bool take_public(struct tpm_buf *rsp, struct ek *k)
{
	uint16_t n = tpm_get_u16(rsp);
	const uint8_t *p = tpm_get_bytes(rsp, n);

	if (p == NULL || n > sizeof(k->pub)) {
		return false;
	}
	memcpy(k->pub, p, n);
	k->pub_len = n;
	return true;
}

/* The object at @k's handle: its public into @k if it is the EK's. */
static uint32_t ek_read(const struct vtpm_engine *e, struct ek *k,
			enum ek_kind kind)
{
	struct tpm_buf cmd = {.data = cbuf, .cap = sizeof(cbuf)};
	struct tpm_buf rsp;
	uint32_t rsp_len = 0;
	uint32_t rc;

	tpm_begin(&cmd, TPM2_ST_NO_SESSIONS, TPM_CC_READ_PUBLIC);
	tpm_put_u32(&cmd, k->handle);
	rc = run(e, &cmd, rbuf, sizeof(rbuf), &rsp_len);
	if (rc != TPM2_RC_SUCCESS) {
		return rc;
	}
	rsp = (struct tpm_buf){.data = rbuf, .cap = rsp_len};
	(void)tpm_get_bytes(&rsp, TPM2_HEADER_SIZE);
	if (!take_public(&rsp, k) || !is_template(k->pub, k->pub_len, kind)) {
		k->pub_len = 0;
		return TPM2_RC_FAILURE;
	}
	return TPM2_RC_SUCCESS;
}

static uint32_t evict(const struct vtpm_engine *e, uint32_t object,
		      uint32_t persistent)
{
	struct tpm_buf cmd = {.data = cbuf, .cap = sizeof(cbuf)};
	uint32_t rsp_len = 0;

	tpm_begin(&cmd, TPM2_ST_SESSIONS, TPM_CC_EVICT_CONTROL);
	tpm_put_u32(&cmd, TPM_RH_OWNER);
	tpm_put_u32(&cmd, object);
	tpm_put_pw_session(&cmd);
	tpm_put_u32(&cmd, persistent);
	return run(e, &cmd, rbuf, sizeof(rbuf), &rsp_len);
}

/* CreatePrimary from the template, then persistent at @k's handle. */
static enum svsm_err ek_make(const struct vtpm_engine *e, struct ek *k,
			     enum ek_kind kind, bool occupied)
{
	struct tpm_buf cmd = {.data = cbuf, .cap = sizeof(cbuf)};
	struct tpm_buf rsp;
	uint32_t rsp_len = 0;
	uint32_t handle;
	uint32_t rc;

	tpm_begin(&cmd, TPM2_ST_SESSIONS, TPM_CC_CREATE_PRIMARY);
	tpm_put_u32(&cmd, TPM_RH_ENDORSEMENT);
	tpm_put_pw_session(&cmd);
	tpm_put_u16(&cmd, 4); /* inSensitive: empty userAuth and data */
	tpm_put_u16(&cmd, 0);
	tpm_put_u16(&cmd, 0);
	put_template(&cmd, kind);
	tpm_put_u16(&cmd, 0); /* outsideInfo */
	tpm_put_u32(&cmd, 0); /* creationPCR: none */
	rc = run(e, &cmd, rbuf, sizeof(rbuf), &rsp_len);
	if (rc != TPM2_RC_SUCCESS) {
		LOG_ERROR("vtpm: EK %s CreatePrimary failed: rc 0x%x", k->name,
			  rc);
		return SVSM_E_INVAL;
	}
	/* objectHandle, parameterSize, outPublic (TPM2B_PUBLIC). */
	rsp = (struct tpm_buf){.data = rbuf, .cap = rsp_len};
	(void)tpm_get_bytes(&rsp, TPM2_HEADER_SIZE);
	handle = tpm_get_u32(&rsp);
	(void)tpm_get_u32(&rsp);
	if (!take_public(&rsp, k)) {
		LOG_ERROR("vtpm: EK CreatePrimary response malformed");
		return SVSM_E_INVAL;
	}
	/* A foreign object at the handle goes first (owner auth empty). */
	if (occupied && evict(e, k->handle, k->handle) != TPM2_RC_SUCCESS) {
		LOG_NOTICE("vtpm: EK %s: handle 0x%x holds another object the "
			   "SVSM cannot evict; the EK is published, not "
			   "persistent",
			   k->name, k->handle);
		rc = TPM2_RC_SUCCESS;
	} else {
		rc = evict(e, handle, k->handle);
	}
	tpm_begin(&cmd, TPM2_ST_NO_SESSIONS, TPM_CC_FLUSH_CONTEXT);
	tpm_put_u32(&cmd, handle);
	(void)run(e, &cmd, rbuf, sizeof(rbuf), &rsp_len);
	if (rc != TPM2_RC_SUCCESS) {
		LOG_ERROR("vtpm: EK %s EvictControl failed: rc 0x%x", k->name,
			  rc);
		k->pub_len = 0;
		return SVSM_E_INVAL;
	}
	return SVSM_OK;
}

enum svsm_err ek_init(const struct vtpm_engine *e, unsigned *created)
{
	unsigned i;
	uint32_t rc;
	enum svsm_err err;

	*created = 0;
	for (i = 0; i < EK_KINDS; i++) {
		eks[i].pub_len = 0;
		rc = ek_read(e, &eks[i], (enum ek_kind)i);
		if (rc == TPM2_RC_SUCCESS) {
			continue;
		}
		/* TPM_RC_HANDLE (with its handle number): nothing there. */
		if ((rc & 0x0BFu) != 0x08Bu) {
			LOG_NOTICE("vtpm: EK %s: handle 0x%x holds no EK; "
				   "creating it again",
				   eks[i].name, eks[i].handle);
		}
		err = ek_make(e, &eks[i], (enum ek_kind)i,
			      (rc & 0x0BFu) != 0x08Bu);
		if (err != SVSM_OK) {
			return err;
		}
		(*created)++;
	}
	return SVSM_OK;
}
