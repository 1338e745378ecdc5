/* SPDX-License-Identifier: MIT */
/*
 * The attestation protocol (protocol 1) as Linux calls it, against the
 * emulated PSP. Truths: the layouts of 58019 section 7 and the firmware
 * ABI (spec notes 4 and 10); OpenSSL for SHA-512 and for the report's
 * ECDSA signature under the VCEK certificate the build made
 * (build/pki/vcek.der); the certificate table of the GHCB spec.
 */
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <string.h>

#include "svsm/guest_msg.h"
#include "svsm/mem.h"
#include "svsm/terminate.h"
#include "svsm/vtpm.h"

#include "abi/csvsm_ek.h"
#include "abi/csvsm_vtpm_state.h"
#include "abi/svsm_attest.h"

#include "model/psp_model.h"

#include "../framework/test.h"
#include "guest.h"

#define BUFS 0x2000000ull	 /* 24 KiB of outputs, page aligned */
#define NONCE (BUFS + 0x6010ull) /* not page aligned, as kmalloc's */
#define ATTEST(call) SVSM_CALL(SVSM_PROTOCOL_ATTEST, (call))

static const uint8_t vtpm_guid[16] = SVSM_VTPM_SERVICE_GUID;
static const uint8_t state_guid[16] = CSVSM_VTPM_STATE_GUID;
static const uint8_t ecc_guid[16] = CSVSM_VTPM_EK_ECC_GUID;

static struct sim_machine *attest_machine(bool vtpm)
{
	struct sim_config cfg;
	struct sim_machine *m;

	sim_config_default(&cfg);
	cfg.vtpm = vtpm;
	m = tm_create(&cfg);
	g_pvalidate_range(m, 0, BUFS, 0x8000, true);
	return m;
}

