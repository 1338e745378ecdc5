/* SPDX-License-Identifier: MIT */
/*
 * csvsm-verify: check an SEV-SNP attestation report from csvsm (or any
 * SNP guest) the way a relying party must:
 *   ARK self-signed -> ASK signed by ARK -> VCEK signed by ASK
 *   -> report signed by VCEK, VCEK bound to the report's chip and TCB
 *   -> with --nonce and --manifest: REPORT_DATA = SHA-512(nonce || manifest),
 *      the manifest a services table unless --single-service
 *   -> with --measurement: MEASUREMENT equals the expected launch digest
 *   -> with --ledger FILE (and --nonce, --manifest): the manifest's vTPM
 *      state entry judged against the newest state FILE knows for this
 *      CHIP_ID and MEASUREMENT (ledger.h), FILE updated when it is not a
 *      rollback or a fork.
 * The VCEK comes from --vcek, or from the host's certificate table
 * (--certs; with both, --vcek only if the table has no VCEK): the table
 * is hostile and only its chain makes its VCEK trusted.
 * Outputs only from a report that verified whole: --vcek-out, the
 * table's VCEK; --service ID --out FILE, that service's manifest entry,
 * so a caller never takes bytes from a manifest the report did not bind.
 * Exit status 0 only if every check passed (and the ledger's verdict is
 * new or ok); 1 if one failed (named on stderr); 2 for unusable
 * arguments or input files; 3 a rollback, 4 a fork, 5 a restart from
 * scratch (docs/vtpm.md, "Rollback evidence"); 6 the verified manifest
 * has no entry for --service.
 */
#include <getopt.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/file_io.h"
#include "../common/hex.h"
#include "ledger.h"
#include "verify.h"

#define EXIT_ROLLBACK 3
#define EXIT_FORK 4
#define EXIT_RESTART 5
#define EXIT_NO_SERVICE 6
#define LEDGER_FILE_MAX (16u << 20)

struct check {
	const char *name;
	bool ok;
	const char *what;
};

#define MAX_CHECKS 16

struct run {
	struct check check[MAX_CHECKS];
	unsigned count;
	bool json;
	bool vcek_from_table;
};

static bool check(struct run *r, const char *name, bool ok, const char *what)
{
	if (r->count < MAX_CHECKS) {
		r->check[r->count++] = (struct check){name, ok, what};
	}
	return ok;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: csvsm-verify --report FILE (--vcek FILE | --certs FILE"
		" [--vcek FILE])\n"
		"                    --chain FILE [--vcek-out FILE]\n"
		"                    [--nonce HEX --manifest FILE"
		" [--single-service]]\n"
		"                    [--service GUID|vtpm|vtpm-state --out "
		"FILE]\n"
		"                    [--measurement HEX] [--ledger FILE]"
		" [--json]\n"
		"  --report  the 1184-byte report, raw or as hex text\n"
		"  --vcek    the VCEK certificate, DER or PEM\n"
		"  --certs   the host's certificate table (GHCB spec 4.1.8.1):"
		" its VCEK;\n"
		"            with --vcek too, that one if the table has none\n"
		"  --vcek-out  the table's VCEK (DER), once the report"
		" verified\n"
		"  --service   with --out, that service's manifest entry once"
		" the report\n"
		"            verified; exit 6 if the manifest has none\n"
		"  --chain   ASK then ARK, PEM (as AMD's KDS serves them)\n"
		"  --single-service  the manifest is one service's"
		" (ATTEST_SINGLE_SERVICE)\n"
		"  --ledger  the newest vTPM state seen per CHIP_ID and"
		" MEASUREMENT; exit 3\n"
		"            rollback, 4 fork, 5 restart from scratch\n");
}

static void guid_print(FILE *f, const uint8_t *g)
{
	fprintf(f, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-", g[3], g[2],
		g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9]);
	hex_print(f, g + 10, 6);
}

struct inputs {
	uint8_t report[SNP_REPORT_SIZE];
	X509 *vcek, *ask, *ark;
	uint8_t nonce[4096];
	size_t nonce_len;
	bool have_nonce;
	uint8_t *manifest;
	size_t manifest_len;
	uint8_t measurement[SNP_MEASUREMENT_LEN];
	bool have_measurement;
	bool single; /* the manifest is one service's, not a GUID table */
};

/* verify_emit for the run's table of checks. */
static void record(void *ctx, const char *name, bool ok, const char *what)
{
	(void)check(ctx, name, ok, what);
}

