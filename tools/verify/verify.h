/* SPDX-License-Identifier: MIT */
/*
 * csvsm-verify: what a relying party runs on an SVSM attestation report.
 * Every input (report, certificates, manifest) is untrusted: parsers check
 * every length against the bytes present and report a failed check rather
 * than trusting a field.
 */
#ifndef VERIFY_H
#define VERIFY_H

#include <openssl/x509.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/svsm_attest.h"

/* The decoded fields of an attestation report (56860 Table 23). */
struct report_fields {
	uint32_t version;
	uint32_t guest_svn;
	uint64_t policy;
	uint32_t vmpl;
	uint32_t sig_algo;
	uint64_t current_tcb;
	uint64_t platform_info;
	uint32_t flags;
	uint64_t reported_tcb;
	const uint8_t *report_data; /* 64 bytes, into the report */
	const uint8_t *measurement; /* 48 */
	const uint8_t *host_data;   /* 32 */
	const uint8_t *report_id;   /* 32 */
	const uint8_t *chip_id;	    /* 64 */
};

/** Decode @report (exactly SNP_REPORT_SIZE bytes). */
void report_decode(const uint8_t *report, struct report_fields *f);

/**
 * Parse a report file: raw (exactly 1184 bytes) or hex text (whitespace
 * allowed, 2368 digits). False if it is neither.
 */
bool report_parse(const uint8_t *in, size_t len, uint8_t out[SNP_REPORT_SIZE]);

/** The signature's reserved bytes after S (0x330-0x49F) are zero. */
bool report_unsigned_zero(const uint8_t *report);

/** ECDSA P-384/SHA-384 over bytes 0x000-0x29F with the VCEK's key. */
bool report_signature_ok(const uint8_t *report, EVP_PKEY *vcek_key);

/* One entry of a services manifest, pointing into the parsed buffer. */
struct manifest_entry {
	uint8_t guid[16];
	const uint8_t *data;
	uint32_t len;
};

#define MANIFEST_MAX_ENTRIES 64u

struct manifest {
	uint32_t count;
	struct manifest_entry entry[MANIFEST_MAX_ENTRIES];
};

/**
 * Parse a services manifest (SPEC Table 12). NULL on success, otherwise
 * what is wrong with it.
 */
const char *manifest_parse(const uint8_t *buf, size_t len, struct manifest *m);
/** A service's name for a GUID, or NULL if csvsm does not know it. */
const char *manifest_service_name(const uint8_t guid[16]);
/** The entry for @guid in a parsed manifest, or NULL. */
const struct manifest_entry *manifest_find(const struct manifest *m,
					   const uint8_t guid[16]);
/**
 * A service's GUID from text: "vtpm", "vtpm-state" or the canonical
 * xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (stored in GUID byte order, as
 * the manifest holds it). False if it is none of these.
 */
bool manifest_service_guid(const char *text, uint8_t guid[16]);

/* One certificate of an extended guest request's table. */
struct cert_entry {
	uint8_t guid[16];
	const uint8_t *data; /* into the parsed buffer, never NULL */
	uint32_t len;	     /* never 0 */
};

#define CERT_TABLE_MAX_ENTRIES 64u

struct cert_table {
	uint32_t count;
	struct cert_entry entry[CERT_TABLE_MAX_ENTRIES];
};

/**
 * Parse a certificate table (GHCB spec 56421 4.1.8.1). NULL on success,
 * otherwise what is wrong with it.
 */
const char *cert_table_parse(const uint8_t *buf, size_t len,
			     struct cert_table *t);
/** The certificate for @guid in a parsed table, or NULL. */
const struct cert_entry *cert_table_find(const struct cert_table *t,
					 const uint8_t guid[16]);

/* The VCEK's binding to the chip and TCB (AMD VCEK specification). */
struct vcek_ids {
	bool has_hwid;
	uint8_t hwid[SNP_CHIP_ID_LEN];
	bool has_tcb;
	uint64_t tcb; /* in reported_tcb's byte layout */
};

/** Read the hwID and SPL extensions; false if one is malformed. */
bool vcek_read_ids(X509 *vcek, struct vcek_ids *ids);

/** Load one certificate, DER or PEM. */
X509 *cert_load(const char *path);
/* The most bytes a certificate table file may hold: csvsm hands on at
 * most SVSM_ATTEST_MAX_CERTS_SIZE, a host's own table is a few pages. */
#define CERT_TABLE_FILE_MAX (1u << 20)

enum table_vcek {
	TABLE_VCEK_FOUND,  /**< *vcek is the table's VCEK */
	TABLE_VCEK_ABSENT, /**< the table is well formed and has none */
	TABLE_VCEK_BAD,	   /**< unreadable or malformed: *why says how */
};

/** The VCEK (SNP_CERT_GUID_VCEK) out of the certificate table at @path. */
enum table_vcek cert_table_vcek(const char *path, X509 **vcek,
				const char **why);
/** Load a PEM chain: ASK then ARK. */
bool chain_load(const char *path, X509 **ask, X509 **ark);

/*
 * The checks of a report's signature, in the order they are run
 * (verify_checks.c): the one list csvsm-verify prints and csvsm-ekca
 * refuses by, so the two relying parties cannot drift apart. @emit gets
 * each check's name, whether it held, and what it expects; a check
 * whose input is missing (a VCEK without hwID or TCB) is not emitted.
 */
typedef void (*verify_emit)(void *ctx, const char *name, bool ok,
			    const char *what);
void verify_signed_report(X509 *ark, X509 *ask, X509 *vcek,
			  const uint8_t *report, const struct report_fields *f,
			  verify_emit emit, void *ctx);
/** REPORT_DATA = SHA-512(@nonce || @manifest) (the services' binding). */
bool verify_report_data(const uint8_t *nonce, size_t nonce_len,
			const uint8_t *manifest, size_t manifest_len,
			const struct report_fields *f);

#endif /* VERIFY_H */