static void nonce_fill(uint8_t nonce[64], uint8_t seed)
{
	unsigned i;

	for (i = 0; i < 64; i++) {
		nonce[i] = (uint8_t)(seed + 7 * i);
	}
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

/* OpenSSL's verdict on the report, with the VCEK the build certified. */
static bool report_verifies(const uint8_t *rep)
{
	FILE *f = fopen("build/pki/vcek.der", "rb");
	X509 *x = f != NULL ? d2i_X509_fp(f, NULL) : NULL;
	ECDSA_SIG *sig = ECDSA_SIG_new();
	unsigned char *der = NULL;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int len;
	bool ok;

	if (f != NULL) {
		fclose(f);
	}
	ECDSA_SIG_set0(sig, BN_lebin2bn(rep + 0x2A0, 72, NULL),
		       BN_lebin2bn(rep + 0x2E8, 72, NULL));
	len = i2d_ECDSA_SIG(sig, &der);
	ok = x != NULL && len > 0 &&
	     EVP_DigestVerifyInit(ctx, NULL, EVP_sha384(), NULL,
				  X509_get0_pubkey(x)) == 1 &&
	     EVP_DigestVerify(ctx, der, (size_t)len, rep, 0x2A0) == 1;
	OPENSSL_free(der);
	EVP_MD_CTX_free(ctx);
	ECDSA_SIG_free(sig);
	X509_free(x);
	return ok;
}

static bool binds(const uint8_t *rep, const uint8_t nonce[64],
		  const uint8_t *manifest, size_t len)
{
	uint8_t md[64];
	uint8_t buf[64 + 4096];

	if (len > 4096) {
		return false;
	}
	memcpy(buf, nonce, 64);
	memcpy(buf + 64, manifest, len);
	SHA512(buf, 64 + len, md);
	return memcmp(md, rep + 0x50, 64) == 0;
}

TEST(attest, services_report_verifies_and_binds)
{
	struct sim_machine *m = attest_machine(true);
	static struct sim_attest_result a;
	uint8_t nonce[64];
	size_t ek_len = 0, ecc_len = 0;
	const uint8_t *ek, *ecc;
	const uint8_t *e;

	nonce_fill(nonce, 1);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
		  SIM_OK);
	ASSERT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_EQ(a.calls, 1);
	EXPECT_EQ(a.report_len, 0x4A0);
	EXPECT_EQ(rd32(a.report + 0x30), 0); /* the SVSM's VMPL0 report */
	EXPECT_TRUE(rd32(a.report) >= 2);
	EXPECT_EQ(rd32(a.report + 0x34), 1); /* ECDSA P-384 SHA-384 */
	EXPECT_TRUE(report_verifies(a.report));
	EXPECT_TRUE(binds(a.report, nonce, a.manifest, a.manifest_len));
	/* Manifest: header GUID, size, three entries: the vTPM's (the EK's
	 * public), csvsm's vTPM state (0xA0 bytes, no device here) and
	 * csvsm's ECC EK (its public), the data in that order after the
	 * table (24 + 3 * 24 = 96 bytes). */
	ek = vtpm_ek_public(&ek_len);
	ASSERT_TRUE(ek != NULL);
	ecc = vtpm_ek_ecc_public(&ecc_len);
	ASSERT_TRUE(ecc != NULL);
	EXPECT_EQ(a.manifest_len, 96 + ek_len + 0xA0 + ecc_len);
	EXPECT_EQ(rd32(a.manifest + 16), a.manifest_len);
	EXPECT_EQ(rd32(a.manifest + 20), 3);
	e = a.manifest + 24;
	EXPECT_EQ(memcmp(e, vtpm_guid, 16), 0);
	EXPECT_EQ(rd32(e + 16), 96);
	EXPECT_EQ(rd32(e + 20), ek_len);
	EXPECT_EQ(memcmp(a.manifest + 96, ek, ek_len), 0);
	e = a.manifest + 48;
	EXPECT_EQ(memcmp(e, state_guid, 16), 0);
	EXPECT_EQ(rd32(e + 16), 96 + ek_len);
	EXPECT_EQ(rd32(e + 20), 0xA0);
	/* Version 1, outcome NO_STORAGE (0x100), flags 0. */
	EXPECT_EQ(rd32(a.manifest + 96 + ek_len), 1);
	EXPECT_EQ(rd32(a.manifest + 96 + ek_len + 4), 0x100);
	EXPECT_EQ(rd32(a.manifest + 96 + ek_len + 8), 0);
	e = a.manifest + 72;
	EXPECT_EQ(memcmp(e, ecc_guid, 16), 0);
	EXPECT_EQ(rd32(e + 16), 96 + ek_len + 0xA0);
	EXPECT_EQ(rd32(e + 20), ecc_len);
	EXPECT_EQ(memcmp(a.manifest + 96 + ek_len + 0xA0, ecc, ecc_len), 0);
	/* The ECC EK is the TCG's L-2: an ECC (0x0023) key. */
	EXPECT_EQ(ecc[0], 0x00);
	EXPECT_EQ(ecc[1], 0x23);
	/* Changing one report byte breaks the signature (the check is
	 * real); a different nonce does not bind. */
	a.report[0x90] ^= 1;
	EXPECT_FALSE(report_verifies(a.report));
	nonce[0] ^= 1;
	EXPECT_FALSE(binds(a.report, nonce, a.manifest, a.manifest_len));
}

TEST(attest, certificates_are_the_hosts_table)
{
	struct sim_machine *m = attest_machine(false);
	static struct sim_attest_result a;
	static const uint8_t vcek_guid[16] = SNP_CERT_GUID_VCEK;
	FILE *f = fopen("build/pki/vcek.der", "rb");
	static uint8_t der[4096];
	size_t der_len;
	uint8_t nonce[64];

	ASSERT_TRUE(f != NULL);
	der_len = fread(der, 1, sizeof(der), f);
	fclose(f);
	nonce_fill(nonce, 2);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
		  SIM_OK);
	ASSERT_EQ(a.result, SVSM_SUCCESS);
	/* Page multiple (the host's page count x 4096), VCEK entry first. */
	EXPECT_TRUE(a.certs_len != 0 && a.certs_len % 4096 == 0);
	EXPECT_EQ(memcmp(a.certs, vcek_guid, 16), 0);
	ASSERT_TRUE(rd32(a.certs + 16) + rd32(a.certs + 20) <= a.certs_len);
	EXPECT_EQ(rd32(a.certs + 20), der_len);
	EXPECT_EQ(memcmp(a.certs + rd32(a.certs + 16), der, der_len), 0);
	/* No services run: the manifest is the bare header. */
	EXPECT_EQ(a.manifest_len, 24);
	EXPECT_EQ(rd32(a.manifest + 20), 0);
	/* Without a certificates buffer: a normal report, RDX = 0. */
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	EXPECT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_EQ(a.certs_len, 0);
	EXPECT_TRUE(report_verifies(a.report));
}

