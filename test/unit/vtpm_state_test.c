/* SPDX-License-Identifier: MIT */
/*
 * The vTPM's sealed state (src/core/vtpm_state.c), its keys asked of the
 * simulated machine's PSP model by the SVSM (a report, then MSG_KEY_REQ
 * through VMPCK0), as the firmware will. Truths: a blob opens under the
 * key it was sealed with, to the same bytes; every thing the host can do
 * to it has its outcome, and no outcome but OK hands out state: nothing
 * stored (missing), cut short (truncated), a byte changed anywhere
 * (corrupt), a format older or newer, the key of another image, another
 * committed TCB or another chip, a generation below the caller's floor.
 */
#include <string.h>

#include "svsm/crypto.h"
#include "svsm/guest_msg.h"
#include "svsm/vtpm_state.h"

#include "abi/svsm_attest.h"

#include "../framework/test.h"
#include "../sim/guest.h"

#define STATE_LEN 3000u
#define BLOB_CAP (STATE_LEN + 512u)

static struct vtpm_state_key derived;
static enum svsm_err derive_err;

static void derive(void *arg)
{
	(void)arg;
	derive_err = vtpm_state_key_derive(&derived);
}

/* The SVSM's sealing key on machine @m as the PSP is now. */
static struct vtpm_state_key key_of(struct sim_machine *m)
{
	memset(&derived, 0, sizeof(derived));
	derive_err = SVSM_E_INVAL;
	if (!sim_snp_run(m, derive, NULL, NULL, NULL)) {
		derive_err = SVSM_E_INVAL;
	}
	return derived;
}

static uint8_t state[STATE_LEN];
static uint8_t out[STATE_LEN];
static uint8_t blob[BLOB_CAP];
static size_t blob_len;
static const uint8_t iv[VTPM_STATE_IV_LEN] = {1, 2, 3, 4,  5,  6,
					      7, 8, 9, 10, 11, 12};

static void fill_state(void)
{
	size_t i;

	for (i = 0; i < sizeof(state); i++) {
		state[i] = (uint8_t)(i * 13 + 5);
	}
}

static bool out_is_zero(void)
{
	size_t i;

	for (i = 0; i < sizeof(out); i++) {
		if (out[i] != 0) {
			return false;
		}
	}
	return true;
}

static enum vtpm_state_outcome open_with(const struct vtpm_state_key *k,
					 size_t len, uint64_t floor)
{
	struct vtpm_state_info info;

	memset(out, 0xEE, sizeof(out));
	return vtpm_state_open(k, blob, len, floor, out, sizeof(out), &info);
}

/* A machine, its key, and a blob of generation 7 sealed under it. */
static struct sim_machine *sealed(struct vtpm_state_key *k)
{
	struct sim_config cfg;
	struct sim_machine *m;

	sim_config_default(&cfg);
	m = tm_create(&cfg);
	*k = key_of(m);
	fill_state();
	if (derive_err != SVSM_OK ||
	    vtpm_state_seal(k, 7, iv, state, sizeof(state), blob, sizeof(blob),
			    &blob_len) != SVSM_OK) {
		blob_len = 0;
	}
	return m;
}

TEST(vtpm_state, opens_to_the_same_bytes_under_the_same_key)
{
	struct vtpm_state_key k, again;
	struct vtpm_state_info info;
	struct sim_machine *m = sealed(&k);

	ASSERT_EQ(derive_err, SVSM_OK);
	ASSERT_EQ(blob_len, vtpm_state_sealed_len(STATE_LEN));
	/* The key is asked again, as the next boot would. */
	again = key_of(m);
	ASSERT_EQ(derive_err, SVSM_OK);
	EXPECT_EQ(memcmp(k.key, again.key, 32), 0);
	memset(out, 0xEE, sizeof(out));
	ASSERT_EQ(vtpm_state_open(&again, blob, blob_len, 7, out, sizeof(out),
				  &info),
		  VTPM_STATE_OK);
	EXPECT_EQ(memcmp(out, state, sizeof(state)), 0);
	EXPECT_EQ(info.generation, 7);
	EXPECT_EQ(info.state_len, STATE_LEN);
	/* The ciphertext is not the state. */
	EXPECT_NE(memcmp(blob + VTPM_STATE_HDR_LEN, state, 64), 0);
	crypto_wipe(&k, sizeof(k));
}

TEST(vtpm_state, missing_and_truncated)
{
	struct vtpm_state_key k;

	sealed(&k);
	ASSERT_EQ(derive_err, SVSM_OK);
	EXPECT_EQ(open_with(&k, 0, 0), VTPM_STATE_MISSING);
	EXPECT_EQ(open_with(&k, VTPM_STATE_HDR_LEN - 1, 0),
		  VTPM_STATE_TRUNCATED);
	EXPECT_EQ(open_with(&k, VTPM_STATE_HDR_LEN, 0), VTPM_STATE_TRUNCATED);
	EXPECT_EQ(open_with(&k, blob_len - 1, 0), VTPM_STATE_TRUNCATED);
	EXPECT_TRUE(out_is_zero());
}

