/* SPDX-License-Identifier: MIT */
/*
 * Certificates: loading the VCEK (DER or PEM) and the ASK/ARK chain, and
 * reading the VCEK's chip binding. AMD's VCEK carries the chip id as an
 * extension 1.3.6.1.4.1.3704.1.4 (hwID, the 64 raw bytes as its value) and the
 * TCB it was made for as INTEGERs in 1.3.6.1.4.1.3704.1.3.{1,2,3,8} (boot
 * loader, TEE, SNP, microcode SPL). AMD's VCEK has serial number 0, which
 * RFC 5280 forbids; OpenSSL parses it, and nothing here checks serials.
 */
#include <limits.h>
#include <openssl/asn1.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/file_io.h"
#include "verify.h"

/* Exactly one DER certificate: trailing bytes make it none. */
static X509 *cert_from_der(const uint8_t *der, size_t len)
{
	const unsigned char *p = der;
	X509 *x;

	if (len > (size_t)LONG_MAX) {
		return NULL;
	}
	x = d2i_X509(NULL, &p, (long)len);
	if (x != NULL && p != der + len) {
		X509_free(x);
		x = NULL;
	}
	return x;
}

X509 *cert_load(const char *path)
{
	size_t len;
	uint8_t *buf = tool_read_file(path, 1u << 20, &len);
	X509 *x = NULL;

	if (buf == NULL) {
		return NULL;
	}
	if (len > 0 && buf[0] == 0x30) {
		x = cert_from_der(buf, len);
	} else {
		BIO *bio = BIO_new_mem_buf(buf, (int)len);

		if (bio != NULL) {
			x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
			BIO_free(bio);
		}
	}
	free(buf);
	return x;
}

enum table_vcek cert_table_vcek(const char *path, X509 **vcek, const char **why)
{
	static const uint8_t vcek_guid[16] = SNP_CERT_GUID_VCEK;
	static struct cert_table t;
	const struct cert_entry *e;
	size_t len;
	uint8_t *buf = tool_read_file(path, CERT_TABLE_FILE_MAX, &len);
	enum table_vcek r = TABLE_VCEK_BAD;

	*vcek = NULL;
	*why = "cannot read the certificate table";
	if (buf == NULL) {
		return r;
	}
	*why = cert_table_parse(buf, len, &t);
	if (*why == NULL) {
		e = cert_table_find(&t, vcek_guid);
		if (e == NULL) {
			r = TABLE_VCEK_ABSENT;
			*why = "the certificate table has no VCEK";
		} else {
			*vcek = cert_from_der(e->data, e->len);
			r = *vcek != NULL ? TABLE_VCEK_FOUND : TABLE_VCEK_BAD;
			*why = *vcek != NULL
				       ? NULL
				       : "the table's VCEK is not one DER "
					 "certificate";
		}
	}
	free(buf);
	return r;
}

bool chain_load(const char *path, X509 **ask, X509 **ark)
{
	BIO *bio = BIO_new_file(path, "r");
	X509 *extra;

	*ask = *ark = NULL;
	if (bio == NULL) {
		return false;
	}
	*ask = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	*ark = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	extra = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	BIO_free(bio);
	if (*ask == NULL || *ark == NULL || extra != NULL) {
		X509_free(*ask);
		X509_free(*ark);
		X509_free(extra);
		*ask = *ark = NULL;
		return false;
	}
	return true;
}

/* The DER value of extension @oid, or NULL if absent (*dup: twice). */
static const ASN1_OCTET_STRING *ext_value(X509 *x, const char *oid, bool *dup)
{
	ASN1_OBJECT *obj = OBJ_txt2obj(oid, 1);
	int idx;
	const ASN1_OCTET_STRING *v = NULL;

	if (obj == NULL) {
		return NULL;
	}
	idx = X509_get_ext_by_OBJ(x, obj, -1);
	if (idx >= 0) {
		v = X509_EXTENSION_get_data(X509_get_ext(x, idx));
		if (X509_get_ext_by_OBJ(x, obj, idx) >= 0) {
			*dup = true;
		}
	}
	ASN1_OBJECT_free(obj);
	return v;
}

/* An SPL extension: a DER INTEGER 0..255. */
static bool read_spl(X509 *x, const char *oid, uint8_t *out, bool *present,
		     bool *dup)
{
	const ASN1_OCTET_STRING *v = ext_value(x, oid, dup);
	const unsigned char *p;
	ASN1_INTEGER *i;
	long val;

	if (v == NULL) {
		*present = false;
		return true;
	}
	p = ASN1_STRING_get0_data(v);
	i = d2i_ASN1_INTEGER(NULL, &p, ASN1_STRING_length(v));
	if (i == NULL) {
		return false;
	}
	val = ASN1_INTEGER_get(i);
	ASN1_INTEGER_free(i);
	if (val < 0 || val > 255) {
		return false;
	}
	*out = (uint8_t)val;
	return true;
}

bool vcek_read_ids(X509 *vcek, struct vcek_ids *ids)
{
	/* reported_tcb bytes: 0 boot loader, 1 TEE, 6 SNP, 7 microcode. */
	static const struct {
		const char *oid;
		unsigned byte;
	} spl[] = {
		{"1.3.6.1.4.1.3704.1.3.1", 0},
		{"1.3.6.1.4.1.3704.1.3.2", 1},
		{"1.3.6.1.4.1.3704.1.3.3", 6},
		{"1.3.6.1.4.1.3704.1.3.8", 7},
	};
	const ASN1_OCTET_STRING *hw;
	bool dup = false;
	unsigned present = 0;
	size_t i;

	memset(ids, 0, sizeof(*ids));
	hw = ext_value(vcek, "1.3.6.1.4.1.3704.1.4", &dup);
	if (hw != NULL) {
		/* AMD puts the 64 bytes themselves in the extension value. */
		if (ASN1_STRING_length(hw) != SNP_CHIP_ID_LEN) {
			return false;
		}
		memcpy(ids->hwid, ASN1_STRING_get0_data(hw), SNP_CHIP_ID_LEN);
		ids->has_hwid = true;
	}
	for (i = 0; i < sizeof(spl) / sizeof(spl[0]); i++) {
		uint8_t v = 0;
		bool here = true;

		if (!read_spl(vcek, spl[i].oid, &v, &here, &dup)) {
			return false;
		}
		if (here) {
			present++;
			ids->tcb |= (uint64_t)v << (8 * spl[i].byte);
		}
	}
	/* All four or none: a partial TCB cannot be compared. */
	if (dup || (present != 0 && present != 4)) {
		return false;
	}
	ids->has_tcb = present == 4;
	return true;
}