TEST(attest, single_service_vtpm_manifest_is_the_ek)
{
	struct sim_machine *m = attest_machine(true);
	static struct sim_attest_result a;
	static const uint8_t unknown[16] = {1, 2, 3};
	uint8_t nonce[64];
	size_t ek_len = 0;
	const uint8_t *ek = vtpm_ek_public(&ek_len);

	nonce_fill(nonce, 3);
	ASSERT_EQ(sim_attest(m, 0, vtpm_guid, nonce, NONCE, BUFS, false, &a),
		  SIM_OK);
	ASSERT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_EQ(a.manifest_len, ek_len);
	EXPECT_EQ(memcmp(a.manifest, ek, ek_len), 0);
	EXPECT_TRUE(binds(a.report, nonce, ek, ek_len));
	EXPECT_TRUE(report_verifies(a.report));
	ASSERT_EQ(sim_attest(m, 0, unknown, nonce, NONCE, BUFS, false, &a),
		  SIM_OK);
	EXPECT_EQ(a.result, SVSM_ERR_UNSUPPORTED_PROTOCOL);
}

TEST(attest, sequence_numbers_advance_by_two)
{
	struct sim_machine *m = attest_machine(false);
	static struct sim_attest_result a;
	uint8_t nonce[64];
	unsigned i;

	nonce_fill(nonce, 4);
	for (i = 1; i <= 3; i++) {
		ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a),
			  SIM_OK);
		EXPECT_EQ(a.result, SVSM_SUCCESS);
		/* Requests 1, 3, 5: the PSP saw each number once. */
		EXPECT_EQ(sim_psp_last_seqno(m), 2 * i);
	}
	EXPECT_EQ(sim_psp_reports(m), 3);
}

/* Write a raw request into the CA buffer and call. */
static uint32_t raw_call(struct sim_machine *m, uint32_t call,
			 const struct svsm_attest_req *req, struct sim_regs *r)
{
	uint64_t caa = sim_current_caa_gpa(m, 0);

	ASSERT_EQ(sim_mem_write(m, caa + 8, req, sizeof(*req)), SIM_OK);
	return g_call(m, 0, ATTEST(call), caa + 8, ~0ull, ~0ull, r);
}

static void good_request(struct svsm_attest_req *req)
{
	memset(req, 0, sizeof(*req));
	req->manifest.pa = BUFS;
	req->manifest.len = 0x1000;
	req->certificates.pa = BUFS + 0x1000;
	req->certificates.len = 0x4000;
	req->report.pa = BUFS + 0x5000;
	req->report.len = 0x1000;
	req->nonce_pa = NONCE;
	req->nonce_len = 64;
}