static void verify_all(struct run *r, struct inputs *in,
		       const struct report_fields *f, struct manifest *m)
{
	verify_signed_report(in->ark, in->ask, in->vcek, in->report, f, record,
			     r);
	if (in->manifest != NULL && !in->single) {
		const char *why =
			manifest_parse(in->manifest, in->manifest_len, m);

		check(r, "manifest-format", why == NULL,
		      why != NULL ? why : "the services manifest parses");
	}
	if (in->have_nonce) {
		check(r, "report-data",
		      verify_report_data(in->nonce, in->nonce_len, in->manifest,
					 in->manifest_len, f),
		      "REPORT_DATA equals SHA-512(nonce || manifest)");
	}
	if (in->have_measurement) {
		check(r, "measurement",
		      memcmp(in->measurement, f->measurement,
			     SNP_MEASUREMENT_LEN) == 0,
		      "MEASUREMENT equals the expected launch digest");
	}
}

static void print_text(const struct run *r, const struct report_fields *f,
		       const struct manifest *m, bool have_manifest)
{
	static const uint8_t state_guid[16] = CSVSM_VTPM_STATE_GUID;
	unsigned i;

	printf("report: version %u, VMPL %u, guest SVN %u, policy 0x%016llx\n",
	       f->version, f->vmpl, f->guest_svn,
	       (unsigned long long)f->policy);
	printf("  reported TCB 0x%016llx, current TCB 0x%016llx, platform info "
	       "0x%llx\n",
	       (unsigned long long)f->reported_tcb,
	       (unsigned long long)f->current_tcb,
	       (unsigned long long)f->platform_info);
	printf("  measurement ");
	hex_print(stdout, f->measurement, SNP_MEASUREMENT_LEN);
	printf("\n  report data ");
	hex_print(stdout, f->report_data, SNP_REPORT_DATA_LEN);
	printf("\n  chip id     ");
	hex_print(stdout, f->chip_id, SNP_CHIP_ID_LEN);
	printf("\n");
	printf("vcek: %s\n", r->vcek_from_table ? "the certificate table's"
						: "the --vcek file");
	if (have_manifest && m->count <= MANIFEST_MAX_ENTRIES) {
		printf("manifest: %u service(s)\n", m->count);
		for (i = 0; i < m->count; i++) {
			const char *name =
				manifest_service_name(m->entry[i].guid);

			struct state_evidence ev;

			printf("  ");
			guid_print(stdout, m->entry[i].guid);
			printf(" %s, %u bytes", name ? name : "unknown service",
			       m->entry[i].len);
			/* Which state the vTPM runs, as the entry says (the
			 * ledger, if asked for, judges it below). */
			if (memcmp(m->entry[i].guid, state_guid, 16) == 0 &&
			    state_entry_parse(m->entry[i].data, m->entry[i].len,
					      &ev) == NULL) {
				printf(": %s, generation %llu loaded, %llu "
				       "current",
				       state_outcome_name(ev.outcome),
				       (unsigned long long)ev.loaded_generation,
				       (unsigned long long)
					       ev.current_generation);
			}
			printf("\n");
		}
	}
	for (i = 0; i < r->count; i++) {
		printf("%s %-20s %s\n", r->check[i].ok ? "PASS" : "FAIL",
		       r->check[i].name, r->check[i].what);
	}
}

static void print_json(const struct run *r, const struct report_fields *f,
		       const struct manifest *m, bool have_manifest, bool all)
{
	unsigned i;

	printf("{\"verified\": %s, \"checks\": [", all ? "true" : "false");
	for (i = 0; i < r->count; i++) {
		printf("%s{\"name\": \"%s\", \"ok\": %s}", i ? ", " : "",
		       r->check[i].name, r->check[i].ok ? "true" : "false");
	}
	printf("], \"report\": {\"version\": %u, \"vmpl\": %u, \"guest_svn\": "
	       "%u, \"policy\": %llu, \"reported_tcb\": %llu, "
	       "\"measurement\": \"",
	       f->version, f->vmpl, f->guest_svn, (unsigned long long)f->policy,
	       (unsigned long long)f->reported_tcb);
	hex_print(stdout, f->measurement, SNP_MEASUREMENT_LEN);
	printf("\", \"report_data\": \"");
	hex_print(stdout, f->report_data, SNP_REPORT_DATA_LEN);
	printf("\", \"chip_id\": \"");
	hex_print(stdout, f->chip_id, SNP_CHIP_ID_LEN);
	printf("\"}, \"vcek\": \"%s\"",
	       r->vcek_from_table ? "certificate-table" : "file");
	if (have_manifest) {
		printf(", \"services\": [");
		for (i = 0; i < m->count; i++) {
			printf("%s{\"guid\": \"", i ? ", " : "");
			guid_print(stdout, m->entry[i].guid);
			printf("\", \"length\": %u}", m->entry[i].len);
		}
		printf("]");
	}
	printf("}\n");
}

