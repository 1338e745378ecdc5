/* SPDX-License-Identifier: MIT */
/*
 * The EK certificate authority's key and certificate (ca.h). The key is
 * written with O_EXCL and mode 0600 first, the certificate after it: two
 * runs racing to create the CA cannot both succeed, and a half-made CA
 * (a key without a certificate) is refused rather than replaced.
 */
#include "ca.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/ec.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define CA_YEARS 20L

static bool path_join(char *out, size_t cap, const char *dir, const char *f)
{
	int n = snprintf(out, cap, "%s/%s", dir, f);

	return n > 0 && (size_t)n < cap;
}

static bool add_ext(X509 *cert, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	bool ok;

	X509V3_set_ctx(&ctx, cert, cert, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	ok = ext != NULL && X509_add_ext(cert, ext, -1) == 1;
	X509_EXTENSION_free(ext);
	return ok;
}

bool ekca_serial(X509 *cert)
{
	uint8_t raw[16];
	BIGNUM *bn = NULL;
	bool ok;

	ok = RAND_bytes(raw, sizeof(raw)) == 1;
	raw[0] = (uint8_t)((raw[0] & 0x7F) | 0x40); /* positive, 16 bytes */
	bn = ok ? BN_bin2bn(raw, sizeof(raw), NULL) : NULL;
	ok = bn != NULL &&
	     BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert)) != NULL;
	BN_free(bn);
	return ok;
}

static X509 *make_cert(EVP_PKEY *key)
{
	X509 *cert = X509_new();
	X509_NAME *name = X509_NAME_new();
	bool ok = cert != NULL && name != NULL;

	ok = ok && X509_set_version(cert, X509_VERSION_3) == 1 &&
	     ekca_serial(cert) &&
	     X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8,
					(const uint8_t *)"csvsm relying party",
					-1, -1, 0) == 1 &&
	     X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
					(const uint8_t *)"csvsm vTPM EK CA", -1,
					-1, 0) == 1 &&
	     X509_set_subject_name(cert, name) == 1 &&
	     X509_set_issuer_name(cert, name) == 1 &&
	     X509_gmtime_adj(X509_getm_notBefore(cert), 0) != NULL &&
	     X509_time_adj_ex(X509_getm_notAfter(cert), (int)(CA_YEARS * 365),
			      0, NULL) != NULL &&
	     X509_set_pubkey(cert, key) == 1 &&
	     add_ext(cert, NID_basic_constraints,
		     "critical,CA:TRUE,pathlen:0") &&
	     add_ext(cert, NID_key_usage, "critical,keyCertSign,cRLSign") &&
	     add_ext(cert, NID_subject_key_identifier, "hash") &&
	     X509_sign(cert, key, EVP_sha384()) > 0;
	X509_NAME_free(name);
	if (!ok) {
		X509_free(cert);
		return NULL;
	}
	return cert;
}

static const char *create(const char *key_path, const char *cert_path,
			  struct ekca *ca)
{
	FILE *f;
	int fd;
	bool ok;

	ca->key = EVP_EC_gen("P-384");
	ca->cert = ca->key != NULL ? make_cert(ca->key) : NULL;
	if (ca->cert == NULL) {
		return "libcrypto could not make the CA's key and certificate";
	}
	fd = open(key_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		return errno == EEXIST ? "ca.key appeared while making it"
				       : "cannot create ca.key";
	}
	f = fdopen(fd, "w");
	ok = f != NULL &&
	     PEM_write_PrivateKey(f, ca->key, NULL, NULL, 0, NULL, NULL) == 1;
	if (f != NULL) {
		ok = fclose(f) == 0 && ok;
	} else {
		close(fd);
	}
	if (!ok) {
		return "cannot write ca.key";
	}
	f = fopen(cert_path, "wx");
	ok = f != NULL && PEM_write_X509(f, ca->cert) == 1;
	if (f != NULL) {
		ok = fclose(f) == 0 && ok;
	}
	if (!ok) {
		return "cannot write ca.pem";
	}
	ca->created = true;
	return NULL;
}

static const char *load(const char *key_path, const char *cert_path,
			struct ekca *ca)
{
	FILE *f = fopen(key_path, "r");

	if (f == NULL) {
		return "ca.key is missing beside ca.pem";
	}
	ca->key = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	f = fopen(cert_path, "r");
	if (f == NULL) {
		return "ca.pem is missing beside ca.key";
	}
	ca->cert = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	if (ca->key == NULL || ca->cert == NULL) {
		return "ca.key or ca.pem cannot be read";
	}
	if (X509_check_private_key(ca->cert, ca->key) != 1) {
		return "ca.key is not the key of ca.pem";
	}
	return NULL;
}

const char *ekca_open(const char *dir, struct ekca *ca)
{
	char key_path[4096], cert_path[4096];
	struct stat st;
	const char *why;

	*ca = (struct ekca){0};
	if (!path_join(key_path, sizeof(key_path), dir, "ca.key") ||
	    !path_join(cert_path, sizeof(cert_path), dir, "ca.pem")) {
		return "the CA directory's name is too long";
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		return "cannot make the CA directory";
	}
	if (stat(key_path, &st) != 0 && stat(cert_path, &st) != 0) {
		why = create(key_path, cert_path, ca);
	} else {
		why = load(key_path, cert_path, ca);
	}
	if (why != NULL) {
		ekca_close(ca);
	}
	return why;
}

void ekca_close(struct ekca *ca)
{
	EVP_PKEY_free(ca->key);
	X509_free(ca->cert);
	*ca = (struct ekca){0};
}