TEST(vtpm_state, any_changed_byte_is_corrupt)
{
	struct vtpm_state_key k;
	/* The magic, generation, state's first and last byte, the digest,
	 * the IV, the tag's first and last byte, a reserved field. */
	const size_t at[] = {0,
			     0x10,
			     VTPM_STATE_HDR_LEN,
			     VTPM_STATE_HDR_LEN + STATE_LEN - 1,
			     0x80,
			     0x70,
			     VTPM_STATE_HDR_LEN + STATE_LEN,
			     VTPM_STATE_HDR_LEN + STATE_LEN + 15,
			     0x1C};
	size_t i;

	sealed(&k);
	ASSERT_EQ(derive_err, SVSM_OK);
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		blob[at[i]] ^= 0x01;
		EXPECT_EQ(open_with(&k, blob_len, 0), VTPM_STATE_CORRUPT);
		EXPECT_TRUE(out_is_zero());
		blob[at[i]] ^= 0x01;
	}
	/* Bytes after the tag. */
	EXPECT_EQ(open_with(&k, blob_len + 1, 0), VTPM_STATE_CORRUPT);
	/* A length larger than any state. */
	blob[0x1A] = 0xFF;
	EXPECT_EQ(open_with(&k, blob_len, 0), VTPM_STATE_CORRUPT);
	blob[0x1A] = 0;
	EXPECT_EQ(open_with(&k, blob_len, 0), VTPM_STATE_OK);
}

TEST(vtpm_state, older_and_newer_formats_are_named)
{
	struct vtpm_state_key k;

	sealed(&k);
	ASSERT_EQ(derive_err, SVSM_OK);
	blob[0x08] = VTPM_STATE_FORMAT - 1;
	EXPECT_EQ(open_with(&k, blob_len, 0), VTPM_STATE_OLDER_FORMAT);
	blob[0x08] = VTPM_STATE_FORMAT + 1;
	EXPECT_EQ(open_with(&k, blob_len, 0), VTPM_STATE_NEWER_FORMAT);
	EXPECT_TRUE(out_is_zero());
}

static uint64_t old_tcb;

/* The key of @arg's identity for the TCB old_tcb, asked of the PSP. */
static void derive_old_tcb(void *arg)
{
	struct vtpm_state_key *k = arg;

	derive_err = guest_msg_derive_key(
		SNP_KEY_GFS_POLICY | SNP_KEY_GFS_MEASUREMENT | SNP_KEY_GFS_TCB,
		old_tcb, k->key);
}

TEST(vtpm_state, another_image_tcb_or_machine_cannot_open_it)
{
	struct vtpm_state_key k, other;
	struct sim_machine *m = sealed(&k);
	uint8_t measurement[48], secret[48];

	ASSERT_EQ(derive_err, SVSM_OK);
	/* Another MEASUREMENT on the same chip. */
	memcpy(measurement, k.id.measurement, sizeof(measurement));
	measurement[0] ^= 0x80;
	sim_psp_set_identity(m, NULL, measurement);
	other = key_of(m);
	ASSERT_EQ(derive_err, SVSM_OK);
	EXPECT_NE(memcmp(other.key, k.key, 32), 0);
	EXPECT_EQ(open_with(&other, blob_len, 0), VTPM_STATE_OTHER_IMAGE);
	EXPECT_TRUE(out_is_zero());
	sim_psp_set_identity(m, NULL, k.id.measurement);

	/* Sealed on this chip and image when the committed TCB was one
	 * boot loader SVN lower: the PSP still derives that key. */
	other = k;
	other.id.tcb = k.id.tcb - 1;
	old_tcb = other.id.tcb;
	ASSERT_TRUE(sim_snp_run(m, derive_old_tcb, &other, NULL, NULL));
	ASSERT_EQ(derive_err, SVSM_OK);
	EXPECT_NE(memcmp(other.key, k.key, 32), 0);
	ASSERT_EQ(vtpm_state_seal(&other, 7, iv, state, sizeof(state), blob,
				  sizeof(blob), &blob_len),
		  SVSM_OK);
	EXPECT_EQ(open_with(&other, blob_len, 0), VTPM_STATE_OK);
	EXPECT_EQ(open_with(&k, blob_len, 0), VTPM_STATE_OTHER_TCB);
	EXPECT_TRUE(out_is_zero());

	/* The same image on another chip. */
	ASSERT_EQ(vtpm_state_seal(&k, 7, iv, state, sizeof(state), blob,
				  sizeof(blob), &blob_len),
		  SVSM_OK);
	memset(secret, 0x5A, sizeof(secret));
	sim_psp_set_identity(m, secret, NULL);
	other = key_of(m);
	ASSERT_EQ(derive_err, SVSM_OK);
	EXPECT_NE(memcmp(other.key, k.key, 32), 0);
	EXPECT_EQ(open_with(&other, blob_len, 0), VTPM_STATE_OTHER_MACHINE);
	EXPECT_TRUE(out_is_zero());
}

TEST(vtpm_state, a_generation_below_the_floor_is_rolled_back)
{
	struct vtpm_state_key k;

	sealed(&k);
	ASSERT_EQ(derive_err, SVSM_OK);
	EXPECT_EQ(open_with(&k, blob_len, 7), VTPM_STATE_OK);
	EXPECT_EQ(open_with(&k, blob_len, 8), VTPM_STATE_ROLLED_BACK);
	EXPECT_TRUE(out_is_zero());
	/* The generation is authenticated: raising it breaks the tag. */
	blob[0x10] = 9;
	EXPECT_EQ(open_with(&k, blob_len, 8), VTPM_STATE_CORRUPT);
}

TEST(vtpm_state, outcomes_have_names)
{
	EXPECT_EQ(strcmp(vtpm_state_outcome_name(VTPM_STATE_ROLLED_BACK),
			 "rolled back"),
		  0);
	EXPECT_EQ(
		strcmp(vtpm_state_outcome_name(VTPM_STATE_MISSING), "missing"),
		0);
}
