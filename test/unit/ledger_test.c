/* SPDX-License-Identifier: MIT */
/*
 * csvsm-verify's ledger and state entry parser (tools/verify/ledger.c,
 * state_entry.c). Truths: the verdict rules of docs/vtpm.md, "Rollback
 * evidence" (a boot that starts below the newest generation seen is a
 * rollback, at it with other bytes a fork, not from a stored state a
 * restart; later reports of one boot only move on), the entry layout of
 * abi/csvsm_vtpm_state.h and the ledger file format of ledger.h.
 */
#include <stdio.h>
#include <string.h>

#include "svsm/le.h"

#include "../../tools/verify/ledger.h"
#include "../framework/test.h"

static struct state_evidence ev_ok(uint8_t boot, uint64_t loaded, uint8_t dl,
				   uint64_t current, uint8_t dc)
{
	struct state_evidence ev;

	memset(&ev, 0, sizeof(ev));
	ev.outcome = CSVSM_VTPM_STATE_OK;
	ev.flags = CSVSM_VTPM_STATE_F_PERSISTENT;
	ev.boot_id[0] = boot;
	ev.loaded_generation = loaded;
	ev.loaded_digest[0] = dl;
	ev.current_generation = current;
	ev.current_digest[0] = dc;
	ev.writes = current - loaded;
	return ev;
}

static struct ledger_rec rec(uint8_t boot, uint64_t gen, uint8_t d)
{
	struct ledger_rec r;

	memset(&r, 0, sizeof(r));
	r.boot_id[0] = boot;
	r.generation = gen;
	r.digest[0] = d;
	return r;
}

TEST(ledger, each_verdict)
{
	struct ledger_rec known = rec(1, 5, 0x55);
	struct ledger_rec next;
	struct state_evidence ev;

	ev = ev_ok(2, 5, 0x55, 6, 0x66);
	EXPECT_EQ(ledger_judge(NULL, &ev, &next), LEDGER_NEW);
	EXPECT_EQ(next.generation, 6);
	EXPECT_EQ(next.digest[0], 0x66);
	/* The next boot starts from the newest state seen. */
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_OK);
	EXPECT_EQ(next.generation, 6);
	EXPECT_EQ(next.boot_id[0], 2);
	/* ... or from one written after the last report. */
	ev = ev_ok(2, 7, 0x77, 8, 0x88);
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_OK);
	/* An older one: rollback; the ledger keeps the newest. */
	ev = ev_ok(2, 4, 0x44, 5, 0x99);
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_ROLLBACK);
	EXPECT_EQ(next.generation, 5);
	EXPECT_EQ(next.digest[0], 0x55);
	/* The same generation with other bytes: a fork. */
	ev = ev_ok(2, 5, 0x56, 6, 0x66);
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_FORK);
	EXPECT_EQ(next.digest[0], 0x55);
	/* A new TPM (dropped state, or one it could not open). */
	memset(&ev, 0, sizeof(ev));
	ev.outcome = CSVSM_VTPM_STATE_MISSING;
	ev.flags = CSVSM_VTPM_STATE_F_PERSISTENT;
	ev.boot_id[0] = 3;
	ev.current_generation = 1;
	ev.writes = 1;
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_RESTART);
	EXPECT_EQ(next.generation, 1);
	ev.outcome = CSVSM_VTPM_STATE_CORRUPT;
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_RESTART);
	/* A stored state, newer, but another TPM's (another EK): the host
	 * swapped in another history of this image. */
	ev = ev_ok(2, 9, 0x99, 9, 0x99);
	ev.ek_digest[0] = 1;
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_RESTART);
	EXPECT_EQ(next.ek_digest[0], 1);
	/* Later reports of the boot the ledger knows only move on. */
	known = rec(2, 6, 0x66);
	ev = ev_ok(2, 5, 0x55, 6, 0x66);
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_OK);
	ev = ev_ok(2, 5, 0x55, 9, 0x99);
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_OK);
	EXPECT_EQ(next.generation, 9);
	ev = ev_ok(2, 5, 0x55, 6, 0x67);
	EXPECT_EQ(ledger_judge(&known, &ev, &next), LEDGER_FORK);
}

static uint8_t entry[CSVSM_VTPM_STATE_ENTRY_LEN];

