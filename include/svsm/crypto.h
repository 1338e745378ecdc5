/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's cryptography: a narrow interface to OpenSSL's libcrypto
 * (src/crypto/), the same library on every platform (Debian's libcrypto.a
 * in the firmware, the system's in hosted builds). Nothing here is
 * implemented by hand. Every function takes the libraries' lock and the
 * SIMD bracket itself, so callers hold neither; each returns false if
 * libcrypto failed, and the caller fails its request.
 */
#ifndef SVSM_CRYPTO_H
#define SVSM_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CRYPTO_SHA384_LEN 48u
#define CRYPTO_SHA512_LEN 64u
#define CRYPTO_AES256_KEY_LEN 32u
#define CRYPTO_GCM_IV_LEN 12u
#define CRYPTO_GCM_TAG_LEN 16u
#define CRYPTO_P384_LEN 48u

/* Pieces of a message hashed as their concatenation. */
struct crypto_piece {
	const void *data;
	size_t len;
};

bool crypto_sha384(const struct crypto_piece *pieces, size_t count,
		   uint8_t out[CRYPTO_SHA384_LEN]);
bool crypto_sha512(const struct crypto_piece *pieces, size_t count,
		   uint8_t out[CRYPTO_SHA512_LEN]);

/* A digest computed over data that arrives in parts (a kernel read page
 * by page). The algorithm is a TPM_ALG_ID (TPM 2.0 Part 2): SHA-1
 * 0x0004, SHA-256 0x000B, SHA-384 0x000C, SHA-512 0x000D. */
struct crypto_hash;

/** The digest length of TPM_ALG_ID @alg, 0 if libcrypto has none here. */
size_t crypto_hash_len(uint16_t alg);
/** A new digest of @alg (crypto_hash_len() nonzero), or NULL. */
struct crypto_hash *crypto_hash_begin(uint16_t alg);
bool crypto_hash_update(struct crypto_hash *h, const void *data, size_t len);
/** The digest (crypto_hash_len bytes) to @out; frees @h (even on false;
 * NULL is fine and false). */
bool crypto_hash_end(struct crypto_hash *h, uint8_t *out);

/** HMAC-SHA-384 of @msg under @key. */
bool crypto_hmac_sha384(const uint8_t *key, size_t key_len, const void *msg,
			size_t msg_len, uint8_t out[CRYPTO_SHA384_LEN]);

/** AES-256-GCM encryption; @ct may equal @pt. */
bool crypto_gcm_seal(const uint8_t key[CRYPTO_AES256_KEY_LEN],
		     const uint8_t iv[CRYPTO_GCM_IV_LEN], const void *aad,
		     size_t aad_len, const void *pt, size_t len, void *ct,
		     uint8_t tag[CRYPTO_GCM_TAG_LEN]);
/**
 * AES-256-GCM decryption. False if the tag does not authenticate: then
 * @pt holds no plaintext (it is wiped) and must not be used.
 */
bool crypto_gcm_open(const uint8_t key[CRYPTO_AES256_KEY_LEN],
		     const uint8_t iv[CRYPTO_GCM_IV_LEN], const void *aad,
		     size_t aad_len, const void *ct, size_t len, void *pt,
		     const uint8_t tag[CRYPTO_GCM_TAG_LEN]);

/**
 * ECDSA P-384 over SHA-384 of @msg with the private key @key_der (PKCS#8
 * DER); R and S big-endian, 48 bytes each. The emulated PSP's signer.
 */
bool crypto_p384_sign(const uint8_t *key_der, size_t key_len, const void *msg,
		      size_t msg_len, uint8_t r[CRYPTO_P384_LEN],
		      uint8_t s[CRYPTO_P384_LEN]);

/** Erase a secret so the compiler cannot drop the stores. */
void crypto_wipe(void *p, size_t len);

#endif /* SVSM_CRYPTO_H */
