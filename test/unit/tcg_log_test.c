/* SPDX-License-Identifier: MIT */
/*
 * The TCG2 event log builder (src/vtpm/tcg_log.c) against the byte
 * layouts of the TCG PC Client Platform Firmware Profile, written out by
 * hand here: the Spec ID event (SHA-1 format, TCG_EfiSpecIDEvent) and
 * TCG_PCR_EVENT2, little-endian. tpm2_eventlog parses a whole log in
 * test/sim/snp_linux_test.c's output (test/igvm/igvm_check.py).
 */
#include <string.h>

#include "../../src/vtpm/tcg_log.h"
#include "../framework/test.h"

static const uint16_t two[] = {TCG_ALG_SHA1, TCG_ALG_SHA256};

TEST(tcg_log, spec_id_event_is_the_sha1_format_header)
{
	static const uint8_t want[] = {
		0,    0,   0,	0, /* PCR 0 */
		3,    0,   0,	0, /* EV_NO_ACTION */
		0,    0,   0,	0,   0,	  0,   0,   0,	 0,   0, /* 20-byte zero
								    digest */
		0,    0,   0,	0,   0,	  0,   0,   0,	 0,   0, /* */
		37,   0,   0,	0, /* eventSize: 16 + 12 + 8 + 1 */
		'S',  'p', 'e', 'c', ' ', 'I', 'D', ' ', 'E', 'v', 'e',
		'n',  't', '0', '3', 0, /* signature */
		0,    0,   0,	0,	/* platformClass */
		0,    2,   0,	2,	/* minor 0, major 2, errata 0, UINT64 */
		2,    0,   0,	0,	/* numberOfAlgorithms */
		0x04, 0,   20,	0,	/* SHA-1, 20 */
		0x0B, 0,   32,	0,	/* SHA-256, 32 */
		0,			/* vendorInfoSize */
	};
	uint8_t buf[256];
	struct tcg_log l;

	ASSERT_TRUE(tcg_log_begin(&l, buf, sizeof(buf), two, 2));
	ASSERT_EQ(l.len, sizeof(want));
	EXPECT_EQ(memcmp(buf, want, sizeof(want)), 0);
}

TEST(tcg_log, event2_carries_every_bank_and_the_data)
{
	uint8_t buf[512], d[TCG_LOG_MAX_BANKS][TCG_DIGEST_MAX];
	struct tcg_log l;
	size_t start;
	const uint8_t *e;

	memset(d[0], 0x11, sizeof(d[0]));
	memset(d[1], 0x22, sizeof(d[1]));
	ASSERT_TRUE(tcg_log_begin(&l, buf, sizeof(buf), two, 2));
	start = l.len;
	ASSERT_TRUE(tcg_log_event(&l, 9, TCG_EV_IPL, d, "csvsm:linux", 12));
	e = buf + start;
	ASSERT_EQ(l.len - start, 12u + 22 + 34 + 4 + 12);
	EXPECT_EQ(e[0], 9);
	EXPECT_EQ(e[4], 0x0D);
	EXPECT_EQ(e[8], 2); /* digest count */
	EXPECT_EQ(e[12], 0x04);
	EXPECT_EQ(e[13], 0);
	EXPECT_EQ(e[14], 0x11);
	EXPECT_EQ(e[33], 0x11);
	EXPECT_EQ(e[34], 0x0B);
	EXPECT_EQ(e[36], 0x22);
	EXPECT_EQ(e[67], 0x22);
	EXPECT_EQ(e[68], 12); /* eventSize */
	EXPECT_EQ(memcmp(e + 72, "csvsm:linux", 12), 0);
}

TEST(tcg_log, a_full_log_refuses_and_stays_whole)
{
	uint8_t buf[128], d[TCG_LOG_MAX_BANKS][TCG_DIGEST_MAX] = {{0}};
	struct tcg_log l;
	size_t len;

	ASSERT_TRUE(tcg_log_begin(&l, buf, sizeof(buf), two, 2));
	len = l.len;
	/* 12 + 22 + 34 + 4 + 20 > 128 - 69 */
	EXPECT_FALSE(tcg_log_event(&l, 8, TCG_EV_IPL, d, buf, 20));
	EXPECT_EQ(l.len, len);
	EXPECT_TRUE(l.bad);
	/* bad stays bad: even an event that would fit is refused */
	EXPECT_FALSE(tcg_log_event(&l, 8, TCG_EV_IPL, d, NULL, 0));
	EXPECT_EQ(l.len, len);
	EXPECT_FALSE(tcg_log_begin(&l, buf, 40, two, 2)); /* header short */
}

TEST(tcg_log, unknown_or_too_many_banks_are_refused)
{
	static const uint16_t sm3[] = {0x0012};
	static const uint16_t five[] = {4, 0xB, 0xC, 0xD, 4};
	uint8_t buf[256];
	struct tcg_log l;

	EXPECT_FALSE(tcg_log_begin(&l, buf, sizeof(buf), sm3, 1));
	EXPECT_FALSE(tcg_log_begin(&l, buf, sizeof(buf), five, 5));
	EXPECT_FALSE(tcg_log_begin(&l, buf, sizeof(buf), two, 0));
	EXPECT_EQ(tcg_alg_len(TCG_ALG_SHA384), 48u);
	EXPECT_EQ(tcg_alg_len(TCG_ALG_SHA512), 64u);
}
