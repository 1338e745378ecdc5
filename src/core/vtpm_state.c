/* SPDX-License-Identifier: MIT */
/*
 * The vTPM's sealed state (svsm/vtpm_state.h). In core, not src/vtpm:
 * its key comes from the PSP through guest_msg (core), and the vtpm
 * floor sits below core (docs/architecture.md, "Floors").
 *
 * The blob, little-endian, VTPM_STATE_HDR_LEN bytes of header:
 *   0x00 magic "CSVSMvTS"     0x50 policy (u64)
 *   0x08 format (u32)         0x58 committed TCB of the key (u64)
 *   0x0C header length (u32)  0x60 key ID (16): HMAC of the key
 *   0x10 generation (u64)     0x70 AES-GCM IV (12)
 *   0x18 state length (u32)   0x7C reserved, zero (u32)
 *   0x1C reserved, zero (u32) 0x80 SHA-384 of the state (48)
 *   0x20 MEASUREMENT (48)
 * then the state under AES-256-GCM with the whole header as AAD, then
 * the 16-byte tag. The header is in clear: the host learns the sizes,
 * generation, identity and digest, none of them secret (the digest is
 * what the services manifest will publish).
 *
 * The untrusted blob is parsed field by field from SVSM memory, each
 * field read once; no state leaves open() unless the tag authenticated
 * it and its digest matches.
 */
#include "svsm/vtpm_state.h"

#include "svsm/crypto.h"
#include "svsm/guest_msg.h"
#include "svsm/le.h"
#include "svsm/std.h"

#include "abi/svsm_attest.h"

#define OFF_MAGIC 0x00u
#define OFF_FORMAT 0x08u
#define OFF_HDR_LEN 0x0Cu
#define OFF_GENERATION 0x10u
#define OFF_STATE_LEN 0x18u
#define OFF_RSVD1 0x1Cu
#define OFF_MEASUREMENT 0x20u
#define OFF_POLICY 0x50u
#define OFF_TCB 0x58u
#define OFF_KEY_ID 0x60u
#define OFF_IV 0x70u
#define OFF_RSVD2 0x7Cu
#define OFF_DIGEST 0x80u
_Static_assert(OFF_DIGEST + VTPM_STATE_DIGEST_LEN == VTPM_STATE_HDR_LEN,
	       "the digest ends the header");
_Static_assert(OFF_IV + VTPM_STATE_IV_LEN == OFF_RSVD2, "IV before rsvd");
_Static_assert(VTPM_STATE_IV_LEN == CRYPTO_GCM_IV_LEN, "GCM's IV");
_Static_assert(VTPM_STATE_TAG_LEN == CRYPTO_GCM_TAG_LEN, "GCM's tag");

static const uint8_t magic[8] = {'C', 'S', 'V', 'S', 'M', 'v', 'T', 'S'};

/* What the key request selects: the image, its policy, the TCB. */
#define KEY_FIELDS                                                             \
	(SNP_KEY_GFS_POLICY | SNP_KEY_GFS_MEASUREMENT | SNP_KEY_GFS_TCB)

enum svsm_err vtpm_state_key_derive(struct vtpm_state_key *k)
{
	static struct snp_report_rsp rsp;
	struct snp_report_req rr;
	size_t len = 0;
	enum svsm_err err = SVSM_E_INVAL;

	memset(k, 0, sizeof(*k));
	memset(&rr, 0, sizeof(rr));
	rr.vmpl = 0;
	/* The report is the PSP's word for the identity the key mixes in;
	 * the committed TCB is the highest it will derive a key for. */
	if (guest_msg_exchange(SNP_MSG_REPORT_REQ, &rr, sizeof(rr), &rsp,
			       sizeof(rsp), &len, NULL, NULL) != GMSG_OK ||
	    len != sizeof(rsp) || rsp.status != SNP_MSG_STATUS_SUCCESS) {
		return SVSM_E_INVAL;
	}
	memcpy(k->id.measurement, rsp.report + SNP_REPORT_OFF_MEASUREMENT,
	       SNP_MEASUREMENT_LEN);
	k->id.policy = le_get64(rsp.report + SNP_REPORT_OFF_POLICY);
	k->id.tcb = le_get64(rsp.report + SNP_REPORT_OFF_COMMITTED_TCB);
	err = guest_msg_derive_key(KEY_FIELDS, k->id.tcb, k->key);
	if (err != SVSM_OK) {
		crypto_wipe(k, sizeof(*k));
	}
	return err;
}

