/* SPDX-License-Identifier: MIT */
/*
 * The relying party's ledger (ledger.h): its file parsed from untrusted
 * text, written back whole, and the verdict on each report's state.
 */
#include "ledger.h"

#include <stdio.h>
#include <string.h>

#include "../common/hex.h"

static const char header[] = "csvsm-verify ledger 1\n";

#define GEN_DIGITS_MAX 20u

/* @n bytes of lowercase or uppercase hex at *@p into @out, then the
 * separator @sep; advances *@p. */
static bool field_hex(const char **p, const char *end, uint8_t *out, size_t n,
		      char sep)
{
	size_t i;

	if ((size_t)(end - *p) < 2 * n + 1) {
		return false;
	}
	for (i = 0; i < n; i++) {
		int hi = hex_nibble((unsigned char)(*p)[2 * i]);
		int lo = hex_nibble((unsigned char)(*p)[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			return false;
		}
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	if ((*p)[2 * n] != sep) {
		return false;
	}
	*p += 2 * n + 1;
	return true;
}

/* A decimal u64 (no sign, no leading zero but "0", no overflow). */
static bool field_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	size_t n = 0;

	*v = 0;
	while (s + n < end && s[n] >= '0' && s[n] <= '9') {
		if (n == GEN_DIGITS_MAX ||
		    *v > (UINT64_MAX - (uint64_t)(s[n] - '0')) / 10) {
			return false;
		}
		*v = *v * 10 + (uint64_t)(s[n] - '0');
		n++;
	}
	if (n == 0 || (n > 1 && s[0] == '0') || s + n >= end || s[n] != ' ') {
		return false;
	}
	*p = s + n + 1;
	return true;
}

const char *ledger_parse(const uint8_t *buf, size_t len, struct ledger *l)
{
	const char *p = (const char *)buf;
	const char *end = p + len;
	struct ledger_rec r;

	l->count = 0;
	if (len == 0) {
		return NULL;
	}
	if (len < sizeof(header) - 1 ||
	    memcmp(p, header, sizeof(header) - 1) != 0) {
		return "not a csvsm-verify ledger (version 1)";
	}
	p += sizeof(header) - 1;
	while (p < end) {
		memset(&r, 0, sizeof(r));
		if (!field_hex(&p, end, r.chip_id, sizeof(r.chip_id), ' ') ||
		    !field_hex(&p, end, r.measurement, sizeof(r.measurement),
			       ' ') ||
		    !field_hex(&p, end, r.boot_id, sizeof(r.boot_id), ' ') ||
		    !field_u64(&p, end, &r.generation) ||
		    !field_hex(&p, end, r.digest, sizeof(r.digest), ' ') ||
		    !field_hex(&p, end, r.ek_digest, sizeof(r.ek_digest),
			       '\n')) {
			l->count = 0;
			return "a ledger line is malformed";
		}
		if (ledger_find(l, r.chip_id, r.measurement) != NULL) {
			l->count = 0;
			return "the ledger has two lines for one platform and "
			       "image";
		}
		if (l->count == LEDGER_MAX_RECS) {
			l->count = 0;
			return "the ledger has too many lines";
		}
		l->rec[l->count++] = r;
	}
	return NULL;
}

static size_t put_hex(char *out, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	return 2 * n;
}

size_t ledger_format(const struct ledger *l, char *buf, size_t cap)
{
	/* A line: 5 hex fields, a generation, 6 separators. */
	const size_t line_max = 2 * (SNP_CHIP_ID_LEN + SNP_MEASUREMENT_LEN +
				     CSVSM_VTPM_STATE_BOOT_ID_LEN +
				     CSVSM_VTPM_STATE_DIGEST_LEN + 32) +
				GEN_DIGITS_MAX + 6;
	size_t off = sizeof(header) - 1;
	unsigned i;

	if (cap < off) {
		return 0;
	}
	memcpy(buf, header, off);
	for (i = 0; i < l->count; i++) {
		const struct ledger_rec *r = &l->rec[i];
		int n;

		if (cap - off < line_max + 1) {
			return 0;
		}
		off += put_hex(buf + off, r->chip_id, sizeof(r->chip_id));
		buf[off++] = ' ';
		off += put_hex(buf + off, r->measurement,
			       sizeof(r->measurement));
		buf[off++] = ' ';
		off += put_hex(buf + off, r->boot_id, sizeof(r->boot_id));
		n = snprintf(buf + off, cap - off, " %llu ",
			     (unsigned long long)r->generation);
		if (n < 0 || (size_t)n >= cap - off) {
			return 0;
		}
		off += (size_t)n;
		off += put_hex(buf + off, r->digest, sizeof(r->digest));
		buf[off++] = ' ';
		off += put_hex(buf + off, r->ek_digest, sizeof(r->ek_digest));
		buf[off++] = '\n';
	}
	return off;
}

struct ledger_rec *ledger_find(struct ledger *l, const uint8_t *chip_id,
			       const uint8_t *measurement)
{
	unsigned i;

	for (i = 0; i < l->count; i++) {
		if (memcmp(l->rec[i].chip_id, chip_id, SNP_CHIP_ID_LEN) == 0 &&
		    memcmp(l->rec[i].measurement, measurement,
			   SNP_MEASUREMENT_LEN) == 0) {
			return &l->rec[i];
		}
	}
	return NULL;
}

/* The newest state @ev's boot has: what the ledger holds next. */
static void take_current(const struct state_evidence *ev,
			 struct ledger_rec *next)
{
	memcpy(next->boot_id, ev->boot_id, sizeof(next->boot_id));
	next->generation = ev->current_generation;
	memcpy(next->digest, ev->current_digest, sizeof(next->digest));
	memcpy(next->ek_digest, ev->ek_digest, sizeof(next->ek_digest));
}

/* A state (@gen, @digest) against the newest one known. */
static enum ledger_verdict compare(const struct ledger_rec *known, uint64_t gen,
				   const uint8_t *digest)
{
	if (gen < known->generation) {
		return LEDGER_ROLLBACK;
	}
	if (gen == known->generation &&
	    memcmp(digest, known->digest, sizeof(known->digest)) != 0) {
		return LEDGER_FORK;
	}
	return LEDGER_OK;
}

enum ledger_verdict ledger_judge(const struct ledger_rec *known,
				 const struct state_evidence *ev,
				 struct ledger_rec *next)
{
	enum ledger_verdict v;

	if (known == NULL) {
		take_current(ev, next);
		return LEDGER_NEW;
	}
	*next = *known;
	if (memcmp(known->boot_id, ev->boot_id, sizeof(ev->boot_id)) == 0) {
		/* A later report of the boot the ledger saw: its newest
		 * state can only have moved on. */
		v = compare(known, ev->current_generation, ev->current_digest);
	} else if (ev->outcome != CSVSM_VTPM_STATE_OK ||
		   memcmp(known->ek_digest, ev->ek_digest,
			  sizeof(ev->ek_digest)) != 0) {
		/* Another boot that does not run a stored state, or runs
		 * another TPM's (another EK: the host swapped in another
		 * history of this image): not the TPM the ledger knew,
		 * whatever the generations say. */
		take_current(ev, next);
		return LEDGER_RESTART;
	} else {
		/* Another boot: the state it started from must be the
		 * newest known, or one written after it. */
		v = compare(known, ev->loaded_generation, ev->loaded_digest);
	}
	if (v == LEDGER_OK) {
		take_current(ev, next);
	}
	return v;
}

const char *ledger_verdict_name(enum ledger_verdict v)
{
	switch (v) {
	case LEDGER_NEW:
		return "new";
	case LEDGER_OK:
		return "ok";
	case LEDGER_ROLLBACK:
		return "rollback";
	case LEDGER_FORK:
		return "fork";
	case LEDGER_RESTART:
		return "restart";
	default:
		return "unknown";
	}
}
