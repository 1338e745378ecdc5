/* SPDX-License-Identifier: MIT */
/*
 * csvsm-ekca: a relying party's EK certificate authority. It verifies an
 * SVSM attestation report (evidence.h: chain, signature, VMPL 0, no
 * DEBUG, the trusted MEASUREMENT, REPORT_DATA binding its nonce and the
 * services manifest), takes the endorsement keys that manifest binds
 * (the vTPM entry's RSA 2048 EK, csvsm's ECC P-256 EK entry), checks
 * each is the TCG template's, and issues their certificates under the CA
 * in --ca (made on first use). With --ek-public, each key the guest
 * claims must be one the report binds. docs/vtpm.md, "EK certificates".
 * Exit status: 0 issued; 1 the evidence does not verify; 2 unusable
 * arguments or input files; 3 no EK to certify, or a claimed EK the
 * report does not bind; 4 the CA or libcrypto failed. Every refusal is
 * one line on stderr.
 */
#include <getopt.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/csvsm_ek.h"

#include "../common/file_io.h"
#include "../common/hex.h"
#include "ca.h"
#include "ek_public.h"
#include "ekcert.h"
#include "evidence.h"

enum { EXIT_REFUSED = 1, EXIT_USAGE = 2, EXIT_NO_EK = 3, EXIT_CA = 4 };

#define MAX_CLAIMS 2
#define FILE_MAX ((size_t)1 << 20)

struct opts {
	const char *ca_dir, *out_dir;
	const char *report, *vcek, *chain, *nonce, *manifest, *measurement;
	const char *claim[MAX_CLAIMS];
	unsigned claims;
	bool single;
	struct ekcert_tpm tpm;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: csvsm-ekca --ca DIR --out DIR --report FILE --vcek FILE"
		" --chain FILE\n"
		"                  --nonce HEX --manifest FILE"
		" [--single-service] --measurement HEX\n"
		"                  [--ek-public FILE]... [--tpm-manufacturer"
		" id:HEX8]\n"
		"                  [--tpm-model TEXT] [--tpm-version id:HEX8]"
		" [--tpm-spec-revision N]\n"
		"  --ca DIR     the CA (ca.key, ca.pem), made on first use\n"
		"  --out DIR    writes ek-rsa2048.der, ek-ecc-p256.der\n"
		"  --ek-public  an EK the guest claims (TPM2B_ or TPMT_PUBLIC):"
		" must be bound\n"
		"exit: 0 issued, 1 evidence refused, 2 usage, 3 no or wrong EK,"
		" 4 CA failed\n");
}

static int refuse(int status, const char *what, const char *why)
{
	fprintf(stderr, "csvsm-ekca: refused: %s: %s\n", what, why);
	return status;
}

static bool parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{"ca", required_argument, NULL, 'a'},
		{"out", required_argument, NULL, 'o'},
		{"report", required_argument, NULL, 'r'},
		{"vcek", required_argument, NULL, 'v'},
		{"chain", required_argument, NULL, 'c'},
		{"nonce", required_argument, NULL, 'n'},
		{"manifest", required_argument, NULL, 'm'},
		{"measurement", required_argument, NULL, 'M'},
		{"single-service", no_argument, NULL, 's'},
		{"ek-public", required_argument, NULL, 'e'},
		{"tpm-manufacturer", required_argument, NULL, 'F'},
		{"tpm-model", required_argument, NULL, 'D'},
		{"tpm-version", required_argument, NULL, 'V'},
		{"tpm-spec-revision", required_argument, NULL, 'R'},
		{NULL, 0, NULL, 0},
	};
	char *end = NULL;
	unsigned long rev;
	int c;

	ekcert_tpm_default(&o->tpm);
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->ca_dir = optarg;
			break;
		case 'o':
			o->out_dir = optarg;
			break;
		case 'r':
			o->report = optarg;
			break;
		case 'v':
			o->vcek = optarg;
			break;
		case 'c':
			o->chain = optarg;
			break;
		case 'n':
			o->nonce = optarg;
			break;
		case 'm':
			o->manifest = optarg;
			break;
		case 'M':
			o->measurement = optarg;
			break;
		case 's':
			o->single = true;
			break;
		case 'e':
			if (o->claims == MAX_CLAIMS) {
				return false;
			}
			o->claim[o->claims++] = optarg;
			break;
		case 'F':
			o->tpm.manufacturer = optarg;
			break;
		case 'D':
			o->tpm.model = optarg;
			break;
		case 'V':
			o->tpm.version = optarg;
			break;
		case 'R':
			rev = strtoul(optarg, &end, 10);
			if (end == optarg || *end != '\0' || rev > 0xFFFF) {
				return false;
			}
			o->tpm.spec_revision = (unsigned)rev;
			break;
		default:
			return false;
		}
	}
	return optind == argc && o->ca_dir != NULL && o->out_dir != NULL &&
	       o->report != NULL && o->vcek != NULL && o->chain != NULL &&
	       o->nonce != NULL && o->manifest != NULL &&
	       o->measurement != NULL;
}

