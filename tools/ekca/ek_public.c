/* SPDX-License-Identifier: MIT */
/*
 * TPMT_PUBLIC of an EK, parsed from untrusted bytes (ek_public.h): every
 * field read once through a bounded reader, compared with the template,
 * no trailing bytes. Big-endian, as the TPM marshals.
 */
#include "ek_public.h"

#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <string.h>

#define TPM_ALG_RSA 0x0001u
#define TPM_ALG_AES 0x0006u
#define TPM_ALG_SHA256 0x000Bu
#define TPM_ALG_NULL 0x0010u
#define TPM_ALG_ECC 0x0023u
#define TPM_ALG_CFB 0x0043u
#define TPM_ECC_NIST_P256 0x0003u
/* fixedTPM | fixedParent | sensitiveDataOrigin | adminWithPolicy |
 * restricted | decrypt: templates L-1 and L-2 (EK Credential Profile
 * 2.x, B.3.3 and B.3.4). userWithAuth clear: only the policy opens it. */
#define EK_ATTRIBUTES 0x000300B2u
#define RSA_BYTES 256u
#define ECC_BYTES 32u

/* PolicySecret(TPM_RH_ENDORSEMENT) under SHA-256: the templates'
 * authPolicy (EK Credential Profile 2.x, B.3.2). */
static const uint8_t ek_policy[32] = {
	0x83, 0x71, 0x97, 0x67, 0x44, 0x84, 0xB3, 0xF8, 0x1A, 0x90, 0xCC,
	0x8D, 0x46, 0xA5, 0xD7, 0x24, 0xFD, 0x52, 0xD7, 0x6E, 0x06, 0x52,
	0x0B, 0x64, 0xF2, 0xA1, 0xDA, 0x1B, 0x33, 0x14, 0x69, 0xAA,
};

/* A bounded big-endian reader: past the end, every read fails. */
struct rd {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static const uint8_t *rd_bytes(struct rd *r, size_t n)
{
	const uint8_t *p;

	if (r->bad || n > r->len - r->off) {
		r->bad = true;
		return NULL;
	}
	p = r->p + r->off;
	r->off += n;
	return p;
}

static uint32_t rd_u16(struct rd *r)
{
	const uint8_t *p = rd_bytes(r, 2);

	return p != NULL ? ((uint32_t)p[0] << 8 | p[1]) : 0;
}

static uint32_t rd_u32(struct rd *r)
{
	const uint8_t *p = rd_bytes(r, 4);

	return p != NULL ? ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			    (uint32_t)p[2] << 8 | p[3])
			 : 0;
}

/* A TPM2B of exactly @n bytes; NULL if it is another size. */
static const uint8_t *rd_2b(struct rd *r, size_t n)
{
	if (rd_u16(r) != n) {
		r->bad = true;
		return NULL;
	}
	return rd_bytes(r, n);
}

const char *ek_kind_name(enum ek_kind kind)
{
	return kind == EK_KIND_RSA2048 ? "rsa2048" : "ecc-p256";
}

static const char *parse_rsa(struct rd *r, struct ek_public *ek)
{
	uint32_t exponent;

	if (rd_u16(r) != 2048) {
		return "an RSA key of another size than 2048 bits";
	}
	exponent = rd_u32(r);
	if (exponent != 0 && exponent != 65537) {
		return "an RSA exponent other than the template's";
	}
	ek->kind = EK_KIND_RSA2048;
	ek->exponent = 65537;
	ek->modulus = rd_2b(r, RSA_BYTES);
	if (ek->modulus == NULL) {
		return "the RSA modulus is not 256 bytes";
	}
	if ((ek->modulus[0] & 0x80) == 0 || (ek->modulus[255] & 1) == 0) {
		return "the RSA modulus is not an odd 2048-bit number";
	}
	return NULL;
}

static const char *parse_ecc(struct rd *r, struct ek_public *ek)
{
	if (rd_u16(r) != TPM_ECC_NIST_P256) {
		return "an ECC curve other than NIST P-256";
	}
	if (rd_u16(r) != TPM_ALG_NULL) {
		return "an ECC KDF other than the template's (none)";
	}
	ek->kind = EK_KIND_ECC_P256;
	ek->x = rd_2b(r, ECC_BYTES);
	ek->y = rd_2b(r, ECC_BYTES);
	if (ek->x == NULL || ek->y == NULL) {
		return "the ECC point's coordinates are not 32 bytes each";
	}
	return NULL;
}

const char *ek_public_parse(const uint8_t *buf, size_t len, bool allow_2b,
			    struct ek_public *ek)
{
	struct rd r = {.p = buf, .len = len};
	const uint8_t *policy;
	uint32_t type;
	const char *why;

