/* SPDX-License-Identifier: MIT */
/* Hex text for the hosted tools (csvsm-verify, -igvm, -sim). */
#ifndef TOOLS_HEX_H
#define TOOLS_HEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** The value of one hex digit (either case), or -1. */
int hex_nibble(int c);
/** Parse hex digits (no whitespace, even count) into at most @max bytes. */
bool hex_parse(const char *s, uint8_t *out, size_t max, size_t *len);
/** Print @n bytes as lower-case hex, no separators. */
void hex_print(FILE *f, const uint8_t *p, size_t n);

#endif /* TOOLS_HEX_H */