static int input_error(const char *what, const char *path);

/* Write @len bytes to @path whole or not at all: a temporary file
 * renamed over it. */
static bool write_atomically(const char *path, const char *buf, size_t len)
{
	char tmp[4096];
	int n = snprintf(tmp, sizeof(tmp), "%s.tmp", path);

	if (n < 0 || (size_t)n >= sizeof(tmp) ||
	    tool_write_file(tmp, (const uint8_t *)buf, len) != 0) {
		return false;
	}
	return rename(tmp, path) == 0;
}

/* The manifest's vTPM state judged against the ledger at @path (a file
 * that does not exist is an empty ledger); the exit status. */
static int ledger_step(const char *path, const struct report_fields *f,
		       const struct manifest *m)
{
	static const uint8_t state_guid[16] = CSVSM_VTPM_STATE_GUID;
	static const uint8_t vtpm_guid[16] = SVSM_VTPM_SERVICE_GUID;
	static struct ledger l;
	static char text[LEDGER_FILE_MAX];
	struct state_evidence ev;
	struct ledger_rec next, *known;
	enum ledger_verdict v;
	const char *why = "the manifest has no vTPM state entry";
	uint8_t *raw = NULL;
	size_t len = 0;
	unsigned i;
	FILE *probe;

	for (i = 0; i < m->count; i++) {
		if (memcmp(m->entry[i].guid, state_guid, 16) == 0) {
			why = state_entry_parse(m->entry[i].data,
						m->entry[i].len, &ev);
			break;
		}
	}
	if (why != NULL) {
		fprintf(stderr, "csvsm-verify: FAILED vtpm-state: %s\n", why);
		return 1;
	}
	for (i = 0; i < m->count; i++) {
		if (memcmp(m->entry[i].guid, vtpm_guid, 16) == 0 &&
		    m->entry[i].data != NULL) {
			state_evidence_ek(&ev, m->entry[i].data,
					  m->entry[i].len);
		}
	}
	probe = fopen(path, "rb");
	if (probe != NULL) {
		fclose(probe);
		raw = tool_read_file(path, LEDGER_FILE_MAX, &len);
		if (raw == NULL) {
			return input_error("cannot read the ledger", path);
		}
	}
	why = ledger_parse(raw, len, &l);
	free(raw);
	if (why != NULL) {
		fprintf(stderr, "csvsm-verify: ledger %s: %s\n", path, why);
		return 2;
	}
	known = ledger_find(&l, f->chip_id, f->measurement);
	v = ledger_judge(known, &ev, &next);
	printf("vtpm state: %s, generation %llu loaded, %llu current, %llu "
	       "write(s)%s%s\n",
	       state_outcome_name(ev.outcome),
	       (unsigned long long)ev.loaded_generation,
	       (unsigned long long)ev.current_generation,
	       (unsigned long long)ev.writes,
	       (ev.flags & CSVSM_VTPM_STATE_F_PERSISTENT) ? ", kept"
							  : ", not kept",
	       (ev.flags & CSVSM_VTPM_STATE_F_WRITE_FAILED) ? ", a write failed"
							    : "");
	printf("ledger: %s (known generation %llu)\n", ledger_verdict_name(v),
	       known != NULL ? (unsigned long long)known->generation : 0ull);
	if (v == LEDGER_NEW || v == LEDGER_OK || v == LEDGER_RESTART) {
		if (known == NULL) {
			if (l.count == LEDGER_MAX_RECS) {
				return input_error("the ledger is full", path);
			}
			known = &l.rec[l.count++];
			memcpy(next.chip_id, f->chip_id, SNP_CHIP_ID_LEN);
			memcpy(next.measurement, f->measurement,
			       SNP_MEASUREMENT_LEN);
		} else {
			memcpy(next.chip_id, known->chip_id, SNP_CHIP_ID_LEN);
			memcpy(next.measurement, known->measurement,
			       SNP_MEASUREMENT_LEN);
		}
		*known = next;
		len = ledger_format(&l, text, sizeof(text));
		if (len == 0 || !write_atomically(path, text, len)) {
			return input_error("cannot write the ledger", path);
		}
	}
	switch (v) {
	case LEDGER_ROLLBACK:
		fprintf(stderr,
			"csvsm-verify: ROLLBACK: the vTPM started from "
			"generation %llu, older than %llu seen before\n",
			(unsigned long long)(ev.outcome == CSVSM_VTPM_STATE_OK
						     ? ev.loaded_generation
						     : ev.current_generation),
			(unsigned long long)next.generation);
		return EXIT_ROLLBACK;
	case LEDGER_FORK:
		fprintf(stderr,
			"csvsm-verify: FORK: generation %llu seen "
			"before with other contents\n",
			(unsigned long long)next.generation);
		return EXIT_FORK;
	case LEDGER_RESTART:
		fprintf(stderr,
			"csvsm-verify: RESTART: the vTPM is not the TPM "
			"seen before (%s%s)\n",
			state_outcome_name(ev.outcome),
			ev.outcome == CSVSM_VTPM_STATE_OK ? ", another EK"
							  : "");
		return EXIT_RESTART;
	default:
		return 0;
	}
}