TEST(attest, hostile_requests_get_their_codes)
{
	struct sim_machine *m = attest_machine(false);
	uint64_t svsm = sim_svsm_base(m);
	uint64_t caa = sim_current_caa_gpa(m, 0);
	struct svsm_attest_req req;
	struct sim_regs r;
	uint32_t reports;

	good_request(&req);
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_SUCCESS);
	reports = sim_psp_reports(m);
	/* Reserved bytes, nonce size, a nonce across a page. */
	good_request(&req);
	req.rsvd1[0] = 1;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	good_request(&req);
	req.report.rsvd[3] = 1;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	good_request(&req);
	req.nonce_len = 32;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	good_request(&req);
	req.nonce_pa = BUFS + 0x6FF0;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	/* Misaligned buffers. */
	good_request(&req);
	req.report.pa += 8;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	good_request(&req);
	req.manifest.pa += 0x800;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	good_request(&req);
	req.certificates.pa += 0x10;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	/* Outputs in SVSM memory, over the CA's control bytes, the nonce
	 * in SVSM memory, past the end of RAM. */
	good_request(&req);
	req.report.pa = svsm;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_ADDRESS);
	good_request(&req);
	req.manifest.pa = svsm + 0x3000;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_ADDRESS);
	good_request(&req);
	req.certificates.pa = caa;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_ADDRESS);
	good_request(&req);
	req.nonce_pa = svsm + 0x10;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_ADDRESS);
	good_request(&req);
	req.report.pa = 0xFFFFFFFFFFFFF000ull;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_ADDRESS);
	/* The request itself over the CA's control bytes, misaligned, or in
	 * SVSM memory. */
	EXPECT_EQ(g_call(m, 0, ATTEST(0), caa, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, ATTEST(0), caa + 12, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(g_call(m, 0, ATTEST(0), svsm + 8, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, ATTEST(2), caa + 8, 0, 0, NULL),
		  SVSM_ERR_UNSUPPORTED_CALL);
	/* None of these cost a report. */
	EXPECT_EQ(sim_psp_reports(m), reports);
	/* A manifest version other than 0. */
	good_request(&req);
	memcpy(req.service_guid, vtpm_guid, 16);
	req.manifest_version = 1;
	EXPECT_EQ(raw_call(m, 1, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	check_invariants(m);
}

TEST(attest, small_buffers_report_sizes_absurd_ones_are_fine)
{
	struct sim_machine *m = attest_machine(true);
	struct svsm_attest_req req;
	struct sim_regs r;
	uint8_t before[16], after[16];

	/* Too small: INVALID_PARAMETER with all three sizes, nothing
	 * written (the report buffer keeps its bytes). */
	good_request(&req);
	req.report.len = 0x100;
	ASSERT_EQ(sim_mem_read(m, req.report.pa, before, 16), SIM_OK);
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(r.r8, 0x4A0);
	EXPECT_TRUE(r.rcx > 48 && r.rcx < 0x1000);
	EXPECT_TRUE(r.rdx != 0 && r.rdx % 0x1000 == 0);
	ASSERT_EQ(sim_mem_read(m, req.report.pa, after, 16), SIM_OK);
	EXPECT_EQ(memcmp(before, after, 16), 0);
	good_request(&req);
	req.manifest.len = 16;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	good_request(&req);
	req.certificates.len = 0x1000;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_ERR_INVALID_PARAMETER);
	EXPECT_TRUE(r.rdx > 0x1000);
	/* Absurd lengths (4 GiB - 1): only what the SVSM writes must be
	 * guest memory, here the last validated page. */
	good_request(&req);
	req.report.pa = BUFS + 0x7000; /* the last validated page */
	req.report.len = 0xFFFFFFFFu;
	EXPECT_EQ(raw_call(m, 0, &req, &r), SVSM_SUCCESS);
	check_invariants(m);
}

TEST(attest, linux_retries_with_reported_sizes)
{
	struct sim_machine *m = attest_machine(false);
	static struct sim_attest_result a;
	uint8_t nonce[64];

	/* The host's certificates need 8 pages: the SVSM reports 32 KiB,
	 * Linux's three retries stay refused; no certificate is copied. */
	sim_hv_set_behaviour(m, SIM_HV_GREQ_CERTS_TOO_BIG);
	nonce_fill(nonce, 5);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
		  SIM_OK);
	EXPECT_EQ(a.result, SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(a.certs_len, 8 * 4096);
	/* Each refused attempt still used its number for a report. */
	EXPECT_TRUE(sim_psp_last_seqno(m) >= 2);
	sim_hv_set_behaviour(m, SIM_HV_HONEST);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
		  SIM_OK);
	EXPECT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_TRUE(report_verifies(a.report));
}

/* One attestation with a misbehaving PSP or hypervisor. */
static struct sim_machine *faulty(int psp_fault, enum sim_hv_behaviour hv,
				  struct sim_attest_result *a)
{
	struct sim_machine *m = attest_machine(false);
	uint8_t nonce[64];

	static uint8_t marker[0x6000];

	/* Marked outputs: a failed call must leave them as they were. */
	memset(marker, 0xAA, sizeof(marker));
	ASSERT_EQ(sim_mem_write(m, BUFS, marker, sizeof(marker)), SIM_OK);
	nonce_fill(nonce, 6);
	sim_psp_set_fault(m, psp_fault);
	sim_hv_set_behaviour(m, hv);
	memset(a, 0, sizeof(*a));
	(void)sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, a);
	return m;
}

static bool terminated_tampered(struct sim_machine *m)
{
	uint32_t set = 0, code = 0;

	return sim_terminated(m, &set, &code) && set == TERM_SET_CSVSM &&
	       code == TERM_CSVSM_GUEST_MSG_TAMPERED;
}

TEST(attest, bad_tag_terminates)
{
	static struct sim_attest_result a;

	EXPECT_TRUE(terminated_tampered(
		faulty(PSP_FAULT_BAD_TAG, SIM_HV_HONEST, &a)));
}

