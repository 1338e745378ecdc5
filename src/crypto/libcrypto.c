/* SPDX-License-Identifier: MIT */
/*
 * svsm/crypto.h on OpenSSL's libcrypto (EVP interfaces only). Each call
 * runs under the libraries' lock and inside the SIMD bracket, because
 * libcrypto uses SSE/AVX and shares its state with libtpms.
 */
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/x509.h>

#include "svsm/crypto.h"
#include "svsm/lib_lock.h"
#include "svsm/plat.h"

static void enter(void)
{
	lib_lock();
	plat_simd_begin();
}

static void leave(void)
{
	plat_simd_end();
	lib_unlock();
}

static bool digest(const EVP_MD *md, const struct crypto_piece *pieces,
		   size_t count, uint8_t *out)
{
	EVP_MD_CTX *ctx;
	bool ok;
	size_t i;

	enter();
	ctx = EVP_MD_CTX_new();
	ok = ctx != NULL && EVP_DigestInit_ex(ctx, md, NULL) == 1;
	for (i = 0; ok && i < count; i++) {
		ok = EVP_DigestUpdate(ctx, pieces[i].data, pieces[i].len) == 1;
	}
	ok = ok && EVP_DigestFinal_ex(ctx, out, NULL) == 1;
	EVP_MD_CTX_free(ctx);
	leave();
	return ok;
}

static const EVP_MD *hash_md(uint16_t alg)
{
	switch (alg) {
	case 0x0004:
		return EVP_sha1();
	case 0x000B:
		return EVP_sha256();
	case 0x000C:
		return EVP_sha384();
	case 0x000D:
		return EVP_sha512();
	default:
		return NULL;
	}
}

size_t crypto_hash_len(uint16_t alg)
{
	const EVP_MD *md = hash_md(alg);
	int len;

	if (md == NULL) {
		return 0;
	}
	enter();
	len = EVP_MD_get_size(md);
	leave();
	return len > 0 ? (size_t)len : 0;
}

struct crypto_hash *crypto_hash_begin(uint16_t alg)
{
	const EVP_MD *md = hash_md(alg);
	EVP_MD_CTX *ctx;

	if (md == NULL) {
		return NULL;
	}
	enter();
	ctx = EVP_MD_CTX_new();
	if (ctx != NULL && EVP_DigestInit_ex(ctx, md, NULL) != 1) {
		EVP_MD_CTX_free(ctx);
		ctx = NULL;
	}
	leave();
	return (struct crypto_hash *)ctx;
}

bool crypto_hash_update(struct crypto_hash *h, const void *data, size_t len)
{
	bool ok;

	if (h == NULL) {
		return false;
	}
	enter();
	ok = EVP_DigestUpdate((EVP_MD_CTX *)h, data, len) == 1;
	leave();
	return ok;
}

bool crypto_hash_end(struct crypto_hash *h, uint8_t *out)
{
	bool ok;

	if (h == NULL) {
		return false;
	}
	enter();
	ok = EVP_DigestFinal_ex((EVP_MD_CTX *)h, out, NULL) == 1;
	EVP_MD_CTX_free((EVP_MD_CTX *)h);
	leave();
	return ok;
}

bool crypto_sha384(const struct crypto_piece *pieces, size_t count,
		   uint8_t out[CRYPTO_SHA384_LEN])
{
	return digest(EVP_sha384(), pieces, count, out);
}

bool crypto_sha512(const struct crypto_piece *pieces, size_t count,
		   uint8_t out[CRYPTO_SHA512_LEN])
{
	return digest(EVP_sha512(), pieces, count, out);
}

bool crypto_hmac_sha384(const uint8_t *key, size_t key_len, const void *msg,
			size_t msg_len, uint8_t out[CRYPTO_SHA384_LEN])
{
	unsigned int len = 0;
	bool ok;

	enter();
	ok = HMAC(EVP_sha384(), key, (int)key_len, msg, msg_len, out, &len) !=
		     NULL &&
	     len == CRYPTO_SHA384_LEN;
	leave();
	return ok;
}

