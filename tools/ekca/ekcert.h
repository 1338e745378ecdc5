/* SPDX-License-Identifier: MIT */
/*
 * An EK certificate per the TCG EK Credential Profile for TPM 2.0
 * (docs/vtpm.md, "EK certificates" lists each field and why).
 */
#ifndef TOOLS_EKCA_EKCERT_H
#define TOOLS_EKCA_EKCERT_H

#include <openssl/x509.h>

#include "ca.h"
#include "ek_public.h"

/* The TPM the certificate names (subjectAltName's directoryName and the
 * TPMSpecification attribute): the relying party's knowledge of the
 * vTPM, by default libtpms' as csvsm runs it. */
struct ekcert_tpm {
	const char *manufacturer; /* "id:" and 8 hex digits */
	const char *model;
	const char *version;	/* "id:" and 8 hex digits */
	unsigned spec_revision; /* TPM_PT_REVISION, e.g. 164 for 1.64 */
};

void ekcert_tpm_default(struct ekcert_tpm *t);

/** Issue @ek's certificate under @ca; NULL if libcrypto failed. */
X509 *ekcert_issue(const struct ekca *ca, const struct ek_public *ek,
		   const struct ekcert_tpm *tpm);

#endif /* TOOLS_EKCA_EKCERT_H */