TEST(attest, wrong_sequence_number_terminates)
{
	static struct sim_attest_result a;

	EXPECT_TRUE(terminated_tampered(
		faulty(PSP_FAULT_WRONG_SEQNO, SIM_HV_HONEST, &a)));
}

TEST(attest, wrong_message_type_terminates)
{
	static struct sim_attest_result a;

	EXPECT_TRUE(terminated_tampered(
		faulty(PSP_FAULT_WRONG_TYPE, SIM_HV_HONEST, &a)));
}

TEST(attest, corrupted_ciphertext_terminates)
{
	static struct sim_attest_result a;

	EXPECT_TRUE(terminated_tampered(
		faulty(PSP_HONEST, SIM_HV_GREQ_CORRUPT, &a)));
}

TEST(attest, replayed_response_terminates)
{
	static struct sim_attest_result a;
	struct sim_machine *m = faulty(PSP_HONEST, SIM_HV_GREQ_REPLAY, &a);
	uint8_t nonce[64];

	/* The first answer is genuine; its replay carries an old number. */
	EXPECT_EQ(a.result, SVSM_SUCCESS);
	nonce_fill(nonce, 7);
	(void)sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a);
	EXPECT_TRUE(terminated_tampered(m));
}

TEST(attest, truncated_report_is_an_error)
{
	static struct sim_attest_result a;
	struct sim_machine *m = faulty(PSP_FAULT_TRUNCATED, SIM_HV_HONEST, &a);
	uint8_t zero[64] = {0};
	uint8_t rep[16];
	uint8_t marked[16];

	/* Authenticated but short: an error, nothing handed on. */
	EXPECT_EQ(a.result, SVSM_ERR_INVALID_REQUEST);
	EXPECT_FALSE(sim_terminated(m, NULL, NULL));
	ASSERT_EQ(sim_mem_read(m, BUFS + 0x1000, rep, 16), SIM_OK);
	memset(marked, 0xAA, sizeof(marked));
	EXPECT_EQ(memcmp(rep, marked, 16), 0); /* not written */
	/* The channel still works: the number was used in order. */
	sim_psp_set_fault(m, PSP_HONEST);
	(void)sim_attest(m, 0, NULL, zero, NONCE, BUFS, true, &a);
	EXPECT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_EQ(sim_psp_last_seqno(m), 4);
}

TEST(attest, bad_status_is_an_error)
{
	static struct sim_attest_result a;
	struct sim_machine *m = faulty(PSP_FAULT_BAD_STATUS, SIM_HV_HONEST, &a);

	EXPECT_EQ(a.result, SVSM_ERR_INVALID_REQUEST);
	EXPECT_FALSE(sim_terminated(m, NULL, NULL));
}

/* Protocol 1 still offered (QUERY_PROTOCOL): VMPCK0 is kept. */
static bool attestation_offered(struct sim_machine *m)
{
	struct sim_regs r;

	return g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), (1ull << 32) | 1, 0,
		      0, &r) == SVSM_SUCCESS &&
	       r.rcx != 0;
}

static uint64_t guest_requests(const struct sim_machine *m)
{
	struct sim_stats st;

	sim_get_stats(m, &st);
	return st.guest_requests;
}

static uint64_t delays(const struct sim_machine *m)
{
	struct sim_stats st;

	sim_get_stats(m, &st);
	return st.delays;
}

/* Requests @from .. @to - 1 the host saw are byte for byte one page,
 * carrying sequence number @seqno. */
static bool same_request(const struct sim_machine *m, unsigned from,
			 unsigned to, uint64_t seqno)
{
	static uint8_t first[4096], page[4096];
	uint64_t s;
	unsigned i;

	if (!sim_hv_greq_seen(m, from, first)) {
		return false;
	}
	memcpy(&s, first + 0x20, 8);
	for (i = from + 1; i < to; i++) {
		if (!sim_hv_greq_seen(m, i, page) ||
		    memcmp(page, first, 4096) != 0) {
			return false;
		}
	}
	return s == seqno;
}

/*
 * Linux (drivers/virt/coco/sev-guest/sev-guest.c, __handle_guest_request)
 * resends a BUSY guest request identically every SNP_REQ_RETRY_DELAY
 * (2 s) for SNP_REQ_MAX_RETRY_DURATION (60 s). A host busy for 40 s
 * (20 answers) is served: the same sealed page each time, the key kept.
 * The sim's waits are simulated (plat_delay_ns): 20 of 2 s each.
 */
