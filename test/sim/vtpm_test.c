/* SPDX-License-Identifier: MIT */
/*
 * The vTPM protocol (protocol 2) through the guest's Calling Area and a
 * request block, as Linux's tpm_svsm.c drives it. Truths: the protocol
 * layouts and error codes of 58019 section 8 (spec notes section 5), TPM
 * 2.0 Part 3 for the commands, and OpenSSL's SHA-256 for PCR values.
 */
#include <openssl/sha.h>
#include <string.h>

#include "svsm/vtpm.h"

#include "abi/svsm_vtpm.h"

#include "../framework/test.h"
#include "guest.h"

#define BLOCK 0x2000000ull /* a validated page for the request block */
#define VTPM(call) SVSM_CALL(SVSM_PROTOCOL_VTPM, (call))

static struct sim_machine *vtpm_machine(void)
{
	struct sim_config cfg;
	struct sim_machine *m;

	sim_config_default(&cfg);
	cfg.vtpm = true;
	m = tm_create(&cfg);
	g_pvalidate_range(m, 0, BLOCK, 0x3000, true);
	return m;
}

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

/* One TPM command; returns the TPM response code (or ~0 on a failed
 * call). */
static uint32_t tpm(struct sim_machine *m, const uint8_t *cmd, uint32_t len,
		    uint8_t *rsp, uint32_t *rsp_len)
{
	uint32_t result = 0;

	if (sim_vtpm_command(m, 0, BLOCK, cmd, len, rsp, 4096, rsp_len,
			     &result) != SIM_OK ||
	    result != SVSM_SUCCESS || *rsp_len < 10) {
		return ~0u;
	}
	return be32(rsp + 6);
}

TEST(vtpm, query_and_protocol_offered)
{
	struct sim_machine *m = vtpm_machine();
	struct sim_regs r;
	size_t ek_len = 0;

	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), (2ull << 32) | 1,
			 0, 0, &r),
		  SVSM_SUCCESS);
	EXPECT_EQ(r.rcx, (1ull << 32) | 1);
	EXPECT_EQ(g_call(m, 0, VTPM(SVSM_VTPM_QUERY), 0, 0, 0, &r),
		  SVSM_SUCCESS);
	EXPECT_EQ(r.rcx, 1ull << 8); /* Linux needs bit 8, TPM_SEND_COMMAND */
	EXPECT_EQ(r.rdx, 0);
	EXPECT_EQ(g_call(m, 0, VTPM(2), 0, 0, 0, NULL),
		  SVSM_ERR_UNSUPPORTED_CALL);
	/* The EK exists: an RSA (0x0001) TPMT_PUBLIC with nameAlg SHA-256. */
	ASSERT_TRUE(vtpm_ek_public(&ek_len) != NULL);
	EXPECT_TRUE(ek_len > 256);
	EXPECT_EQ(vtpm_ek_public(&ek_len)[1], 0x01);
	EXPECT_EQ(vtpm_ek_public(&ek_len)[3], 0x0B);
}

TEST(vtpm, no_engine_no_protocol)
{
	struct sim_machine *m = tm_default(1);
	struct sim_regs r;

	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), (2ull << 32) | 1,
			 0, 0, &r),
		  SVSM_SUCCESS);
	EXPECT_EQ(r.rcx, 0);
	EXPECT_EQ(g_call(m, 0, VTPM(SVSM_VTPM_QUERY), 0, 0, 0, NULL),
		  SVSM_ERR_UNSUPPORTED_PROTOCOL);
}

