/* SPDX-License-Identifier: MIT */
/*
 * The vTPM's permanent state sealed for storage the host keeps (issue 28;
 * docs/vtpm.md, "Persistent state"). A blob is a header in
 * clear (authenticated as AES-256-GCM's AAD), the state encrypted, and
 * the tag. The key is the PSP's (MSG_KEY_REQ at VMPL0) over this launch's
 * MEASUREMENT, policy and committed TCB: no other image, machine or
 * VMPL1+ guest can derive it.
 *
 * The host may drop, truncate, corrupt, replay or swap a blob. Opening
 * one names what was found (enum vtpm_state_outcome) and hands out state
 * only for VTPM_STATE_OK; it never decides to start a fresh TPM: the
 * caller does, knowing which outcome it saw.
 */
#ifndef SVSM_VTPM_STATE_H
#define SVSM_VTPM_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/err.h"

#define VTPM_STATE_FORMAT 1u /* the format this code writes and opens */
#define VTPM_STATE_HDR_LEN 0xB0u
#define VTPM_STATE_TAG_LEN 16u
#define VTPM_STATE_IV_LEN 12u
#define VTPM_STATE_DIGEST_LEN 48u /* SHA-384 of the state */
#define VTPM_STATE_KEY_ID_LEN 16u
/* The largest state a blob may say it holds (libtpms' permanent state is
 * tens of KiB); a larger length is corrupt, whatever the caller's room. */
#define VTPM_STATE_MAX_LEN (1u << 20)

/** Who the key is for: what the PSP mixed into it. */
struct vtpm_state_id {
	uint8_t measurement[48];
	uint64_t policy;
	uint64_t tcb; /* the committed TCB the key was asked for */
};

/** A sealing key and the identity it belongs to. Never leaves SVSM
 * memory; wipe it with crypto_wipe(). */
struct vtpm_state_key {
	uint8_t key[32];
	struct vtpm_state_id id;
};

/** What a blob turned out to be. Only VTPM_STATE_OK gives state. */
enum vtpm_state_outcome {
	VTPM_STATE_OK = 0,
	VTPM_STATE_MISSING,	  /* no bytes: nothing was ever stored */
	VTPM_STATE_TRUNCATED,	  /* shorter than its header says */
	VTPM_STATE_CORRUPT,	  /* malformed, or the tag fails */
	VTPM_STATE_OLDER_FORMAT,  /* a format before VTPM_STATE_FORMAT */
	VTPM_STATE_NEWER_FORMAT,  /* a format this code does not know */
	VTPM_STATE_OTHER_IMAGE,	  /* another MEASUREMENT or policy's key */
	VTPM_STATE_OTHER_TCB,	  /* sealed under another committed TCB */
	VTPM_STATE_OTHER_MACHINE, /* same identity, another chip's key */
	VTPM_STATE_ROLLED_BACK,	  /* authentic, generation below the floor */
	VTPM_STATE_REFUSED,	  /* authentic; the engine could not start */
};

/** What the header of an opened blob says (valid from OTHER_* on). */
struct vtpm_state_info {
	uint32_t format;
	uint64_t generation;
	uint32_t state_len;
	uint8_t digest[VTPM_STATE_DIGEST_LEN];
	struct vtpm_state_id id; /* whom the blob says it was sealed for */
};

/**
 * The sealing key of this launch, asked of the PSP through VMPL0's guest
 * channel: a report for the launch's MEASUREMENT, policy and committed
 * TCB, then MSG_KEY_REQ mixing all three in.
 */
enum svsm_err vtpm_state_key_derive(struct vtpm_state_key *k);

/** A short fingerprint of @k for logs: SHA-384 of a label and the key's
 * ID, its first 8 bytes. Reveals nothing about the key. */
bool vtpm_state_key_fingerprint(const struct vtpm_state_key *k, uint8_t fp[8]);

/**
 * The length of the whole blob the untrusted header @hdr (@len bytes)
 * claims, for reading the rest of it: 0 if @hdr is too short, not of
 * this format or claims a state over VTPM_STATE_MAX_LEN. Only a guide:
 * vtpm_state_open() checks everything again.
 */
size_t vtpm_state_claimed_len(const uint8_t *hdr, size_t len);

/** The size of the blob that seals @state_len bytes. */
size_t vtpm_state_sealed_len(size_t state_len);

/**
 * Seal @len bytes of @state as @generation under @k with the caller's
 * fresh random @iv into @blob (@cap bytes), its length in *@blob_len.
 */
enum svsm_err vtpm_state_seal(const struct vtpm_state_key *k,
			      uint64_t generation,
			      const uint8_t iv[VTPM_STATE_IV_LEN],
			      const void *state, size_t len, uint8_t *blob,
			      size_t cap, size_t *blob_len);

/**
 * Open the untrusted @blob (@len bytes, SVSM memory) under @k: the
 * state into @state (@cap bytes) only when the outcome is VTPM_STATE_OK;
 * else @state is zero. A generation below @floor is ROLLED_BACK. @info
 * gets what the header says once the header parsed.
 */
enum vtpm_state_outcome vtpm_state_open(const struct vtpm_state_key *k,
					const uint8_t *blob, size_t len,
					uint64_t floor, uint8_t *state,
					size_t cap,
					struct vtpm_state_info *info);

/** The outcome's name, for logs and tests. */
const char *vtpm_state_outcome_name(enum vtpm_state_outcome o);

#endif /* SVSM_VTPM_STATE_H */