TEST(attest, busy_host_is_waited_for_with_the_same_message)
{
	struct sim_machine *m = attest_machine(false);
	static struct sim_attest_result a;
	uint64_t before = guest_requests(m);
	uint64_t waited = delays(m);
	uint8_t nonce[64];

	sim_hv_greq_busy_for(m, 20);
	nonce_fill(nonce, 8);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
		  SIM_OK);
	EXPECT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_TRUE(report_verifies(a.report));
	EXPECT_TRUE(binds(a.report, nonce, a.manifest, a.manifest_len));
	EXPECT_EQ(guest_requests(m), before + 21);
	EXPECT_EQ(delays(m), waited + 20);
	EXPECT_TRUE(
		same_request(m, (unsigned)before, (unsigned)before + 21, 1));
	EXPECT_EQ(sim_psp_last_seqno(m), 2);
	EXPECT_EQ(sim_psp_reports(m), 1);
	EXPECT_TRUE(attestation_offered(m));
	EXPECT_FALSE(sim_terminated(m, NULL, NULL));
}

/*
 * Busy past Linux's 60 s: 31 tries, 30 waits of 2 s, then a definite
 * error (not SVSM_ERR_BUSY, which Linux's SVSM call loop resends at
 * once, forever). The request may have reached the PSP, so it stays
 * pending and the key is kept; the next call resends it identically
 * first, then seals number 3: the sequence stays in step.
 */
TEST(attest, busy_past_the_bound_is_an_error_and_keeps_the_order)
{
	static struct sim_attest_result a;
	struct sim_machine *m = attest_machine(false);
	uint64_t before = guest_requests(m);
	uint64_t waited = delays(m);
	uint8_t nonce[64];

	sim_hv_set_behaviour(m, SIM_HV_GREQ_BUSY);
	nonce_fill(nonce, 8);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	EXPECT_EQ(a.result, SVSM_ERR_INVALID_REQUEST);
	EXPECT_FALSE(sim_terminated(m, NULL, NULL));
	EXPECT_EQ(guest_requests(m), before + 31);
	EXPECT_EQ(delays(m), waited + 30);
	EXPECT_TRUE(
		same_request(m, (unsigned)before, (unsigned)before + 31, 1));
	EXPECT_TRUE(attestation_offered(m));
	EXPECT_EQ(sim_psp_reports(m), 0);

	sim_hv_set_behaviour(m, SIM_HV_HONEST);
	nonce_fill(nonce, 9);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	EXPECT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_TRUE(binds(a.report, nonce, a.manifest, a.manifest_len));
	EXPECT_EQ(guest_requests(m), before + 33);
	/* The pending page again, then a new one with number 3. */
	EXPECT_TRUE(
		same_request(m, (unsigned)before, (unsigned)before + 32, 1));
	EXPECT_TRUE(same_request(m, (unsigned)before + 32,
				 (unsigned)before + 33, 3));
	EXPECT_EQ(sim_psp_last_seqno(m), 4);
	EXPECT_EQ(sim_psp_reports(m), 2);
}

/*
 * The hypervisor controls the TSC, the SVSM's clock: a clock it runs 10x
 * fast ends the waiting after 3 waits (60 s as the SVSM counts them), a
 * frozen one after 30 resends all the same. Either way only availability
 * is at stake: the same page, the key kept, the order kept.
 */
TEST(attest, lying_clock_bends_the_wait_not_the_order)
{
	static struct sim_attest_result a;
	struct sim_machine *m = attest_machine(false);
	uint64_t before = guest_requests(m);
	uint8_t nonce[64];

	nonce_fill(nonce, 13);
	sim_hv_set_behaviour(m, SIM_HV_GREQ_BUSY);
	sim_hv_set_clock_rate(m, 1000);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	EXPECT_EQ(a.result, SVSM_ERR_INVALID_REQUEST);
	EXPECT_EQ(guest_requests(m), before + 4);
	sim_hv_set_clock_rate(m, 0);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	EXPECT_EQ(a.result, SVSM_ERR_INVALID_REQUEST);
	EXPECT_EQ(guest_requests(m), before + 4 + 31);
	EXPECT_TRUE(
		same_request(m, (unsigned)before, (unsigned)before + 35, 1));
	EXPECT_TRUE(attestation_offered(m));
	sim_hv_set_behaviour(m, SIM_HV_HONEST);
	sim_hv_set_clock_rate(m, 100);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	EXPECT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_EQ(sim_psp_last_seqno(m), 4);
}