static bool gcm(bool seal, const uint8_t *key, const uint8_t *iv,
		const void *aad, size_t aad_len, const void *in, size_t len,
		void *out, uint8_t *tag)
{
	EVP_CIPHER_CTX *ctx;
	int n = 0;
	bool ok;

	if (aad_len > INT32_MAX || len > INT32_MAX) {
		return false;
	}
	enter();
	ctx = EVP_CIPHER_CTX_new();
	ok = ctx != NULL &&
	     EVP_CipherInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL,
			       seal ? 1 : 0) == 1 &&
	     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, CRYPTO_GCM_IV_LEN,
				 NULL) == 1 &&
	     EVP_CipherInit_ex(ctx, NULL, NULL, key, iv, -1) == 1 &&
	     EVP_CipherUpdate(ctx, NULL, &n, aad, (int)aad_len) == 1 &&
	     (len == 0 || EVP_CipherUpdate(ctx, out, &n, in, (int)len) == 1);
	if (ok && !seal) {
		ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG,
					 CRYPTO_GCM_TAG_LEN, tag) == 1;
	}
	/* For open, Final is where the tag is checked. */
	ok = ok && EVP_CipherFinal_ex(ctx, (unsigned char *)out + len, &n) == 1;
	if (ok && seal) {
		ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG,
					 CRYPTO_GCM_TAG_LEN, tag) == 1;
	}
	EVP_CIPHER_CTX_free(ctx);
	if (!ok && !seal) {
		OPENSSL_cleanse(out, len);
	}
	leave();
	return ok;
}

bool crypto_gcm_seal(const uint8_t key[CRYPTO_AES256_KEY_LEN],
		     const uint8_t iv[CRYPTO_GCM_IV_LEN], const void *aad,
		     size_t aad_len, const void *pt, size_t len, void *ct,
		     uint8_t tag[CRYPTO_GCM_TAG_LEN])
{
	return gcm(true, key, iv, aad, aad_len, pt, len, ct, tag);
}

bool crypto_gcm_open(const uint8_t key[CRYPTO_AES256_KEY_LEN],
		     const uint8_t iv[CRYPTO_GCM_IV_LEN], const void *aad,
		     size_t aad_len, const void *ct, size_t len, void *pt,
		     const uint8_t tag[CRYPTO_GCM_TAG_LEN])
{
	uint8_t t[CRYPTO_GCM_TAG_LEN];
	size_t i;

	for (i = 0; i < sizeof(t); i++) {
		t[i] = tag[i]; /* OpenSSL wants a writable tag */
	}
	return gcm(false, key, iv, aad, aad_len, ct, len, pt, t);
}

bool crypto_p384_sign(const uint8_t *key_der, size_t key_len, const void *msg,
		      size_t msg_len, uint8_t r[CRYPTO_P384_LEN],
		      uint8_t s[CRYPTO_P384_LEN])
{
	const unsigned char *p = key_der;
	EVP_PKEY *key;
	EVP_MD_CTX *ctx = NULL;
	ECDSA_SIG *sig = NULL;
	unsigned char der[160];
	const unsigned char *dp = der;
	size_t der_len = sizeof(der);
	bool ok = false;

	enter();
	key = d2i_AutoPrivateKey(NULL, &p, (long)key_len);
	if (key == NULL || EVP_PKEY_get_base_id(key) != EVP_PKEY_EC ||
	    EVP_PKEY_get_bits(key) != 384) {
		goto out;
	}
	ctx = EVP_MD_CTX_new();
	if (ctx == NULL ||
	    EVP_DigestSignInit(ctx, NULL, EVP_sha384(), NULL, key) != 1 ||
	    EVP_DigestSign(ctx, der, &der_len, msg, msg_len) != 1) {
		goto out;
	}
	sig = d2i_ECDSA_SIG(NULL, &dp, (long)der_len);
	ok = sig != NULL &&
	     BN_bn2binpad(ECDSA_SIG_get0_r(sig), r, CRYPTO_P384_LEN) ==
		     CRYPTO_P384_LEN &&
	     BN_bn2binpad(ECDSA_SIG_get0_s(sig), s, CRYPTO_P384_LEN) ==
		     CRYPTO_P384_LEN;
out:
	ECDSA_SIG_free(sig);
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(key);
	leave();
	return ok;
}

void crypto_wipe(void *p, size_t len)
{
	OPENSSL_cleanse(p, len);
}