static int input_error(const char *what, const char *path)
{
	fprintf(stderr, "csvsm-verify: %s: %s\n", what, path);
	return 2;
}

/* The VCEK: the table's at @certs if it has one, else the file @vcek;
 * 0 or the exit status. A malformed table is an input error even with
 * --vcek: the host that sent it is lying, not short of a VCEK. */
static int vcek_choose(const char *certs, const char *vcek, struct inputs *in,
		       struct run *r)
{
	const char *why = NULL;

	if (certs != NULL) {
		switch (cert_table_vcek(certs, &in->vcek, &why)) {
		case TABLE_VCEK_FOUND:
			r->vcek_from_table = true;
			return 0;
		case TABLE_VCEK_ABSENT:
			if (vcek == NULL) {
				return input_error(why, certs);
			}
			break;
		default:
			return input_error(why, certs);
		}
	}
	in->vcek = cert_load(vcek);
	if (in->vcek == NULL) {
		return input_error("not an X.509 certificate", vcek);
	}
	return 0;
}

/* --vcek-out: the table's VCEK as DER. */
static bool vcek_write(const char *path, X509 *vcek)
{
	unsigned char *der = NULL;
	int n = i2d_X509(vcek, &der);
	bool ok = n > 0 && write_atomically(path, (const char *)der, (size_t)n);

	OPENSSL_free(der);
	return ok;
}

/* --service: @guid's entry of the verified manifest @m to @path; the
 * exit status. */
