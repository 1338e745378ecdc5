/* SPDX-License-Identifier: MIT */
/*
 * A report's signature checked as AMD's chain requires (verify.h): the
 * ARK self-signed and the ASK under it (RSA-4096 each), the VCEK under
 * the ASK, the report signed by the VCEK's P-384 key with nothing after
 * the signature, and the VCEK's hwID and TCB equal to the report's. Every
 * input is the host's or the guest's until these hold.
 */
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <string.h>

#include "verify.h"

static bool rsa4096(EVP_PKEY *k)
{
	return k != NULL && EVP_PKEY_get_base_id(k) == EVP_PKEY_RSA &&
	       EVP_PKEY_get_bits(k) == 4096;
}

/* @cert signed by @issuer, and the names chain. */
static bool signed_by(X509 *cert, X509 *issuer)
{
	EVP_PKEY *k = X509_get0_pubkey(issuer);

	return k != NULL &&
	       X509_NAME_cmp(X509_get_issuer_name(cert),
			     X509_get_subject_name(issuer)) == 0 &&
	       X509_verify(cert, k) == 1;
}

void verify_signed_report(X509 *ark, X509 *ask, X509 *vcek,
			  const uint8_t *report, const struct report_fields *f,
			  verify_emit emit, void *ctx)
{
	EVP_PKEY *vk = X509_get0_pubkey(vcek);
	struct vcek_ids ids;
	bool ids_ok;

	emit(ctx, "ark-self-signed",
	     rsa4096(X509_get0_pubkey(ark)) && signed_by(ark, ark),
	     "the ARK is an RSA-4096 key that signed its own certificate");
	emit(ctx, "ask-signed-by-ark",
	     rsa4096(X509_get0_pubkey(ask)) && signed_by(ask, ark),
	     "the ASK is an RSA-4096 key certified by the ARK");
	emit(ctx, "vcek-signed-by-ask", signed_by(vcek, ask),
	     "the VCEK certificate is signed by the ASK");
	emit(ctx, "report-format",
	     f->version >= 2 && f->sig_algo == SNP_SIG_ALGO_ECDSA_P384_SHA384,
	     "report version 2 or later, signed with ECDSA P-384/SHA-384");
	emit(ctx, "report-signature",
	     vk != NULL && report_signature_ok(report, vk),
	     "the report's signature verifies with the VCEK's P-384 key");
	emit(ctx, "report-reserved-zero", report_unsigned_zero(report),
	     "the bytes after the signature (0x330-0x49F) are zero");
	ids_ok = vcek_read_ids(vcek, &ids);
	emit(ctx, "vcek-extensions", ids_ok,
	     "the VCEK's hwID and TCB extensions are well formed");
	if (ids_ok && ids.has_hwid) {
		emit(ctx, "vcek-chip-id",
		     memcmp(ids.hwid, f->chip_id, SNP_CHIP_ID_LEN) == 0,
		     "the VCEK's hwID equals the report's CHIP_ID");
	}
	if (ids_ok && ids.has_tcb) {
		emit(ctx, "vcek-tcb", ids.tcb == f->reported_tcb,
		     "the VCEK's TCB equals the report's REPORTED_TCB");
	}
}

bool verify_report_data(const uint8_t *nonce, size_t nonce_len,
			const uint8_t *manifest, size_t manifest_len,
			const struct report_fields *f)
{
	uint8_t md[SHA512_DIGEST_LENGTH];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = ctx != NULL &&
		  EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) == 1 &&
		  EVP_DigestUpdate(ctx, nonce, nonce_len) == 1 &&
		  EVP_DigestUpdate(ctx, manifest, manifest_len) == 1 &&
		  EVP_DigestFinal_ex(ctx, md, NULL) == 1;

	EVP_MD_CTX_free(ctx);
	return ok && memcmp(md, f->report_data, sizeof(md)) == 0;
}