static void entry_ok(void)
{
	memset(entry, 0, sizeof(entry));
	le_put32(entry + CSVSM_VTPM_STATE_OFF_VERSION, 1);
	le_put32(entry + CSVSM_VTPM_STATE_OFF_OUTCOME, CSVSM_VTPM_STATE_OK);
	le_put32(entry + CSVSM_VTPM_STATE_OFF_FLAGS,
		 CSVSM_VTPM_STATE_F_PERSISTENT);
	le_put64(entry + CSVSM_VTPM_STATE_OFF_LOADED_GEN, 4);
	le_put64(entry + CSVSM_VTPM_STATE_OFF_CURRENT_GEN, 6);
	le_put64(entry + CSVSM_VTPM_STATE_OFF_WRITES, 2);
	entry[CSVSM_VTPM_STATE_OFF_LOADED_DIGEST] = 1;
	entry[CSVSM_VTPM_STATE_OFF_CURRENT_DIGEST] = 2;
}

TEST(ledger, the_state_entry_parses_only_when_consistent)
{
	struct state_evidence ev;

	entry_ok();
	ASSERT_TRUE(state_entry_parse(entry, sizeof(entry), &ev) == NULL);
	EXPECT_EQ(ev.loaded_generation, 4);
	EXPECT_EQ(ev.current_generation, 6);
	EXPECT_EQ(ev.current_digest[0], 2);
	EXPECT_TRUE(state_entry_parse(entry, sizeof(entry) - 1, &ev) != NULL);
	entry[CSVSM_VTPM_STATE_OFF_VERSION] = 2;
	EXPECT_TRUE(state_entry_parse(entry, sizeof(entry), &ev) != NULL);
	entry_ok();
	entry[CSVSM_VTPM_STATE_OFF_RSVD2 + 7] = 1;
	EXPECT_TRUE(state_entry_parse(entry, sizeof(entry), &ev) != NULL);
	entry_ok();
	le_put32(entry + CSVSM_VTPM_STATE_OFF_OUTCOME, 0x42);
	EXPECT_TRUE(state_entry_parse(entry, sizeof(entry), &ev) != NULL);
	entry_ok();
	le_put32(entry + CSVSM_VTPM_STATE_OFF_FLAGS, 0x8);
	EXPECT_TRUE(state_entry_parse(entry, sizeof(entry), &ev) != NULL);
	entry_ok(); /* writes that do not add up */
	le_put64(entry + CSVSM_VTPM_STATE_OFF_WRITES, 1);
	EXPECT_TRUE(state_entry_parse(entry, sizeof(entry), &ev) != NULL);
	entry_ok(); /* a fresh TPM claiming a loaded state */
	le_put32(entry + CSVSM_VTPM_STATE_OFF_OUTCOME,
		 CSVSM_VTPM_STATE_MISSING);
	EXPECT_TRUE(state_entry_parse(entry, sizeof(entry), &ev) != NULL);
}

TEST(ledger, the_file_round_trips_and_refuses_what_it_did_not_write)
{
	static struct ledger l, again;
	static char text[4096];
	size_t len;

	memset(&l, 0, sizeof(l));
	EXPECT_TRUE(ledger_parse(NULL, 0, &l) == NULL);
	EXPECT_EQ(l.count, 0);
	l.rec[0] = rec(1, 18446744073709551615ull, 0xAB);
	l.rec[0].chip_id[63] = 0xCD;
	l.rec[0].ek_digest[31] = 0x5A;
	l.rec[1] = rec(2, 0, 0);
	l.rec[1].measurement[0] = 0xEF;
	l.count = 2;
	len = ledger_format(&l, text, sizeof(text));
	ASSERT_TRUE(len != 0);
	ASSERT_TRUE(ledger_parse((const uint8_t *)text, len, &again) == NULL);
	ASSERT_EQ(again.count, 2);
	EXPECT_EQ(memcmp(&again.rec[0], &l.rec[0], sizeof(l.rec[0])), 0);
	EXPECT_EQ(memcmp(&again.rec[1], &l.rec[1], sizeof(l.rec[1])), 0);
	EXPECT_TRUE(ledger_find(&again, l.rec[1].chip_id,
				l.rec[1].measurement) == &again.rec[1]);
	/* Cut short, a digit changed to a letter, a line twice. */
	EXPECT_TRUE(ledger_parse((const uint8_t *)text, len - 1, &again) !=
		    NULL);
	EXPECT_EQ(again.count, 0);
	text[30] = 'g';
	EXPECT_TRUE(ledger_parse((const uint8_t *)text, len, &again) != NULL);
	l.rec[1] = l.rec[0];
	len = ledger_format(&l, text, sizeof(text));
	EXPECT_TRUE(ledger_parse((const uint8_t *)text, len, &again) != NULL);
	/* A generation past 2^64 - 1. */
	l.count = 1;
	len = ledger_format(&l, text, sizeof(text));
	ASSERT_TRUE(len > 100);
	{
		char *g = strstr(text + 22, " 18446744073709551615 ");

		ASSERT_TRUE(g != NULL);
		g[20] = '6';
	}
	EXPECT_TRUE(ledger_parse((const uint8_t *)text, len, &again) != NULL);
}