/* Everything the evidence needs, read; 0 or EXIT_USAGE with its line. */
static int load_evidence(const struct opts *o, struct evidence *ev,
			 uint8_t *nonce, size_t nonce_cap, uint8_t **manifest)
{
	uint8_t *raw;
	size_t len = 0, n = 0;

	raw = tool_read_file(o->report, (size_t)64 * 1024, &len);
	if (raw == NULL || !report_parse(raw, len, ev->report)) {
		free(raw);
		return refuse(EXIT_USAGE, o->report,
			      "not a 1184-byte report (raw or hex)");
	}
	free(raw);
	ev->vcek = cert_load(o->vcek);
	if (ev->vcek == NULL) {
		return refuse(EXIT_USAGE, o->vcek, "not an X.509 certificate");
	}
	if (!chain_load(o->chain, &ev->ask, &ev->ark)) {
		return refuse(EXIT_USAGE, o->chain,
			      "not a PEM chain of two certificates (ASK, ARK)");
	}
	if (!hex_parse(o->nonce, nonce, nonce_cap, &ev->nonce_len) ||
	    ev->nonce_len == 0) {
		return refuse(EXIT_USAGE, "--nonce", "not a hex nonce");
	}
	ev->nonce = nonce;
	if (!hex_parse(o->measurement, ev->measurement, sizeof(ev->measurement),
		       &n) ||
	    n != SNP_MEASUREMENT_LEN) {
		return refuse(EXIT_USAGE, "--measurement",
			      "not a 48-byte hex MEASUREMENT");
	}
	*manifest = tool_read_file(o->manifest, FILE_MAX, &ev->manifest_len);
	if (*manifest == NULL) {
		return refuse(EXIT_USAGE, o->manifest, "cannot read it");
	}
	ev->manifest = *manifest;
	ev->single = o->single;
	return 0;
}

/* The EKs the verified manifest binds, at most one of each kind. */
static int bound_eks(const struct manifest *m, struct ek_public *ek, bool *have)
{
	static const uint8_t vtpm_guid[16] = SVSM_VTPM_SERVICE_GUID;
	static const uint8_t ecc_guid[16] = CSVSM_VTPM_EK_ECC_GUID;
	uint32_t i;

	for (i = 0; i < m->count; i++) {
		const struct manifest_entry *e = &m->entry[i];
		bool is_vtpm = memcmp(e->guid, vtpm_guid, 16) == 0;
		struct ek_public k;
		const char *why;

		if (!is_vtpm && memcmp(e->guid, ecc_guid, 16) != 0) {
			continue; /* another service's entry */
		}
		why = e->data != NULL
			      ? ek_public_parse(e->data, e->len, false, &k)
			      : "the entry is empty";
		if (why != NULL) {
			return refuse(EXIT_NO_EK,
				      is_vtpm ? "the manifest's vTPM entry"
					      : "the manifest's ECC EK entry",
				      why);
		}
		if (!is_vtpm && k.kind != EK_KIND_ECC_P256) {
			return refuse(EXIT_NO_EK, "the manifest's ECC EK entry",
				      "not an ECC P-256 EK");
		}
		if (have[k.kind]) {
			return refuse(EXIT_NO_EK, "the manifest",
				      "two EKs of one kind");
		}
		ek[k.kind] = k;
		have[k.kind] = true;
	}
	if (!have[EK_KIND_RSA2048] && !have[EK_KIND_ECC_P256]) {
		return refuse(EXIT_NO_EK, "the manifest", "it binds no EK");
	}
	return 0;
}