static int service_write(const char *path, const uint8_t guid[16],
			 const struct manifest *m)
{
	static const char empty[1]; /* an entry of length 0 has no data */
	const struct manifest_entry *e = manifest_find(m, guid);

	if (e == NULL) {
		fprintf(stderr, "csvsm-verify: the manifest has no entry for "
				"the service ");
		guid_print(stderr, guid);
		fprintf(stderr, "\n");
		return EXIT_NO_SERVICE;
	}
	if (!write_atomically(path,
			      e->data != NULL ? (const char *)e->data : empty,
			      e->len)) {
		return input_error("cannot write", path);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"report", required_argument, NULL, 'r'},
		{"vcek", required_argument, NULL, 'v'},
		{"chain", required_argument, NULL, 'c'},
		{"nonce", required_argument, NULL, 'n'},
		{"manifest", required_argument, NULL, 'm'},
		{"measurement", required_argument, NULL, 'M'},
		{"json", no_argument, NULL, 'j'},
		{"single-service", no_argument, NULL, 's'},
		{"ledger", required_argument, NULL, 'l'},
		{"certs", required_argument, NULL, 'C'},
		{"vcek-out", required_argument, NULL, 'V'},
		{"service", required_argument, NULL, 'S'},
		{"out", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *report_path = NULL, *vcek_path = NULL, *chain_path = NULL;
	const char *nonce_hex = NULL, *manifest_path = NULL, *meas_hex = NULL;
	const char *ledger_path = NULL, *certs_path = NULL;
	const char *vcek_out = NULL, *service = NULL, *out_path = NULL;
	uint8_t service_guid[16];
	int status = 0;
	static struct inputs in;
	static struct manifest m;
	struct report_fields f;
	struct run r = {.count = 0};
	uint8_t *raw;
	size_t len;
	bool all = true;
	unsigned i;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			report_path = optarg;
			break;
		case 'v':
			vcek_path = optarg;
			break;
		case 'c':
			chain_path = optarg;
			break;
		case 'n':
			nonce_hex = optarg;
			break;
		case 'm':
			manifest_path = optarg;
			break;
		case 'M':
			meas_hex = optarg;
			break;
		case 'j':
			r.json = true;
			break;
		case 's':
			in.single = true;
			break;
		case 'l':
			ledger_path = optarg;
			break;
		case 'C':
			certs_path = optarg;
			break;
		case 'V':
			vcek_out = optarg;
			break;
		case 'S':
			service = optarg;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return 2;
		}
	}
	if (optind != argc || report_path == NULL ||
	    (vcek_path == NULL && certs_path == NULL) || chain_path == NULL ||
	    (nonce_hex == NULL) != (manifest_path == NULL) ||
	    (ledger_path != NULL && (manifest_path == NULL || in.single)) ||
	    (vcek_out != NULL && certs_path == NULL) ||
	    (service == NULL) != (out_path == NULL) ||
	    (service != NULL && (manifest_path == NULL || in.single))) {
		usage();
		return 2;
	}
	if (service != NULL && !manifest_service_guid(service, service_guid)) {
		return input_error("not a service GUID (or vtpm, vtpm-state)",
				   service);
	}
	raw = tool_read_file(report_path, (size_t)64 * 1024, &len);
	if (raw == NULL || !report_parse(raw, len, in.report)) {
		free(raw);
		return input_error("not a 1184-byte report (raw or hex)",
				   report_path);
	}
	free(raw);
	status = vcek_choose(certs_path, vcek_path, &in, &r);
	if (status != 0) {
		return status;
	}
	if (!chain_load(chain_path, &in.ask, &in.ark)) {
		return input_error("not a PEM chain of two certificates (ASK, "
				   "ARK)",
				   chain_path);
	}
	if (nonce_hex != NULL) {
		if (!hex_parse(nonce_hex, in.nonce, sizeof(in.nonce),
			       &in.nonce_len)) {
			return input_error("not a hex nonce", nonce_hex);
		}
		in.have_nonce = true;
		in.manifest = tool_read_file(manifest_path, 1u << 20,
					     &in.manifest_len);
		if (in.manifest == NULL) {
			return input_error("cannot read", manifest_path);
		}
	}
	if (meas_hex != NULL) {
		size_t n;

		if (!hex_parse(meas_hex, in.measurement, sizeof(in.measurement),
			       &n) ||
		    n != SNP_MEASUREMENT_LEN) {
			return input_error("not a 48-byte hex measurement",
					   meas_hex);
		}
		in.have_measurement = true;
	}

	report_decode(in.report, &f);
	verify_all(&r, &in, &f, &m);
	for (i = 0; i < r.count; i++) {
		all = all && r.check[i].ok;
	}
	if (r.json) {
		print_json(&r, &f, &m, in.manifest != NULL && !in.single, all);
	} else {
		print_text(&r, &f, &m, in.manifest != NULL && !in.single);
	}
	for (i = 0; i < r.count; i++) {
		if (!r.check[i].ok) {
			fprintf(stderr,
				"csvsm-verify: FAILED %s: expected %s\n",
				r.check[i].name, r.check[i].what);
		}
	}
	if (all) {
		fprintf(stderr, "csvsm-verify: all %u checks passed\n",
			r.count);
	}
	status = all ? 0 : 1;
	/* The ledger learns only from a report that verified whole. */
	if (all && ledger_path != NULL) {
		status = ledger_step(ledger_path, &f, &m);
	}
	/* Outputs from a verified report only, and a ledger that agrees. */
	if (status == 0 && vcek_out != NULL && r.vcek_from_table &&
	    !vcek_write(vcek_out, in.vcek)) {
		status = input_error("cannot write", vcek_out);
	}
	if (status == 0 && service != NULL) {
		status = service_write(out_path, service_guid, &m);
	}
	X509_free(in.vcek);
	X509_free(in.ask);
	X509_free(in.ark);
	free(in.manifest);
	return status;
}
