/* SPDX-License-Identifier: MIT */
/*
 * Building and reading TPM 2.0 commands (big-endian, TPM 2.0 Part 1/2).
 * The writer records overflow instead of writing past its buffer; the
 * reader does the same for reads past the end.
 */
#ifndef VTPM_TPM_WIRE_H
#define VTPM_TPM_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tpm_buf {
	uint8_t *data;
	size_t cap;
	size_t len; /* writer: bytes written; reader: bytes consumed */
	bool bad;   /* overflow or underflow */
};

void tpm_put_u8(struct tpm_buf *b, uint8_t v);
void tpm_put_u16(struct tpm_buf *b, uint16_t v);
void tpm_put_u32(struct tpm_buf *b, uint32_t v);
void tpm_put_bytes(struct tpm_buf *b, const void *p, size_t n);
/** Start a command: tag, a size patched by tpm_end(), command code. */
void tpm_begin(struct tpm_buf *b, uint16_t tag, uint32_t cc);
void tpm_end(struct tpm_buf *b);
/** A password authorization area with an empty password. */
void tpm_put_pw_session(struct tpm_buf *b);

uint8_t tpm_get_u8(struct tpm_buf *b);
uint16_t tpm_get_u16(struct tpm_buf *b);
uint32_t tpm_get_u32(struct tpm_buf *b);
const uint8_t *tpm_get_bytes(struct tpm_buf *b, size_t n);

uint32_t tpm_be32(const uint8_t *p);

#endif /* VTPM_TPM_WIRE_H */
