/* SPDX-License-Identifier: MIT */
/*
 * CRC-32 of IGVM headers (IEEE 802.3: polynomial 0xEDB88320 reflected,
 * initial and final inversion), the value zlib's crc32() gives; the unit
 * test holds the two equal. A checksum against accidents only: anyone
 * who alters a file can recompute it, so nothing trusts a file for it.
 * Four bits at a time from a 16-entry table: small and freestanding.
 */
#include "model/igvm_reader.h"

static const uint32_t crc_nibble[16] = {
	0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu,
	0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
	0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
	0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
};

uint32_t igvm_crc32(uint32_t crc, const uint8_t *buf, size_t len)
{
	size_t i;

	crc = ~crc;
	for (i = 0; i < len; i++) {
		crc ^= buf[i];
		crc = (crc >> 4) ^ crc_nibble[crc & 0xFu];
		crc = (crc >> 4) ^ crc_nibble[crc & 0xFu];
	}
	return ~crc;
}

uint32_t igvm_checksum(const uint8_t *headers, size_t len)
{
	return igvm_crc32(0, headers, len);
}