/* Each key the guest claims must be the bound EK of its kind. */
static int check_claims(const struct opts *o, const struct ek_public *ek,
			const bool *have)
{
	unsigned i;

	for (i = 0; i < o->claims; i++) {
		size_t len = 0;
		uint8_t *raw = tool_read_file(o->claim[i], FILE_MAX, &len);
		struct ek_public k;
		const char *why;
		int status = 0;

		if (raw == NULL) {
			return refuse(EXIT_USAGE, o->claim[i],
				      "cannot read it");
		}
		why = ek_public_parse(raw, len, true, &k);
		if (why != NULL) {
			status = refuse(EXIT_NO_EK, o->claim[i], why);
		} else if (!have[k.kind] || !ek_public_equal(&k, &ek[k.kind])) {
			status = refuse(EXIT_NO_EK, o->claim[i],
					"not the EK the verified report binds");
		}
		free(raw);
		if (status != 0) {
			return status;
		}
	}
	return 0;
}

static int issue(const struct opts *o, const struct ek_public *ek,
		 const bool *have)
{
	struct ekca ca;
	const char *why = ekca_open(o->ca_dir, &ca);
	int status = 0;
	int kind;

	if (why != NULL) {
		return refuse(EXIT_CA, o->ca_dir, why);
	}
	if (ca.created) {
		printf("csvsm-ekca: made the CA in %s (ca.pem, ca.key)\n",
		       o->ca_dir);
	}
	for (kind = 0; kind < EK_KINDS && status == 0; kind++) {
		char path[4096];
		X509 *cert;
		uint8_t *der = NULL;
		int n;

		if (!have[kind]) {
			continue;
		}
		cert = ekcert_issue(&ca, &ek[kind], &o->tpm);
		n = cert != NULL ? i2d_X509(cert, &der) : -1;
		if (n <= 0 ||
		    snprintf(path, sizeof(path), "%s/ek-%s.der", o->out_dir,
			     ek_kind_name((enum ek_kind)kind)) >=
			    (int)sizeof(path) ||
		    tool_write_file(path, der, (size_t)n) != 0) {
			status = refuse(
				EXIT_CA, ek_kind_name((enum ek_kind)kind),
				"cannot issue or write the certificate");
		} else {
			printf("csvsm-ekca: issued the %s EK's certificate: %s"
			       " (%d bytes)\n",
			       ek_kind_name((enum ek_kind)kind), path, n);
		}
		OPENSSL_free(der);
		X509_free(cert);
	}
	ekca_close(&ca);
	return status;
}

int main(int argc, char **argv)
{
	static struct evidence ev;
	static struct manifest m;
	static uint8_t nonce[4096];
	struct ek_public ek[EK_KINDS];
	bool have[EK_KINDS] = {false, false};
	struct evidence_failure fail = {NULL, NULL};
	struct opts o;
	uint8_t *manifest = NULL;
	int status;

	memset(&o, 0, sizeof(o));
	memset(ek, 0, sizeof(ek));
	if (!parse_args(argc, argv, &o)) {
		usage();
		return EXIT_USAGE;
	}
	status = load_evidence(&o, &ev, nonce, sizeof(nonce), &manifest);
	if (status == 0 && !evidence_verify(&ev, &m, &fail)) {
		fprintf(stderr,
			"csvsm-ekca: refused: the evidence does not verify: "
			"%s: expected %s\n",
			fail.check, fail.expected);
		status = EXIT_REFUSED;
	}
	if (status == 0) {
		status = bound_eks(&m, ek, have);
	}
	if (status == 0) {
		status = check_claims(&o, ek, have);
	}
	if (status == 0) {
		status = issue(&o, ek, have);
	}
	X509_free(ev.vcek);
	X509_free(ev.ask);
	X509_free(ev.ark);
	free(manifest);
	return status;
}
