/* SPDX-License-Identifier: MIT */
/*
 * glibc's ctype ABI for the "C" locale: the archives' isxxx() and tolower()
 * macros index the tables __ctype_b_loc() and __ctype_tolower_loc() point
 * at, with any value from -128 (a signed char) to 255, so each table has
 * 384 entries and the pointer aims at entry 128. Bytes 128..255 belong to
 * no class and map to themselves (as unsigned), as in glibc; EOF (-1)
 * maps to EOF.
 */
#include <stdbool.h>
#include <stdint.h>

#include "libc_internal.h"

/* glibc's bit for each class (bits.h: byte-swapped on little endian). */
enum {
	CT_UPPER = 0x0100,
	CT_LOWER = 0x0200,
	CT_ALPHA = 0x0400,
	CT_DIGIT = 0x0800,
	CT_XDIGIT = 0x1000,
	CT_SPACE = 0x2000,
	CT_PRINT = 0x4000,
	CT_GRAPH = 0x8000,
	CT_BLANK = 0x0001,
	CT_CNTRL = 0x0002,
	CT_PUNCT = 0x0004,
	CT_ALNUM = 0x0008,
};

const unsigned short **__ctype_b_loc(void);
const int32_t **__ctype_tolower_loc(void);

static unsigned short class_table[384];
static int32_t tolower_table[384];
static const unsigned short *class_ptr;
static const int32_t *tolower_ptr;

static unsigned short classify(int c)
{
	unsigned short m = 0;

	if (c >= 'A' && c <= 'Z') {
		m |= CT_UPPER | CT_ALPHA | CT_ALNUM;
	}
	if (c >= 'a' && c <= 'z') {
		m |= CT_LOWER | CT_ALPHA | CT_ALNUM;
	}
	if (c >= '0' && c <= '9') {
		m |= CT_DIGIT | CT_ALNUM;
	}
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F')) {
		m |= CT_XDIGIT;
	}
	if (c == ' ' || (c >= '\t' && c <= '\r')) {
		m |= CT_SPACE;
	}
	if (c == ' ' || c == '\t') {
		m |= CT_BLANK;
	}
	if (c >= 0x20 && c < 0x7f) {
		m |= CT_PRINT;
	}
	if (c > 0x20 && c < 0x7f) {
		m |= CT_GRAPH;
		if ((m & CT_ALNUM) == 0) {
			m |= CT_PUNCT;
		}
	}
	if (c < 0x20 || c == 0x7f) {
		m |= CT_CNTRL;
	}
	return m;
}

/* Filled on first use; callers are serialised. */
static void ctype_fill(void)
{
	for (int i = 0; i < 384; i++) {
		int c = (i - 128) & 0xff;

		class_table[i] = c < 0x80 ? classify(c) : 0;
		tolower_table[i] = (c >= 'A' && c <= 'Z') ? c + 32 : c;
	}
	tolower_table[128 - 1] = -1; /* tolower(EOF) is EOF */
	class_ptr = class_table + 128;
	tolower_ptr = tolower_table + 128;
}

const unsigned short **__ctype_b_loc(void)
{
	if (class_ptr == NULL) {
		ctype_fill();
	}
	return &class_ptr;
}

const int32_t **__ctype_tolower_loc(void)
{
	if (tolower_ptr == NULL) {
		ctype_fill();
	}
	return &tolower_ptr;
}
