/* SPDX-License-Identifier: MIT */
/*
 * Attestation (protocol 1) from VMPL1 through real VMGEXITs, with the
 * buffers Linux uses (report 4 KiB, manifest 4 KiB, certificates 16 KiB,
 * a nonce that is not page aligned). The guest cannot check the report's
 * signature itself: it prints the report, manifest, certificate table and
 * nonce as ATTEST-* lines, and test/attest/attest-emu.sh gives them to
 * csvsm-verify, which takes the chip's VCEK from the table and checks it
 * under the build's test chain. Here: the sizes in RCX, RDX
 * and R8, the report's VMPL and version, and the spec's error codes.
 */
#include "svsm/std.h"

#include "abi/svsm_attest.h"

#include "guest.h"

#define R_SUCCESS 0x00000000u
#define R_INVALID_ADDRESS 0x80000003u
#define R_INVALID_PARAMETER 0x80000005u
#define ATTEST(n) ((1ull << 32) | (n))

static struct {
	uint8_t manifest[4096];
	uint8_t certs[16384];
	uint8_t report[4096];
	uint8_t nonce_page[4096];
} bufs __attribute__((aligned(4096)));
static struct svsm_attest_req req __attribute__((aligned(64)));

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

static uint8_t *nonce(void)
{
	return bufs.nonce_page + 0x10; /* kmalloc'd: not page aligned */
}

static void linux_request(void)
{
	memset(&req, 0, sizeof(req));
	req.manifest.pa = (uint64_t)bufs.manifest;
	req.manifest.len = sizeof(bufs.manifest);
	req.certificates.pa = (uint64_t)bufs.certs;
	req.certificates.len = sizeof(bufs.certs);
	req.report.pa = (uint64_t)bufs.report;
	req.report.len = sizeof(bufs.report);
	req.nonce_pa = (uint64_t)nonce();
	req.nonce_len = 64;
}

static uint32_t attest(struct svsm_regs *r)
{
	*r = (struct svsm_regs){.rax = ATTEST(SVSM_ATTEST_SERVICES),
				.rcx = (uint64_t)&req,
				.rdx = ~0ull,
				.r8 = ~0ull};
	return svsm_call(r);
}

uint32_t attest_once(void)
{
	struct svsm_regs r;

	linux_request();
	return attest(&r);
}

static void print_hex(const char *tag, const uint8_t *p, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i += 32) {
		char line[65];

		for (j = 0; j < 32 && i + j < n; j++) {
			static const char hex[] = "0123456789abcdef";

			line[2 * j] = hex[p[i + j] >> 4];
			line[2 * j + 1] = hex[p[i + j] & 15];
		}
		line[2 * j] = '\0';
		g_print("ATTEST-%s %s\n", tag, line);
	}
}

void tests_attest(void)
{
	struct svsm_regs r = {.rax = 6, .rcx = (1ull << 32) | 1};
	size_t i;

	g_section("attestation (protocol 1)");
	CHECK_EQ(svsm_call(&r), R_SUCCESS);
	CHECK_EQ(r.rcx, (1ull << 32) | 1); /* QUERY_PROTOCOL: 1..1 */

	for (i = 0; i < 64; i++) {
		nonce()[i] = (uint8_t)(0xC0 ^ (i * 13));
	}
	linux_request();
	CHECK_EQ(attest(&r), R_SUCCESS);
	CHECK_EQ(r.r8, SNP_REPORT_SIZE);
	CHECK_EQ(r.rcx, rd32(bufs.manifest + 16));
	CHECK_THAT(r.rdx != 0 && r.rdx % 4096 == 0 && r.rdx <= 16384,
		   "certificates: whole pages, within the buffer");
	CHECK_THAT(rd32(bufs.report) >= 2, "report version 2 or later");
	CHECK_EQ(rd32(bufs.report + SNP_REPORT_OFF_VMPL), 0);
	CHECK_EQ(rd32(bufs.report + SNP_REPORT_OFF_SIG_ALGO), 1);
	/* Three entries: the vTPM (its EK), csvsm's vTPM state and its
	 * ECC EK. */
	CHECK_EQ(rd32(bufs.manifest + 20), 3);
	if (g_apic_id() == 0 && r.rcx <= sizeof(bufs.manifest)) {
		print_hex("NONCE", nonce(), 64);
		print_hex("REPORT", bufs.report, SNP_REPORT_SIZE);
		print_hex("MANIFEST", bufs.manifest, r.rcx);
		if (r.rdx <= sizeof(bufs.certs)) {
			print_hex("CERTS", bufs.certs, r.rdx);
		}
	}

	/* Too small a report buffer: INVALID_PARAMETER with the sizes. */
	linux_request();
	req.report.len = 0x100;
	CHECK_EQ(attest(&r), R_INVALID_PARAMETER);
	CHECK_EQ(r.r8, SNP_REPORT_SIZE);
	/* Misaligned, SVSM memory, a bad nonce size. */
	linux_request();
	req.report.pa += 8;
	CHECK_EQ(attest(&r), R_INVALID_PARAMETER);
	linux_request();
	req.report.pa = g_secrets->svsm_base;
	CHECK_EQ(attest(&r), R_INVALID_ADDRESS);
	linux_request();
	req.nonce_len = 32;
	CHECK_EQ(attest(&r), R_INVALID_PARAMETER);
}

/*
 * The cost of one ATTEST_SERVICES call, in guest TSC cycles, next to a
 * QUERY_PROTOCOL in the same run: SHA-512 of nonce and manifest, the
 * guest message sealed and opened (AES-256-GCM), and on emu the emulated
 * PSP's work too (its GCM and the ECDSA P-384 signature), all under TCG.
 */
void bench_attest(void)
{
	enum { N = 8 };
	struct svsm_regs r;
	uint64_t t0, att, q;
	unsigned i;

	g_section("benchmark: ATTEST_SERVICES");
	t0 = g_rdtsc();
	for (i = 0; i < N; i++) {
		linux_request();
		if (attest(&r) != R_SUCCESS) {
			g_print("  ATTEST_SERVICES failed\n");
			return;
		}
	}
	att = (g_rdtsc() - t0) / N;
	t0 = g_rdtsc();
	for (i = 0; i < N; i++) {
		r = (struct svsm_regs){.rax = 6, .rcx = 1};
		(void)svsm_call(&r);
	}
	q = (g_rdtsc() - t0) / N;
	g_print("[bench] ATTEST_SERVICES: %llu cycles (emulated PSP "
		"included), QUERY_PROTOCOL %llu cycles\n",
		(unsigned long long)att, (unsigned long long)q);
}
