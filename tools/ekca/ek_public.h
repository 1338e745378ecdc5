/* SPDX-License-Identifier: MIT */
/*
 * An endorsement key's public area (TPMT_PUBLIC, TPM 2.0 Part 2, 12.2.4)
 * from untrusted bytes: a services manifest's entry or a guest's claim.
 * Only the TCG EK Credential Profile's default templates are accepted,
 * every field but the key itself equal to the template (L-1: RSA 2048,
 * L-2: ECC NIST P-256), so a certificate is never issued for a key whose
 * attributes (fixedTPM, restricted decrypt, the endorsement policy) make
 * it something other than an EK.
 */
#ifndef TOOLS_EKCA_EK_PUBLIC_H
#define TOOLS_EKCA_EK_PUBLIC_H

#include <openssl/evp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ek_kind { EK_KIND_RSA2048, EK_KIND_ECC_P256, EK_KINDS };

/* A parsed EK: the key bytes point into the parsed buffer. */
struct ek_public {
	enum ek_kind kind;
	const uint8_t *modulus; /* RSA: 256 bytes, big-endian */
	uint32_t exponent;	/* RSA: 65537 (the template's 0 means it) */
	const uint8_t *x, *y;	/* ECC: 32 bytes each, big-endian */
};

/** The key's name in file names and messages: "rsa2048", "ecc-p256". */
const char *ek_kind_name(enum ek_kind kind);

/**
 * Parse @len bytes at @buf: a TPMT_PUBLIC, or with @allow_2b also a
 * TPM2B_PUBLIC (what tpm2_createek -u writes). NULL on success, else
 * what is wrong with it (the bytes are then not an EK of a template).
 */
const char *ek_public_parse(const uint8_t *buf, size_t len, bool allow_2b,
			    struct ek_public *ek);

/** The key as OpenSSL's; NULL if it is not a valid key (off the curve). */
EVP_PKEY *ek_public_pkey(const struct ek_public *ek);

/** Do @a and @b hold the same kind and key? */
bool ek_public_equal(const struct ek_public *a, const struct ek_public *b);

#endif /* TOOLS_EKCA_EK_PUBLIC_H */
