/* SPDX-License-Identifier: MIT */
/*
 * The relying party's EK certificate authority: an ECDSA P-384 key and
 * its self-signed certificate in a directory (ca.key, mode 0600, and
 * ca.pem), made on first use and loaded afterwards. Whoever reads ca.key
 * can issue EK certificates: the directory is the relying party's
 * secret, never the guest's or the host's.
 */
#ifndef TOOLS_EKCA_CA_H
#define TOOLS_EKCA_CA_H

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <stdbool.h>

struct ekca {
	EVP_PKEY *key;
	X509 *cert;
	bool created; /* made by this call */
};

/**
 * Load the CA in @dir, or make it there if neither file exists. NULL on
 * success, else why not (one file without the other, a key that is not
 * the certificate's, an unwritable directory).
 */
const char *ekca_open(const char *dir, struct ekca *ca);
void ekca_close(struct ekca *ca);

/** A random positive 16-byte serial into @cert (RFC 5280 4.1.2.2: at
 * most 20 bytes, unique per issuer). */
bool ekca_serial(X509 *cert);

#endif /* TOOLS_EKCA_CA_H */
