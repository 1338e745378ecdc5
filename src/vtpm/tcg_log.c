/* SPDX-License-Identifier: MIT */
/*
 * The TCG2 event log builder (tcg_log.h). Field layouts from the TCG PC
 * Client Platform Firmware Profile, section "Event Logging": the Spec ID
 * event's header is the SHA-1 format (pcrIndex, eventType, a 20-byte
 * digest, eventSize) and its data TCG_EfiSpecIDEvent; every later event
 * is TCG_PCR_EVENT2 (pcrIndex, eventType, TPML_DIGEST_VALUES, eventSize,
 * event).
 */
#include "tcg_log.h"

#include "svsm/le.h"
#include "svsm/std.h"

#define SPEC_ID_SIGNATURE "Spec ID Event03" /* with its NUL: 16 bytes */
#define SHA1_LEN 20u

size_t tcg_alg_len(uint16_t alg)
{
	switch (alg) {
	case TCG_ALG_SHA1:
		return 20;
	case TCG_ALG_SHA256:
		return 32;
	case TCG_ALG_SHA384:
		return 48;
	case TCG_ALG_SHA512:
		return 64;
	default:
		return 0;
	}
}

static bool room(struct tcg_log *l, size_t n)
{
	if (l->bad || n > l->cap - l->len) {
		l->bad = true;
		return false;
	}
	return true;
}

static void put(struct tcg_log *l, const void *p, size_t n)
{
	memcpy(l->buf + l->len, p, n);
	l->len += n;
}

static void put32(struct tcg_log *l, uint32_t v)
{
	le_put32(l->buf + l->len, v);
	l->len += 4;
}

static void put16(struct tcg_log *l, uint16_t v)
{
	le_put16(l->buf + l->len, v);
	l->len += 2;
}

static void put8(struct tcg_log *l, uint8_t v)
{
	l->buf[l->len++] = v;
}

bool tcg_log_begin(struct tcg_log *l, uint8_t *buf, size_t cap,
		   const uint16_t *algs, unsigned n)
{
	static const uint8_t zero[SHA1_LEN];
	/* signature, platformClass, minor, major, errata, uintnSize,
	 * numberOfAlgorithms, the sizes, vendorInfoSize */
	uint32_t data_len = 16 + 4 + 4 + 4 + 4 * n + 1;
	unsigned i;

	*l = (struct tcg_log){.buf = buf, .cap = cap};
	if (n == 0 || n > TCG_LOG_MAX_BANKS) {
		l->bad = true;
		return false;
	}
	for (i = 0; i < n; i++) {
		if (tcg_alg_len(algs[i]) == 0) {
			l->bad = true;
			return false;
		}
		l->algs[i] = algs[i];
	}
	l->nbanks = n;
	if (!room(l, 4 + 4 + SHA1_LEN + 4 + data_len)) {
		return false;
	}
	put32(l, 0); /* PCR 0 */
	put32(l, TCG_EV_NO_ACTION);
	put(l, zero, SHA1_LEN);
	put32(l, data_len);
	put(l, SPEC_ID_SIGNATURE, 16);
	put32(l, 0); /* platformClass: client */
	put8(l, 0);  /* specVersionMinor */
	put8(l, 2);  /* specVersionMajor */
	put8(l, 0);  /* specErrata */
	put8(l, 2);  /* uintnSize: UINTN is 64 bits */
	put32(l, n);
	for (i = 0; i < n; i++) {
		put16(l, algs[i]);
		put16(l, (uint16_t)tcg_alg_len(algs[i]));
	}
	put8(l, 0); /* vendorInfoSize */
	return true;
}

bool tcg_log_event(struct tcg_log *l, uint32_t pcr, uint32_t type,
		   const uint8_t (*digests)[TCG_DIGEST_MAX], const void *data,
		   uint32_t len)
{
	size_t need = 4 + 4 + 4 + 4 + (size_t)len;
	unsigned i;

	if (l->bad || l->nbanks == 0) {
		l->bad = true;
		return false;
	}
	for (i = 0; i < l->nbanks; i++) {
		need += 2 + tcg_alg_len(l->algs[i]);
	}
	if (!room(l, need)) {
		return false;
	}
	put32(l, pcr);
	put32(l, type);
	put32(l, l->nbanks);
	for (i = 0; i < l->nbanks; i++) {
		put16(l, l->algs[i]);
		put(l, digests[i], tcg_alg_len(l->algs[i]));
	}
	put32(l, len);
	if (len != 0) {
		put(l, data, len);
	}
	return true;
}