TEST(vtpm, started_getrandom_and_pcr_extend_match_sha256)
{
	static const uint8_t startup[] = {0x80, 0x01, 0, 0,    0, 0x0C,
					  0,	0,    1, 0x44, 0, 0};
	static const uint8_t getrandom[] = {0x80, 0x01, 0, 0,	 0, 0x0C,
					    0,	  0,	1, 0x7B, 0, 16};
	static uint8_t extend[] = {
		0x80, 0x02, 0, 0,  0,	 0x41, 0, 0, 0x01, 0x82, /* PCR_Extend
								  */
		0,    0,    0, 16,				 /* PCR16 */
		0,    0,    0, 9,  0x40, 0,    0, 9, 0,	   0,	 0,
		0,    0,		       /* pw */
		0,    0,    0, 1,  0,	 0x0B, /* one SHA-256 digest: */
	};
	static const uint8_t pcr_read[] = {0x80, 0x01, 0,    0, 0, 0x14, 0,
					   0,	 0x01, 0x7E, 0, 0, 0,	 1,
					   0,	 0x0B, 3,    0, 0, 1};
	uint8_t cmd[128];
	uint8_t rsp[4096];
	uint8_t digest[32];
	uint8_t chain[64] = {0};
	uint8_t expect[32];
	uint32_t len = 0;
	struct sim_machine *m = vtpm_machine();

	/* The SVSM has already started the TPM. */
	EXPECT_EQ(tpm(m, startup, sizeof(startup), rsp, &len),
		  TPM2_RC_INITIALIZE);
	EXPECT_EQ(tpm(m, getrandom, sizeof(getrandom), rsp, &len), 0);
	EXPECT_EQ(len, 10 + 2 + 16);
	EXPECT_EQ(be32(rsp + 2), len);
	/* PCR16 = SHA-256(PCR16 || d), from zero, as OpenSSL computes. */
	SHA256((const uint8_t *)"csvsm", 5, digest);
	memcpy(cmd, extend, sizeof(extend));
	memcpy(cmd + sizeof(extend), digest, 32);
	ASSERT_EQ(sizeof(extend) + 32, 0x41);
	EXPECT_EQ(tpm(m, cmd, 0x41, rsp, &len), 0);
	EXPECT_EQ(tpm(m, pcr_read, sizeof(pcr_read), rsp, &len), 0);
	memcpy(chain + 32, digest, 32);
	SHA256(chain, 64, expect);
	/* header, updateCounter, selection (10), count, size 32, digest */
	ASSERT_EQ(len, 10 + 4 + 10 + 4 + 2 + 32);
	EXPECT_EQ(memcmp(rsp + len - 32, expect, 32), 0);
}

TEST(vtpm, malformed_request_blocks)
{
	static const uint8_t getrandom[] = {0x80, 0x01, 0, 0,	 0, 0x0C,
					    0,	  0,	1, 0x7B, 0, 16};
	uint8_t block[4096];
	struct sim_machine *m = vtpm_machine();
	uint64_t caa = sim_current_caa_gpa(m, 0);
	struct {
		uint32_t cmd;
		uint8_t locality;
		uint32_t size;
		uint32_t expect;
	} cases[] = {
		{8, 0, 12, SVSM_SUCCESS},
		{8, 1, 12, SVSM_ERR_INVALID_PARAMETER},	  /* locality 1 */
		{8, 0, 11, SVSM_ERR_INVALID_PARAMETER},	  /* != header */
		{8, 0, 9, SVSM_ERR_INVALID_PARAMETER},	  /* < a header */
		{8, 0, 4088, SVSM_ERR_INVALID_PARAMETER}, /* > 4087 */
		{8, 0, 0xFFFFFFFFu, SVSM_ERR_INVALID_PARAMETER},
		{1, 0, 12, SVSM_ERR_UNSUPPORTED_CALL},	 /* POWER_ON */
		{21, 0, 12, SVSM_ERR_UNSUPPORTED_CALL},	 /* STOP */
		{19, 0, 12, SVSM_ERR_INVALID_PARAMETER}, /* unknown */
		{0x80000008u, 0, 12, SVSM_ERR_INVALID_PARAMETER},
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(block, 0, sizeof(block));
		memcpy(block, &cases[i].cmd, 4);
		block[4] = cases[i].locality;
		memcpy(block + 5, &cases[i].size, 4);
		memcpy(block + 9, getrandom, sizeof(getrandom));
		ASSERT_EQ(sim_mem_write(m, BLOCK, block, sizeof(block)),
			  SIM_OK);
		EXPECT_EQ(g_call(m, 0, VTPM(SVSM_VTPM_CMD), BLOCK, 0, 0, NULL),
			  cases[i].expect);
	}
	/* Where the block may not be: nowhere, SVSM memory, over the CA's
	 * control bytes, running into unvalidated memory. */
	EXPECT_EQ(g_call(m, 0, VTPM(SVSM_VTPM_CMD), 0, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(
		g_call(m, 0, VTPM(SVSM_VTPM_CMD), sim_svsm_base(m), 0, 0, NULL),
		SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, VTPM(SVSM_VTPM_CMD), caa, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, VTPM(SVSM_VTPM_CMD), BLOCK + 0x2800, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, VTPM(SVSM_VTPM_CMD), 0xFFFFFFFFFFFFF800ull, 0, 0,
			 NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	/* An unaligned block inside validated memory is fine (COCONUT). */
	memset(block, 0, sizeof(block));
	block[0] = 8;
	block[5] = 12;
	memcpy(block + 9, getrandom, sizeof(getrandom));
	ASSERT_EQ(sim_mem_write(m, BLOCK + 0x804, block, sizeof(block)),
		  SIM_OK);
	EXPECT_EQ(g_call(m, 0, VTPM(SVSM_VTPM_CMD), BLOCK + 0x804, 0, 0, NULL),
		  SVSM_SUCCESS);
	check_invariants(m);
}
