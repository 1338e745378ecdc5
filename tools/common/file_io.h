/* SPDX-License-Identifier: MIT */
/* Whole-file reads and writes for the hosted tools (csvsm-verify, -igvm). */
#ifndef TOOLS_FILE_IO_H
#define TOOLS_FILE_IO_H

#include <stddef.h>
#include <stdint.h>

/** The whole of @path, at most @max bytes (malloc'd); NULL on error. */
uint8_t *tool_read_file(const char *path, size_t max, size_t *len);
/** Write @n bytes to @path; 0 on success. */
int tool_write_file(const char *path, const uint8_t *p, size_t n);

#endif /* TOOLS_FILE_IO_H */
