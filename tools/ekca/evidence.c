/* SPDX-License-Identifier: MIT */
/*
 * Verify the evidence for an EK certificate (evidence.h). Every check
 * runs on bytes the relying party holds; the first that fails is named.
 * Threats: the guest OS (VMPL1) asks for its own report with a made-up
 * manifest (refused: VMPL must be 0, only the SVSM holds VMPCK0); another
 * image at VMPL0 vouches for a key it made (refused: MEASUREMENT); a
 * debug-policy guest whose memory the host reads (refused: the EK's
 * private part would not be the vTPM's alone); a replayed report
 * (refused: REPORT_DATA binds the relying party's fresh nonce).
 */
#include "evidence.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <string.h>

#include "abi/svsm_attest.h"

#define SNP_POLICY_DEBUG (1ull << 19) /* 56860 Table 9 */

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

static bool report_data_binds(const struct evidence *ev,
			      const struct report_fields *f)
{
	uint8_t md[SHA512_DIGEST_LENGTH];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = ctx != NULL &&
		  EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) == 1 &&
		  EVP_DigestUpdate(ctx, ev->nonce, ev->nonce_len) == 1 &&
		  EVP_DigestUpdate(ctx, ev->manifest, ev->manifest_len) == 1 &&
		  EVP_DigestFinal_ex(ctx, md, NULL) == 1;

	EVP_MD_CTX_free(ctx);
	return ok && memcmp(md, f->report_data, sizeof(md)) == 0;
}

static bool fail_with(struct evidence_failure *fail, const char *check,
		      const char *expected)
{
	fail->check = check;
	fail->expected = expected;
	return false;
}

/* The chain, the report's signature and the VCEK's binding to it. */
static bool verify_signed(const struct evidence *ev,
			  const struct report_fields *f,
			  struct evidence_failure *fail)
{
	EVP_PKEY *vk = X509_get0_pubkey(ev->vcek);
	struct vcek_ids ids;

	if (!rsa4096(X509_get0_pubkey(ev->ark)) ||
	    !signed_by(ev->ark, ev->ark)) {
		return fail_with(fail, "ark-self-signed",
				 "the ARK is an RSA-4096 key that signed its "
				 "own certificate");
	}
	if (!rsa4096(X509_get0_pubkey(ev->ask)) ||
	    !signed_by(ev->ask, ev->ark)) {
		return fail_with(fail, "ask-signed-by-ark",
				 "the ASK is an RSA-4096 key certified by the "
				 "ARK");
	}
	if (!signed_by(ev->vcek, ev->ask)) {
		return fail_with(fail, "vcek-signed-by-ask",
				 "the VCEK certificate is signed by the ASK");
	}
	if (f->version < 2 || f->sig_algo != SNP_SIG_ALGO_ECDSA_P384_SHA384) {
		return fail_with(fail, "report-format",
				 "report version 2 or later, signed with "
				 "ECDSA P-384/SHA-384");
	}
	if (vk == NULL || !report_signature_ok(ev->report, vk)) {
		return fail_with(fail, "report-signature",
				 "the report's signature verifies with the "
				 "VCEK's P-384 key");
	}
	if (!report_unsigned_zero(ev->report)) {
		return fail_with(fail, "report-reserved-zero",
				 "the bytes after the signature are zero");
	}
	if (!vcek_read_ids(ev->vcek, &ids)) {
		return fail_with(fail, "vcek-extensions",
				 "the VCEK's hwID and TCB extensions are well "
				 "formed");
	}
	if (ids.has_hwid &&
	    memcmp(ids.hwid, f->chip_id, SNP_CHIP_ID_LEN) != 0) {
		return fail_with(fail, "vcek-chip-id",
				 "the VCEK's hwID equals the report's CHIP_ID");
	}
	if (ids.has_tcb && ids.tcb != f->reported_tcb) {
		return fail_with(fail, "vcek-tcb",
				 "the VCEK's TCB equals the report's "
				 "REPORTED_TCB");
	}
	return true;
}

bool evidence_verify(const struct evidence *ev, struct manifest *m,
		     struct evidence_failure *fail)
{
	static const uint8_t vtpm_guid[16] = SVSM_VTPM_SERVICE_GUID;
	struct report_fields f;
	const char *why;

	m->count = 0;
	report_decode(ev->report, &f);
	if (!verify_signed(ev, &f, fail)) {
		return false;
	}
	if (f.vmpl != 0) {
		return fail_with(fail, "vmpl",
				 "VMPL 0: a report the SVSM asked for");
	}
	if ((f.policy & SNP_POLICY_DEBUG) != 0) {
		return fail_with(fail, "policy-debug",
				 "a guest policy without DEBUG (the host "
				 "could read the EK's private key)");
	}
	if (memcmp(f.measurement, ev->measurement, SNP_MEASUREMENT_LEN) != 0) {
		return fail_with(fail, "measurement",
				 "MEASUREMENT equals the trusted image's");
	}
	if (!report_data_binds(ev, &f)) {
		return fail_with(fail, "report-data",
				 "REPORT_DATA equals SHA-512(nonce || "
				 "manifest)");
	}
	if (ev->single) {
		/* SAFE: the whole manifest is the vTPM's blob. */
		if (ev->manifest_len == 0 || ev->manifest_len > UINT32_MAX) {
			return fail_with(fail, "manifest-format",
					 "a non-empty vTPM manifest");
		}
		memcpy(m->entry[0].guid, vtpm_guid, 16);
		m->entry[0].data = ev->manifest;
		m->entry[0].len = (uint32_t)ev->manifest_len;
		m->count = 1;
		return true;
	}
	why = manifest_parse(ev->manifest, ev->manifest_len, m);
	if (why != NULL) {
		return fail_with(fail, "manifest-format", why);
	}
	return true;
}
