/* SPDX-License-Identifier: MIT */
/*
 * The vTPM (protocol 2) from VMPL1 through real VMGEXITs, as Linux's
 * tpm_svsm driver drives it: VTPM_QUERY, then TPM commands in a one-page
 * request block. The PCR value is checked against SHA-256 computed on the
 * build host (Python's hashlib, vtpm_expected.h), not by the SVSM. Also:
 * the guest's SSE registers survive a command (the SVSM's libraries run
 * with their own SIMD state), and malformed blocks get the spec's codes.
 */
#include "svsm/std.h"

#include "abi/svsm_vtpm.h"

#include "guest.h"
#include "vtpm_expected.h"

#define R_SUCCESS 0x00000000u
#define R_INVALID_ADDRESS 0x80000003u
#define R_UNSUPPORTED_CALL 0x80000002u
#define R_INVALID_PARAMETER 0x80000005u
#define VTPM(n) ((2ull << 32) | (n))
#define CR4_OSFXSR (1ull << 9)
#define CR4_OSXMMEXCPT (1ull << 10)

static uint8_t block[4096] __attribute__((aligned(4096)));

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

/* One TPM_SEND_COMMAND; returns the TPM response code (~0 on failure). */
static uint32_t tpm(const uint8_t *cmd, uint32_t len, uint32_t *rsp_len)
{
	struct svsm_regs r = {.rax = VTPM(SVSM_VTPM_CMD),
			      .rcx = (uint64_t)block};
	uint32_t code = SVSM_VTPM_SEND_COMMAND;
	uint32_t ret;

	memset(block, 0xEE, sizeof(block));
	memcpy(block + SVSM_VTPM_REQ_OFF_CMD, &code, 4);
	block[SVSM_VTPM_REQ_OFF_LOCALITY] = 0;
	memcpy(block + SVSM_VTPM_REQ_OFF_SIZE, &len, 4);
	memcpy(block + SVSM_VTPM_REQ_OFF_DATA, cmd, len);
	ret = svsm_call(&r);
	if (ret != R_SUCCESS) {
		g_print("  SVSM_VTPM_CMD returned %x\n", ret);
		return ~0u;
	}
	memcpy(rsp_len, block + SVSM_VTPM_RSP_OFF_SIZE, 4);
	if (*rsp_len < TPM2_HEADER_SIZE || *rsp_len > SVSM_VTPM_MAX_RESPONSE ||
	    be32(block + SVSM_VTPM_RSP_OFF_DATA + 2) != *rsp_len) {
		return ~0u;
	}
	return be32(block + SVSM_VTPM_RSP_OFF_DATA + 6);
}

static void query(void)
{
	struct svsm_regs r = {.rax = VTPM(SVSM_VTPM_QUERY)};
	struct svsm_regs q = {.rax = 6, .rcx = (2ull << 32) | 1};

	CHECK_EQ(svsm_call(&q), R_SUCCESS);
	CHECK_EQ(q.rcx, (1ull << 32) | 1); /* protocol 2, version 1 */
	CHECK_EQ(svsm_call(&r), R_SUCCESS);
	CHECK_THAT((r.rcx & (1ull << 8)) != 0,
		   "VTPM_QUERY offers TPM_SEND_COMMAND (bit 8)");
	CHECK_EQ(r.rdx, 0);
}

/*
 * Enable SSE for this vCPU, then fill xmm0..xmm15 with a pattern and set
 * a non-default MXCSR (rounding toward zero). libcrypto's SHA-256 and
 * AES code use these registers; the SVSM must neither leak its values
 * into them nor compute with the guest's MXCSR.
 */
#define GUEST_MXCSR (0x1f80u | (3u << 13))
#define XMM_PUT(n) "movdqu " #n "*16(%0), %%xmm" #n "\n\t"
#define XMM_GET(n) "movdqu %%xmm" #n ", " #n "*16(%0)\n\t"

#define XMM_ALL(op)                                                            \
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) op(10)     \
		op(11) op(12) op(13) op(14) op(15)

static uint64_t simd_buf[32];

static void simd_load(uint64_t pattern)
{
	uint64_t cr4;
	uint32_t mxcsr = GUEST_MXCSR;

	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= CR4_OSFXSR | CR4_OSXMMEXCPT;
	__asm__ volatile("mov %0, %%cr4" ::"r"(cr4));
	for (unsigned i = 0; i < 32; i++) {
		simd_buf[i] = pattern * (i + 1);
	}
	__asm__ volatile(XMM_ALL(XMM_PUT) "ldmxcsr %1"
			 :
			 : "r"(simd_buf), "m"(mxcsr)
			 : "memory");
}

static bool simd_intact(uint64_t pattern)
{
	uint32_t mxcsr;
	bool ok = true;

	__asm__ volatile(XMM_ALL(XMM_GET) "stmxcsr %1"
			 :
			 : "r"(simd_buf), "m"(mxcsr)
			 : "memory");
	for (unsigned i = 0; i < 32; i++) {
		ok = ok && simd_buf[i] == pattern * (i + 1);
	}
	return ok && mxcsr == GUEST_MXCSR;
}