/*
 * An honest refusal (a firmware error in exit_info_2, not BUSY): the PSP
 * did not answer, so its counter did not move, but the SVSM cannot tell
 * that from a lie. Linux wipes its VMPCK (snp_disable_vmpck); the SVSM
 * keeps the request pending and resends it identically, which reuses no
 * IV, so the key stays and the next call works.
 */
TEST(attest, refusing_hypervisor_is_an_error_and_keeps_the_key)
{
	static struct sim_attest_result a;
	struct sim_machine *m = faulty(PSP_HONEST, SIM_HV_GREQ_REFUSE, &a);
	uint64_t before = guest_requests(m) - 1;
	uint8_t nonce[64];

	EXPECT_EQ(a.result, SVSM_ERR_INVALID_REQUEST);
	EXPECT_FALSE(sim_terminated(m, NULL, NULL));
	EXPECT_TRUE(attestation_offered(m));
	sim_hv_set_behaviour(m, SIM_HV_HONEST);
	nonce_fill(nonce, 10);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	EXPECT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_TRUE(binds(a.report, nonce, a.manifest, a.manifest_len));
	EXPECT_TRUE(same_request(m, (unsigned)before, (unsigned)before + 2, 1));
	EXPECT_EQ(sim_psp_last_seqno(m), 4);
}

static void *heap_hog;

/* SVSM code: take every free pair of pages (a list through them). */
static void hog_heap(void *arg)
{
	void *p;

	(void)arg;
	while ((p = page_alloc(1)) != NULL) {
		*(void **)p = heap_hog;
		heap_hog = p;
	}
}

static void free_heap(void *arg)
{
	(void)arg;
	while (heap_hog != NULL) {
		void *next = *(void **)heap_hog;

		page_free(heap_hog);
		heap_hog = next;
	}
}

/*
 * No heap for the call's outputs: a definite INVALID_REQUEST, which Linux
 * (arch/x86/coco/sev/core.c, svsm_process_result_codes) maps to -EINVAL,
 * not SVSM_ERR_BUSY, which it would resend at once, forever. Not
 * 0x4000_0000 + N either (58019 Table 4): that asks the guest to deposit
 * pages, and lent pages serve only single-page allocations, never these
 * 2- and 4-page buffers, so a guest that obeyed would ask forever.
 */
TEST(attest, heap_exhaustion_is_a_definite_error)
{
	static struct sim_attest_result a;
	struct sim_machine *m = attest_machine(false);
	uint8_t nonce[64];

	heap_hog = NULL;
	ASSERT_TRUE(sim_snp_run(m, hog_heap, NULL, NULL, NULL));
	ASSERT_TRUE(heap_hog != NULL);
	nonce_fill(nonce, 12);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	EXPECT_EQ(a.result, SVSM_ERR_INVALID_REQUEST);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
		  SIM_OK);
	EXPECT_EQ(a.result, SVSM_ERR_INVALID_REQUEST);
	EXPECT_EQ(a.calls, 1);
	EXPECT_EQ(sim_psp_reports(m), 0);
	ASSERT_TRUE(sim_snp_run(m, free_heap, NULL, NULL, NULL));
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	EXPECT_EQ(a.result, SVSM_SUCCESS);
}

TEST(attest, guest_never_sees_vmpck0)
{
	struct sim_machine *m = attest_machine(false);
	uint8_t secrets[4096];
	uint8_t zero[32] = {0};

	ASSERT_EQ(sim_mem_read(m, sim_secrets_gpa(m), secrets, 4096), SIM_OK);
	EXPECT_EQ(memcmp(secrets + 0x20, zero, 32), 0);
	EXPECT_NE(memcmp(secrets + 0x40, zero, 32), 0); /* VMPCK1: guest's */
}

static uint8_t k1[32], k2[32], k3[32];
static enum svsm_err key_err;

/* SVSM code outside a guest call: under the harness, as snp code is. */
static void derive_three(void *arg)
{
	(void)arg;
	key_err = guest_msg_derive_key(0, 0, k1);
	if (key_err == SVSM_OK) {
		key_err = guest_msg_derive_key(0, 0, k2);
	}
	if (key_err == SVSM_OK) {
		key_err = guest_msg_derive_key(1u << 3, 0, k3);
	}
}