/* The key's ID: the first 16 bytes of HMAC-SHA-384(key, label). */
static bool key_id(const struct vtpm_state_key *k,
		   uint8_t id[VTPM_STATE_KEY_ID_LEN])
{
	uint8_t mac[CRYPTO_SHA384_LEN];
	static const char label[] = "csvsm vtpm state key id";

	if (!crypto_hmac_sha384(k->key, sizeof(k->key), label,
				sizeof(label) - 1, mac)) {
		return false;
	}
	memcpy(id, mac, VTPM_STATE_KEY_ID_LEN);
	return true;
}

bool vtpm_state_key_fingerprint(const struct vtpm_state_key *k, uint8_t fp[8])
{
	uint8_t id[VTPM_STATE_KEY_ID_LEN];
	uint8_t d[CRYPTO_SHA384_LEN];
	static const char label[] = "csvsm vtpm state key fingerprint";
	struct crypto_piece p[2] = {{label, sizeof(label) - 1},
				    {id, sizeof(id)}};

	if (!key_id(k, id) || !crypto_sha384(p, 2, d)) {
		return false;
	}
	memcpy(fp, d, 8);
	return true;
}

size_t vtpm_state_claimed_len(const uint8_t *hdr, size_t len)
{
	uint32_t state_len = 0;

	if (len < VTPM_STATE_HDR_LEN ||
	    memcmp(hdr + OFF_MAGIC, magic, sizeof(magic)) != 0 ||
	    le_get32(hdr + OFF_FORMAT) != VTPM_STATE_FORMAT) {
		return 0;
	}
	state_len = le_get32(hdr + OFF_STATE_LEN);
	if (state_len > VTPM_STATE_MAX_LEN) {
		return 0;
	}
	return vtpm_state_sealed_len(state_len);
}

size_t vtpm_state_sealed_len(size_t state_len)
{
	return VTPM_STATE_HDR_LEN + state_len + VTPM_STATE_TAG_LEN;
}

enum svsm_err vtpm_state_seal(const struct vtpm_state_key *k,
			      uint64_t generation,
			      const uint8_t iv[VTPM_STATE_IV_LEN],
			      const void *state, size_t len, uint8_t *blob,
			      size_t cap, size_t *blob_len)
{
	struct crypto_piece piece = {state, len};

	if (len > VTPM_STATE_MAX_LEN || cap < vtpm_state_sealed_len(len)) {
		return SVSM_E_INVAL;
	}
	memset(blob, 0, VTPM_STATE_HDR_LEN);
	memcpy(blob + OFF_MAGIC, magic, sizeof(magic));
	le_put32(blob + OFF_FORMAT, VTPM_STATE_FORMAT);
	le_put32(blob + OFF_HDR_LEN, VTPM_STATE_HDR_LEN);
	le_put64(blob + OFF_GENERATION, generation);
	le_put32(blob + OFF_STATE_LEN, (uint32_t)len);
	memcpy(blob + OFF_MEASUREMENT, k->id.measurement,
	       sizeof(k->id.measurement));
	le_put64(blob + OFF_POLICY, k->id.policy);
	le_put64(blob + OFF_TCB, k->id.tcb);
	memcpy(blob + OFF_IV, iv, VTPM_STATE_IV_LEN);
	if (!key_id(k, blob + OFF_KEY_ID) ||
	    !crypto_sha384(&piece, 1, blob + OFF_DIGEST) ||
	    !crypto_gcm_seal(k->key, iv, blob, VTPM_STATE_HDR_LEN, state, len,
			     blob + VTPM_STATE_HDR_LEN,
			     blob + VTPM_STATE_HDR_LEN + len)) {
		return SVSM_E_INVAL;
	}
	*blob_len = vtpm_state_sealed_len(len);
	return SVSM_OK;
}

/* Whom a blob whose key ID is not ours was sealed for, as its header
 * says. The header is the host's to edit: this names what the bytes
 * claim, and every answer refuses the blob alike. */
static enum vtpm_state_outcome other_key(const struct vtpm_state_key *k,
					 const struct vtpm_state_id *them)
{
	if (memcmp(them->measurement, k->id.measurement,
		   sizeof(them->measurement)) != 0 ||
	    them->policy != k->id.policy) {
		return VTPM_STATE_OTHER_IMAGE;
	}
	if (them->tcb != k->id.tcb) {
		return VTPM_STATE_OTHER_TCB;
	}
	return VTPM_STATE_OTHER_MACHINE;
}

/* Parse the header of @blob (at least VTPM_STATE_HDR_LEN bytes) into
 * @info; CORRUPT or a format outcome if it is not one of ours. */
