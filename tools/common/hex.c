/* SPDX-License-Identifier: MIT */
/* Hex text for the hosted tools. */
#include "hex.h"

#include <string.h>

int hex_nibble(int c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

bool hex_parse(const char *s, uint8_t *out, size_t max, size_t *len)
{
	size_t n = strlen(s);
	size_t i;

	if (n % 2 != 0 || n / 2 > max) {
		return false;
	}
	for (i = 0; i < n / 2; i++) {
		int hi = hex_nibble((unsigned char)s[2 * i]);
		int lo = hex_nibble((unsigned char)s[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			return false;
		}
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return true;
}

void hex_print(FILE *f, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fprintf(f, "%02x", p[i]);
	}
}
