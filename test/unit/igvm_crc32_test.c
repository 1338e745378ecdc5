/* SPDX-License-Identifier: MIT */
/*
 * The IGVM reader's own CRC-32 (model/snp/igvm_crc32.c), which the
 * freestanding PSP model uses, against zlib's crc32(), which IGVM files
 * are written with: equal for every length, split or whole.
 */
#include <zlib.h>

#include "model/igvm_reader.h"

#include "../framework/test.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

TEST(igvm_crc32, equals_zlib)
{
	static uint8_t buf[4099];
	uint64_t s = test_seed() | 1;
	size_t len, i;

	for (i = 0; i < sizeof(buf); i++) {
		buf[i] = (uint8_t)next(&s);
	}
	for (len = 0; len <= sizeof(buf); len += 1 + len / 3) {
		uint32_t want = (uint32_t)crc32(0L, buf, (uInt)len);
		size_t cut = len / 2;

		EXPECT_EQ(igvm_crc32(0, buf, len), want);
		EXPECT_EQ(igvm_crc32(igvm_crc32(0, buf, cut), buf + cut,
				     len - cut),
			  want);
		EXPECT_EQ(igvm_checksum(buf, len), want);
	}
	/* The check value of CRC-32/ISO-HDLC. */
	EXPECT_EQ(igvm_crc32(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
}