static void commands(void)
{
	static const uint8_t startup[] = {0x80, 0x01, 0, 0,    0, 0x0C,
					  0,	0,    1, 0x44, 0, 0};
	static const uint8_t getrandom[] = {0x80, 0x01, 0, 0,	 0, 0x0C,
					    0,	  0,	1, 0x7B, 0, 32};
	/* PCR_Extend(PCR16, password session, one SHA-256 digest). */
	static const uint8_t extend[] = {
		0x80, 0x02, 0,	0, 0, 0x41, 0, 0,    0x01, 0x82, 0,
		0,    0,    16, 0, 0, 0,    9, 0x40, 0,	   0,	 9,
		0,    0,    0,	0, 0, 0,    0, 0,    1,	   0,	 0x0B,
	};
	/* PCR_Read(SHA-256: PCR16). */
	static const uint8_t pcr_read[] = {0x80, 0x01, 0,    0, 0, 0x14, 0,
					   0,	 0x01, 0x7E, 0, 0, 0,	 1,
					   0,	 0x0B, 3,    0, 0, 1};
	static const uint8_t digest[32] = VTPM_EXTEND_DIGEST;
	static const uint8_t expect[32] = VTPM_PCR16_EXPECTED;
	const uint8_t *out = block + SVSM_VTPM_RSP_OFF_DATA;
	uint8_t cmd[0x41];
	uint32_t len = 0;
	bool nonzero = false;

	/* The SVSM started the TPM at boot, as on a real platform. */
	CHECK_EQ(tpm(startup, sizeof(startup), &len), TPM2_RC_INITIALIZE);
	CHECK_EQ(tpm(getrandom, sizeof(getrandom), &len), TPM2_RC_SUCCESS);
	CHECK_EQ(len, TPM2_HEADER_SIZE + 2 + 32);
	CHECK_EQ((out[10] << 8) | out[11], 32);
	for (unsigned i = 0; i < 32; i++) {
		nonzero = nonzero || out[12 + i] != 0;
	}
	CHECK_THAT(nonzero, "GetRandom returned random bytes");
	memcpy(cmd, extend, sizeof(extend));
	memcpy(cmd + sizeof(extend), digest, 32);
	simd_load(0x0123456789abcdefull);
	CHECK_EQ(tpm(cmd, sizeof(cmd), &len), TPM2_RC_SUCCESS);
	CHECK_THAT(simd_intact(0x0123456789abcdefull),
		   "the guest's xmm0-15 and MXCSR survive a vTPM command");
	CHECK_EQ(tpm(pcr_read, sizeof(pcr_read), &len), TPM2_RC_SUCCESS);
	/* header, updateCounter, selection (10), count, size, digest */
	CHECK_EQ(len, 10 + 4 + 10 + 4 + 2 + 32);
	CHECK_THAT(memcmp(out + len - 32, expect, 32) == 0,
		   "PCR16 = SHA-256(0^32 || digest), computed independently");
}

/* One request block: platform command, locality, size, TPM header. */
static uint32_t raw(uint64_t gpa, uint32_t code, uint8_t locality,
		    uint32_t size)
{
	static const uint8_t startup[] = {0x80, 0x01, 0, 0,    0, 0x0C,
					  0,	0,    1, 0x44, 0, 0};
	struct svsm_regs r = {.rax = VTPM(SVSM_VTPM_CMD), .rcx = gpa};

	memset(block, 0, sizeof(block));
	memcpy(block + SVSM_VTPM_REQ_OFF_CMD, &code, 4);
	block[SVSM_VTPM_REQ_OFF_LOCALITY] = locality;
	memcpy(block + SVSM_VTPM_REQ_OFF_SIZE, &size, 4);
	memcpy(block + SVSM_VTPM_REQ_OFF_DATA, startup, sizeof(startup));
	return svsm_call(&r);
}

/* Malformed blocks (58019 section 8): the spec's codes, nothing run. */
static void malformed(void)
{
	const uint32_t send = SVSM_VTPM_SEND_COMMAND;

	CHECK_EQ(raw((uint64_t)block, send, 0, 12), R_SUCCESS); /* sane */
	CHECK_EQ(raw((uint64_t)block, send, 1, 12), R_INVALID_PARAMETER);
	CHECK_EQ(raw((uint64_t)block, send, 0, 11), R_INVALID_PARAMETER);
	CHECK_EQ(raw((uint64_t)block, send, 0, SVSM_VTPM_MAX_COMMAND + 1),
		 R_INVALID_PARAMETER);
	CHECK_EQ(raw((uint64_t)block, 1 /* POWER_ON */, 0, 12),
		 R_UNSUPPORTED_CALL);
	CHECK_EQ(raw((uint64_t)block, 99, 0, 12), R_INVALID_PARAMETER);
	CHECK_EQ(raw(0, send, 0, 12), R_INVALID_PARAMETER);
	CHECK_EQ(raw(g_secrets->svsm_base, send, 0, 12), R_INVALID_ADDRESS);
	CHECK_EQ(raw(g_secrets->svsm_base - 8, send, 0, 12),
		 R_INVALID_ADDRESS); /* a block reaching into the SVSM */
}

void tests_vtpm(void)
{
	g_section("vTPM: VTPM_QUERY, Startup, GetRandom, PCR_Extend/Read");
	query();
	commands();
	malformed();
}
