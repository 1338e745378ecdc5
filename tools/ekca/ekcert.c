/* SPDX-License-Identifier: MIT */
/*
 * Issue an EK certificate (ekcert.h) with libcrypto. The fields follow
 * the TCG EK Credential Profile for TPM 2.0 (docs/vtpm.md, "EK
 * certificates"): an empty subject with a critical subjectAltName naming
 * the TPM (manufacturer, model, version as one directoryName RDN),
 * basicConstraints CA:FALSE, keyUsage keyEncipherment (RSA) or
 * keyAgreement (ECC), extendedKeyUsage tcg-kp-EKCertificate, the TPM
 * specification as a subject directory attribute, and a validity without
 * a well-defined end (RFC 5280 4.1.2.5: 99991231235959Z): the EK's
 * identity lasts as long as the vTPM's state.
 */
#include "ekcert.h"

#include <openssl/objects.h>
#include <openssl/x509v3.h>
#include <string.h>

#define OID_TPM_MANUFACTURER "2.23.133.2.1"
#define OID_TPM_MODEL "2.23.133.2.2"
#define OID_TPM_VERSION "2.23.133.2.3"
#define OID_EK_CERTIFICATE "2.23.133.8.1" /* tcg-kp-EKCertificate */
#define NOT_AFTER "99991231235959Z"

void ekcert_tpm_default(struct ekcert_tpm *t)
{
	/* libtpms 0.9 as csvsm runs it: TPM_PT_MANUFACTURER "IBM",
	 * TPM_PT_VENDOR_STRING_1..2 "SW  TPM", TPM_PT_FIRMWARE_VERSION_1,
	 * TPM_PT_REVISION 1.64 (tpm2_getcap properties-fixed). */
	t->manufacturer = "id:49424D00";
	t->model = "SW  TPM";
	t->version = "id:20191023";
	t->spec_revision = 164;
}