static enum vtpm_state_outcome parse_header(const uint8_t *blob,
					    struct vtpm_state_info *info)
{
	if (memcmp(blob + OFF_MAGIC, magic, sizeof(magic)) != 0) {
		return VTPM_STATE_CORRUPT;
	}
	info->format = le_get32(blob + OFF_FORMAT);
	/* Formats are numbered from 1; every older one (0 stands for the
	 * pre-release layouts) gets its outcome, for a migration to act on,
	 * before any field of ours is read from it. */
	if (info->format < VTPM_STATE_FORMAT) {
		return VTPM_STATE_OLDER_FORMAT;
	}
	if (info->format > VTPM_STATE_FORMAT) {
		return VTPM_STATE_NEWER_FORMAT;
	}
	if (le_get32(blob + OFF_HDR_LEN) != VTPM_STATE_HDR_LEN ||
	    le_get32(blob + OFF_RSVD1) != 0 ||
	    le_get32(blob + OFF_RSVD2) != 0) {
		return VTPM_STATE_CORRUPT;
	}
	info->generation = le_get64(blob + OFF_GENERATION);
	info->state_len = le_get32(blob + OFF_STATE_LEN);
	memcpy(info->digest, blob + OFF_DIGEST, sizeof(info->digest));
	memcpy(info->id.measurement, blob + OFF_MEASUREMENT,
	       sizeof(info->id.measurement));
	info->id.policy = le_get64(blob + OFF_POLICY);
	info->id.tcb = le_get64(blob + OFF_TCB);
	if (info->state_len > VTPM_STATE_MAX_LEN) {
		return VTPM_STATE_CORRUPT;
	}
	return VTPM_STATE_OK;
}

enum vtpm_state_outcome vtpm_state_open(const struct vtpm_state_key *k,
					const uint8_t *blob, size_t len,
					uint64_t floor, uint8_t *state,
					size_t cap,
					struct vtpm_state_info *info)
{
	uint8_t id[VTPM_STATE_KEY_ID_LEN];
	uint8_t digest[CRYPTO_SHA384_LEN];
	struct crypto_piece piece = {state, 0};
	enum vtpm_state_outcome o;
	size_t need = 0;

	memset(info, 0, sizeof(*info));
	memset(state, 0, cap);
	if (len == 0) {
		return VTPM_STATE_MISSING;
	}
	if (len < VTPM_STATE_HDR_LEN) {
		return VTPM_STATE_TRUNCATED;
	}
	o = parse_header(blob, info);
	if (o != VTPM_STATE_OK) {
		return o;
	}
	/* state_len is at most VTPM_STATE_MAX_LEN: no overflow. */
	need = vtpm_state_sealed_len(info->state_len);
	if (len < need) {
		return VTPM_STATE_TRUNCATED;
	}
	if (len > need || info->state_len > cap) {
		return VTPM_STATE_CORRUPT;
	}
	if (!key_id(k, id)) {
		return VTPM_STATE_CORRUPT;
	}
	if (memcmp(id, blob + OFF_KEY_ID, sizeof(id)) != 0) {
		return other_key(k, &info->id);
	}
	/* Our key's ID: a tag that fails now is bytes changed since they
	 * were sealed (by the host or the medium). */
	if (!crypto_gcm_open(k->key, blob + OFF_IV, blob, VTPM_STATE_HDR_LEN,
			     blob + VTPM_STATE_HDR_LEN, info->state_len, state,
			     blob + VTPM_STATE_HDR_LEN + info->state_len)) {
		memset(state, 0, cap);
		return VTPM_STATE_CORRUPT;
	}
	piece.len = info->state_len;
	if (!crypto_sha384(&piece, 1, digest) ||
	    memcmp(digest, info->digest, sizeof(digest)) != 0) {
		memset(state, 0, cap);
		return VTPM_STATE_CORRUPT;
	}
	/* Authentic and whole, but older than what the caller knows was
	 * written since: the host replayed a copy (T: rollback). */
	if (info->generation < floor) {
		memset(state, 0, cap);
		return VTPM_STATE_ROLLED_BACK;
	}
	return VTPM_STATE_OK;
}

const char *vtpm_state_outcome_name(enum vtpm_state_outcome o)
{
	switch (o) {
	case VTPM_STATE_OK:
		return "ok";
	case VTPM_STATE_MISSING:
		return "missing";
	case VTPM_STATE_TRUNCATED:
		return "truncated";
	case VTPM_STATE_CORRUPT:
		return "corrupt";
	case VTPM_STATE_OLDER_FORMAT:
		return "older format";
	case VTPM_STATE_NEWER_FORMAT:
		return "newer format";
	case VTPM_STATE_OTHER_IMAGE:
		return "another image";
	case VTPM_STATE_OTHER_TCB:
		return "another TCB";
	case VTPM_STATE_OTHER_MACHINE:
		return "another machine";
	case VTPM_STATE_ROLLED_BACK:
		return "rolled back";
	case VTPM_STATE_REFUSED:
		return "refused by the engine";
	default:
		return "unknown";
	}
}