TEST(attest, derived_keys_are_stable_and_selected)
{
	struct sim_machine *m = attest_machine(false);
	static const uint8_t zero[32];
	uint64_t seq = sim_psp_last_seqno(m);

	/* MSG_KEY_REQ through the same channel: same selection, same key;
	 * mixing in the measurement gives another; the numbers advance. */
	ASSERT_TRUE(sim_snp_run(m, derive_three, NULL, NULL, NULL));
	ASSERT_EQ(key_err, SVSM_OK);
	EXPECT_EQ(memcmp(k1, k2, 32), 0);
	EXPECT_NE(memcmp(k1, k3, 32), 0);
	EXPECT_NE(memcmp(k1, zero, 32), 0);
	EXPECT_EQ(sim_psp_last_seqno(m), seq + 6);
}

TEST(attest, contradictory_certificate_length_is_refused)
{
	static struct sim_attest_result a;
	struct sim_machine *m = attest_machine(false);
	uint8_t nonce[64];

	/* INVALID_LEN "needing" 100 bytes of a 16 KiB buffer: nothing was
	 * written, so nothing may be copied; the key is gone. On the snp
	 * platform the GHCB client sees the lie first (RBX not larger than
	 * what it offered) and ends the VM. */
	sim_hv_set_behaviour(m, SIM_HV_GREQ_CERTS_LIE);
	nonce_fill(nonce, 9);
	if (sim_uses_snp_platform(m)) {
		uint32_t set = 0, code = 0;

		EXPECT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
			  SIM_TERMINATED);
		EXPECT_TRUE(sim_terminated(m, &set, &code));
		EXPECT_EQ(code, TERM_CSVSM_GHCB_RESPONSE);
	} else {
		ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
			  SIM_OK);
		EXPECT_EQ(a.result, SVSM_ERR_INVALID_REQUEST);
		EXPECT_FALSE(sim_terminated(m, NULL, NULL));
	}
	EXPECT_EQ(sim_psp_reports(m), 0);
}

static struct sim_machine *ghcb_machine(void)
{
	struct sim_config cfg;
	struct sim_machine *m;

	sim_config_default(&cfg);
	cfg.vtpm = true;
	tm_need_snp();
	cfg.snp_ghcb = true;
	m = tm_create(&cfg);
	g_pvalidate_range(m, 0, BUFS, 0x8000, true);
	return m;
}

TEST(attest, over_the_snp_ghcb_path)
{
	struct sim_machine *m = ghcb_machine();
	static struct sim_attest_result a;
	static const uint8_t vcek_guid[16] = SNP_CERT_GUID_VCEK;
	struct sim_ghcb_stats before, after;
	uint8_t nonce[64];

	/* The same protocol, now through snp_guest_request(), the GHCB
	 * client's extended guest request and the hypervisor model. */
	uint32_t reports = sim_psp_reports(m); /* boot's: the state key */

	sim_ghcb_get_stats(m, &before);
	nonce_fill(nonce, 10);
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
		  SIM_OK);
	ASSERT_EQ(a.result, SVSM_SUCCESS);
	EXPECT_TRUE(report_verifies(a.report));
	EXPECT_TRUE(binds(a.report, nonce, a.manifest, a.manifest_len));
	EXPECT_EQ(memcmp(a.certs, vcek_guid, 16), 0);
	EXPECT_TRUE(a.certs_len != 0 && a.certs_len <= 0x4000);
	sim_ghcb_get_stats(m, &after);
	EXPECT_EQ(after.guest_requests, before.guest_requests + 1);
	/* The call's entry ended in run-VMPL, as on snp. */
	EXPECT_EQ(after.run_vmpl, before.run_vmpl + 1);
	EXPECT_EQ(sim_psp_reports(m), reports + 1);
}

TEST(attest, ghcb_reply_without_valid_bits_ends_the_vm)
{
	struct sim_machine *m = ghcb_machine();
	static struct sim_attest_result a;
	uint8_t nonce[64];
	uint32_t set = 0, code = 0;

	sim_ghcb_set_behaviour(m, SIM_GHCB_NO_VALID_BITS);
	nonce_fill(nonce, 11);
	EXPECT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, false, &a),
		  SIM_TERMINATED);
	EXPECT_TRUE(sim_terminated(m, &set, &code));
	EXPECT_EQ(set, TERM_SET_CSVSM);
	EXPECT_EQ(code, TERM_CSVSM_GHCB_RESPONSE);
}
