/* SPDX-License-Identifier: MIT */
/*
 * The attestation report: decoding its fields, reading it from a file, and
 * checking its signature. The signature is ECDSA P-384 over SHA-384 of
 * bytes 0x000-0x29F, R and S each 72 bytes little-endian (only the low 48
 * carry the value; the rest must be zero).
 */
#include <ctype.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <string.h>

#include "svsm/le.h"

#include "../common/hex.h"
#include "verify.h"

void report_decode(const uint8_t *r, struct report_fields *f)
{
	f->version = le_get32(r + SNP_REPORT_OFF_VERSION);
	f->guest_svn = le_get32(r + SNP_REPORT_OFF_GUEST_SVN);
	f->policy = le_get64(r + SNP_REPORT_OFF_POLICY);
	f->vmpl = le_get32(r + SNP_REPORT_OFF_VMPL);
	f->sig_algo = le_get32(r + SNP_REPORT_OFF_SIG_ALGO);
	f->current_tcb = le_get64(r + SNP_REPORT_OFF_CURRENT_TCB);
	f->platform_info = le_get64(r + SNP_REPORT_OFF_PLATFORM_INFO);
	f->flags = le_get32(r + SNP_REPORT_OFF_FLAGS);
	f->reported_tcb = le_get64(r + SNP_REPORT_OFF_REPORTED_TCB);
	f->report_data = r + SNP_REPORT_OFF_REPORT_DATA;
	f->measurement = r + SNP_REPORT_OFF_MEASUREMENT;
	f->host_data = r + SNP_REPORT_OFF_HOST_DATA;
	f->report_id = r + SNP_REPORT_OFF_REPORT_ID;
	f->chip_id = r + SNP_REPORT_OFF_CHIP_ID;
}

bool report_parse(const uint8_t *in, size_t len, uint8_t out[SNP_REPORT_SIZE])
{
	size_t i;
	size_t n = 0;
	int hi = -1;

	if (len == SNP_REPORT_SIZE) {
		memcpy(out, in, SNP_REPORT_SIZE);
		return true;
	}
	/* Hex text: digits and whitespace only, exactly 1184 bytes' worth. */
	for (i = 0; i < len; i++) {
		int v = hex_nibble(in[i]);

		if (v < 0) {
			if (!isspace(in[i])) {
				return false;
			}
			continue;
		}
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n == SNP_REPORT_SIZE) {
			return false;
		}
		out[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	return n == SNP_REPORT_SIZE && hi < 0;
}

/* A 72-byte little-endian component; the top 24 bytes must be zero. */
static BIGNUM *sig_component(const uint8_t *p)
{
	size_t i;

	for (i = 48; i < SNP_REPORT_SIG_COMPONENT; i++) {
		if (p[i] != 0) {
			return NULL;
		}
	}
	return BN_lebin2bn(p, 48, NULL);
}

bool report_unsigned_zero(const uint8_t *report)
{
	size_t i;

	for (i = SNP_REPORT_OFF_SIGNATURE + 2 * SNP_REPORT_SIG_COMPONENT;
	     i < SNP_REPORT_SIZE; i++) {
		if (report[i] != 0) {
			return false;
		}
	}
	return true;
}

bool report_signature_ok(const uint8_t *report, EVP_PKEY *key)
{
	const uint8_t *sig = report + SNP_REPORT_OFF_SIGNATURE;
	BIGNUM *r = sig_component(sig);
	BIGNUM *s = sig_component(sig + SNP_REPORT_SIG_COMPONENT);
	ECDSA_SIG *esig = ECDSA_SIG_new();
	unsigned char *der = NULL;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = false;
	int der_len;

	if (r == NULL || s == NULL || esig == NULL || ctx == NULL ||
	    EVP_PKEY_get_base_id(key) != EVP_PKEY_EC ||
	    EVP_PKEY_get_bits(key) != 384) {
		goto out;
	}
	if (ECDSA_SIG_set0(esig, r, s) != 1) {
		goto out;
	}
	r = s = NULL; /* owned by esig now */
	der_len = i2d_ECDSA_SIG(esig, &der);
	if (der_len <= 0) {
		goto out;
	}
	ok = EVP_DigestVerifyInit(ctx, NULL, EVP_sha384(), NULL, key) == 1 &&
	     EVP_DigestVerify(ctx, der, (size_t)der_len, report,
			      SNP_REPORT_SIGNED_LEN) == 1;
out:
	OPENSSL_free(der);
	EVP_MD_CTX_free(ctx);
	ECDSA_SIG_free(esig);
	BN_free(r);
	BN_free(s);
	return ok;
}
