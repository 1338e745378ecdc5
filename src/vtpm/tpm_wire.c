/* SPDX-License-Identifier: MIT */
#include "tpm_wire.h"

#include "svsm/std.h"

#define TPM_RS_PW 0x40000009u

void tpm_put_bytes(struct tpm_buf *b, const void *p, size_t n)
{
	if (b->bad || n > b->cap - b->len) {
		b->bad = true;
		return;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void tpm_put_u8(struct tpm_buf *b, uint8_t v)
{
	tpm_put_bytes(b, &v, 1);
}

void tpm_put_u16(struct tpm_buf *b, uint16_t v)
{
	uint8_t x[2] = {(uint8_t)(v >> 8), (uint8_t)v};

	tpm_put_bytes(b, x, sizeof(x));
}

void tpm_put_u32(struct tpm_buf *b, uint32_t v)
{
	uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16),
			(uint8_t)(v >> 8), (uint8_t)v};

	tpm_put_bytes(b, x, sizeof(x));
}

void tpm_begin(struct tpm_buf *b, uint16_t tag, uint32_t cc)
{
	b->len = 0;
	b->bad = false;
	tpm_put_u16(b, tag);
	tpm_put_u32(b, 0); /* size, see tpm_end() */
	tpm_put_u32(b, cc);
}

void tpm_end(struct tpm_buf *b)
{
	uint32_t n = (uint32_t)b->len;

	if (b->bad || b->len < 6) {
		b->bad = true;
		return;
	}
	b->data[2] = (uint8_t)(n >> 24);
	b->data[3] = (uint8_t)(n >> 16);
	b->data[4] = (uint8_t)(n >> 8);
	b->data[5] = (uint8_t)n;
}

void tpm_put_pw_session(struct tpm_buf *b)
{
	tpm_put_u32(b, 9); /* authorizationSize */
	tpm_put_u32(b, TPM_RS_PW);
	tpm_put_u16(b, 0); /* nonce */
	tpm_put_u8(b, 0);  /* sessionAttributes */
	tpm_put_u16(b, 0); /* hmac: the empty password */
}

const uint8_t *tpm_get_bytes(struct tpm_buf *b, size_t n)
{
	const uint8_t *p;

	if (b->bad || n > b->cap - b->len) {
		b->bad = true;
		return NULL;
	}
	p = b->data + b->len;
	b->len += n;
	return p;
}

uint32_t tpm_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

uint8_t tpm_get_u8(struct tpm_buf *b)
{
	const uint8_t *p = tpm_get_bytes(b, 1);

	return p != NULL ? p[0] : 0;
}

uint16_t tpm_get_u16(struct tpm_buf *b)
{
	const uint8_t *p = tpm_get_bytes(b, 2);

	return p != NULL ? (uint16_t)((p[0] << 8) | p[1]) : 0;
}

uint32_t tpm_get_u32(struct tpm_buf *b)
{
	const uint8_t *p = tpm_get_bytes(b, 4);

	return p != NULL ? tpm_be32(p) : 0;
}