	memset(ek, 0, sizeof(*ek));
	/* A TPM2B_PUBLIC's size is the rest; a TPMT_PUBLIC starts with its
	 * type (1 or 0x23), never the rest's size at these lengths. */
	if (allow_2b && len >= 2 && ((size_t)buf[0] << 8 | buf[1]) == len - 2) {
		r.off = 2;
	}
	type = rd_u16(&r);
	if (type != TPM_ALG_RSA && type != TPM_ALG_ECC) {
		return r.bad ? "too short for a public area"
			     : "neither an RSA nor an ECC key";
	}
	if (rd_u16(&r) != TPM_ALG_SHA256) {
		return "a name algorithm other than SHA-256";
	}
	if (rd_u32(&r) != EK_ATTRIBUTES) {
		return "object attributes other than the EK template's";
	}
	policy = rd_2b(&r, sizeof(ek_policy));
	if (policy == NULL ||
	    memcmp(policy, ek_policy, sizeof(ek_policy)) != 0) {
		return "an authPolicy other than PolicySecret(endorsement)";
	}
	if (rd_u16(&r) != TPM_ALG_AES || rd_u16(&r) != 128 ||
	    rd_u16(&r) != TPM_ALG_CFB) {
		return "a symmetric algorithm other than AES-128-CFB";
	}
	if (rd_u16(&r) != TPM_ALG_NULL) {
		return "a scheme other than the template's (none)";
	}
	why = type == TPM_ALG_RSA ? parse_rsa(&r, ek) : parse_ecc(&r, ek);
	if (why == NULL && r.bad) {
		why = "too short for a public area";
	}
	if (why == NULL && r.off != len) {
		why = "bytes after the public area";
	}
	if (why != NULL) {
		memset(ek, 0, sizeof(*ek));
	}
	return why;
}

static EVP_PKEY *pkey_from(const char *type, OSSL_PARAM_BLD *b)
{
	OSSL_PARAM *params = b != NULL ? OSSL_PARAM_BLD_to_param(b) : NULL;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
	EVP_PKEY *k = NULL;

	if (params == NULL || ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, params) != 1) {
		EVP_PKEY_free(k);
		k = NULL;
	}
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	return k;
}

/* Is @k's public key valid (an ECC point on its curve)? */
static bool key_checks(EVP_PKEY *k)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
	bool ok = ctx != NULL && EVP_PKEY_public_check(ctx) == 1;

	EVP_PKEY_CTX_free(ctx);
	return ok;
}

EVP_PKEY *ek_public_pkey(const struct ek_public *ek)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	BIGNUM *n = NULL, *e = NULL;
	uint8_t point[1 + 2 * ECC_BYTES];
	EVP_PKEY *k = NULL;
	bool ok = b != NULL;

	if (ek->kind == EK_KIND_RSA2048) {
		n = BN_bin2bn(ek->modulus, RSA_BYTES, NULL);
		e = BN_new();
		ok = ok && n != NULL && e != NULL &&
		     BN_set_word(e, ek->exponent) == 1 &&
		     OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, n) == 1 &&
		     OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, e) == 1;
		k = ok ? pkey_from("RSA", b) : NULL;
	} else {
		point[0] = 0x04; /* uncompressed (SEC 1, 2.3.3) */
		memcpy(point + 1, ek->x, ECC_BYTES);
		memcpy(point + 1 + ECC_BYTES, ek->y, ECC_BYTES);
		ok = ok &&
		     OSSL_PARAM_BLD_push_utf8_string(b,
						     OSSL_PKEY_PARAM_GROUP_NAME,
						     "prime256v1", 0) == 1 &&
		     OSSL_PARAM_BLD_push_octet_string(
			     b, OSSL_PKEY_PARAM_PUB_KEY, point,
			     sizeof(point)) == 1;
		k = ok ? pkey_from("EC", b) : NULL;
	}
	if (k != NULL && !key_checks(k)) {
		EVP_PKEY_free(k);
		k = NULL;
	}
	BN_free(n);
	BN_free(e);
	OSSL_PARAM_BLD_free(b);
	return k;
}

bool ek_public_equal(const struct ek_public *a, const struct ek_public *b)
{
	if (a->kind != b->kind) {
		return false;
	}
	if (a->kind == EK_KIND_RSA2048) {
		return a->exponent == b->exponent &&
		       memcmp(a->modulus, b->modulus, RSA_BYTES) == 0;
	}
	return memcmp(a->x, b->x, ECC_BYTES) == 0 &&
	       memcmp(a->y, b->y, ECC_BYTES) == 0;
}