static bool add_conf(X509 *cert, const struct ekca *ca, int nid,
		     const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	bool ok;

	X509V3_set_ctx(&ctx, ca->cert, cert, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	ok = ext != NULL && X509_add_ext(cert, ext, -1) == 1;
	X509_EXTENSION_free(ext);
	return ok;
}

/* One attribute of the TPM's RDN; @set 0 starts the RDN, -1 joins it. */
static bool add_attr(X509_NAME *dn, const char *oid, const char *value, int set)
{
	ASN1_OBJECT *obj = OBJ_txt2obj(oid, 1);
	bool ok = obj != NULL &&
		  X509_NAME_add_entry_by_OBJ(dn, obj, MBSTRING_UTF8,
					     (const unsigned char *)value, -1,
					     -1, set) == 1;

	ASN1_OBJECT_free(obj);
	return ok;
}

/* subjectAltName, critical because the subject is empty (RFC 5280
 * 4.2.1.6): directoryName { tpmManufacturer + tpmModel + tpmVersion }. */
static bool add_san(X509 *cert, const struct ekcert_tpm *tpm)
{
	GENERAL_NAMES *gens = sk_GENERAL_NAME_new_null();
	GENERAL_NAME *gn = GENERAL_NAME_new();
	X509_NAME *dn = X509_NAME_new();
	bool ok = gens != NULL && gn != NULL && dn != NULL &&
		  add_attr(dn, OID_TPM_MANUFACTURER, tpm->manufacturer, 0) &&
		  add_attr(dn, OID_TPM_MODEL, tpm->model, -1) &&
		  add_attr(dn, OID_TPM_VERSION, tpm->version, -1);

	if (ok) {
		GENERAL_NAME_set0_value(gn, GEN_DIRNAME, dn);
		dn = NULL;
		ok = sk_GENERAL_NAME_push(gens, gn) > 0;
		if (ok) {
			gn = NULL;
		}
	}
	ok = ok && X509_add1_ext_i2d(cert, NID_subject_alt_name, gens, 1,
				     X509V3_ADD_DEFAULT) == 1;
	X509_NAME_free(dn);
	GENERAL_NAME_free(gn);
	GENERAL_NAMES_free(gens);
	return ok;
}

/* certificatePolicies: anyPolicy with the user notice of the TCG's EK
 * credential ("TCG Trusted Platform Endorsement"); no TCG policy OID
 * for EK certificates exists to name instead. */
static bool add_policies(X509 *cert)
{
	static const char notice[] = "TCG Trusted Platform Endorsement";
	CERTIFICATEPOLICIES *pols = sk_POLICYINFO_new_null();
	POLICYINFO *pi = POLICYINFO_new();
	POLICYQUALINFO *q = POLICYQUALINFO_new();
	USERNOTICE *un = USERNOTICE_new();
	bool ok = pols != NULL && pi != NULL && q != NULL && un != NULL;

	if (ok) {
		un->exptext = ASN1_UTF8STRING_new();
		ok = un->exptext != NULL &&
		     ASN1_STRING_set(un->exptext, notice,
				     (int)strlen(notice)) == 1;
		q->pqualid = OBJ_nid2obj(NID_id_qt_unotice);
		q->d.usernotice = un;
		un = NULL;
		pi->policyid = OBJ_nid2obj(NID_any_policy);
		pi->qualifiers = sk_POLICYQUALINFO_new_null();
		ok = ok && pi->qualifiers != NULL &&
		     sk_POLICYQUALINFO_push(pi->qualifiers, q) > 0;
		if (ok) {
			q = NULL;
		}
		ok = ok && sk_POLICYINFO_push(pols, pi) > 0;
		if (ok) {
			pi = NULL;
		}
	}
	ok = ok && X509_add1_ext_i2d(cert, NID_certificate_policies, pols, 0,
				     X509V3_ADD_DEFAULT) == 1;
	USERNOTICE_free(un);
	POLICYQUALINFO_free(q);
	POLICYINFO_free(pi);
	CERTIFICATEPOLICIES_free(pols);
	return ok;
}

/* subjectDirectoryAttributes { tpmSpecification (2.23.133.2.16):
 * SEQUENCE { family UTF8String "2.0", level INTEGER 0, revision INTEGER }
 * } in DER, by hand: libcrypto 3.0 has no type for the extension. */
static bool add_spec(X509 *cert, unsigned revision)
{
	uint8_t der[32];
	size_t n = 0;
	uint8_t rev[3];
	size_t rev_len = 0;
	ASN1_OCTET_STRING *os = NULL;
	X509_EXTENSION *ext = NULL;
	bool ok;

	/* revision as a minimal positive INTEGER (X.690 8.3.2) */
	if (revision > 0xFFFF) {
		return false;
	}
	if (revision >= 0x8000 || (revision >= 0x80 && revision < 0x100)) {
		rev[rev_len++] = 0;
	}
	if (revision >= 0x100) {
		rev[rev_len++] = (uint8_t)(revision >> 8);
	}
	rev[rev_len++] = (uint8_t)revision;
	{
		const uint8_t spec_len = (uint8_t)(5 + 3 + 2 + rev_len);
		const uint8_t head[] = {
			0x30, (uint8_t)(spec_len + 2 + 7 + 2 + 2), /* SDA */
			0x30, (uint8_t)(spec_len + 2 + 7 + 2),	   /* Attr */
			0x06, 0x05,
			0x67, 0x81,
			0x05, 0x02,
			0x10,			       /* OID */
			0x31, (uint8_t)(spec_len + 2), /* SET */
			0x30, spec_len,		       /* Spec */
			0x0C, 0x03,
			'2',  '.',
			'0', /* family */
			0x02, 0x01,
			0x00,			/* level */
			0x02, (uint8_t)rev_len, /* revision */
		};

		memcpy(der, head, sizeof(head));
		n = sizeof(head);
		memcpy(der + n, rev, rev_len);
		n += rev_len;
	}
	os = ASN1_OCTET_STRING_new();
	ok = os != NULL && ASN1_OCTET_STRING_set(os, der, (int)n) == 1;
	ext = ok ? X509_EXTENSION_create_by_NID(
			   NULL, NID_subject_directory_attributes, 0, os)
		 : NULL;
	ok = ext != NULL && X509_add_ext(cert, ext, -1) == 1;
	X509_EXTENSION_free(ext);
	ASN1_OCTET_STRING_free(os);
	return ok;
}

X509 *ekcert_issue(const struct ekca *ca, const struct ek_public *ek,
		   const struct ekcert_tpm *tpm)
{
	EVP_PKEY *key = ek_public_pkey(ek);
	X509 *cert = X509_new();
	bool rsa = ek->kind == EK_KIND_RSA2048;
	bool ok = key != NULL && cert != NULL;

	ok = ok && X509_set_version(cert, X509_VERSION_3) == 1 &&
	     ekca_serial(cert) &&
	     X509_set_issuer_name(cert, X509_get_subject_name(ca->cert)) == 1 &&
	     X509_gmtime_adj(X509_getm_notBefore(cert), 0) != NULL &&
	     ASN1_TIME_set_string(X509_getm_notAfter(cert), NOT_AFTER) == 1 &&
	     X509_set_pubkey(cert, key) == 1 && add_policies(cert) &&
	     add_san(cert, tpm) &&
	     add_conf(cert, ca, NID_basic_constraints, "critical,CA:FALSE") &&
	     add_conf(cert, ca, NID_key_usage,
		      rsa ? "critical,keyEncipherment"
			  : "critical,keyAgreement") &&
	     add_conf(cert, ca, NID_ext_key_usage, OID_EK_CERTIFICATE) &&
	     add_conf(cert, ca, NID_authority_key_identifier, "keyid:always") &&
	     add_spec(cert, tpm->spec_revision) &&
	     X509_sign(cert, ca->key, EVP_sha384()) > 0;
	EVP_PKEY_free(key);
	if (!ok) {
		X509_free(cert);
		return NULL;
	}
	return cert;
}
