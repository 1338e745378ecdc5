/* SPDX-License-Identifier: MIT */
/* Whole-file reads and writes for the hosted tools. */
#include "file_io.h"

#include <stdio.h>
#include <stdlib.h>

uint8_t *tool_read_file(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (f == NULL) {
		return NULL;
	}
	buf = malloc(max + 1);
	if (buf == NULL) {
		fclose(f);
		return NULL;
	}
	/* One byte more than allowed tells a too-large file apart. */
	n = fread(buf, 1, max + 1, f);
	if (ferror(f) || n > max) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int tool_write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok = f != NULL && fwrite(p, 1, n, f) == n;

	if (f != NULL && fclose(f) != 0) {
		ok = 0;
	}
	return ok ? 0 : -1;
}
