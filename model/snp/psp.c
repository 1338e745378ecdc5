/* SPDX-License-Identifier: MIT */
/*
 * The emulated PSP (model/psp_model.h). Its input, a guest message page,
 * comes through the hypervisor and is untrusted: every header field is
 * checked before the tag, and the payload is used only once the tag
 * authenticated it. The model never sees SVSM memory except the pages it
 * is given.
 */
#include "svsm/crypto.h"
#include "svsm/le.h"
#include "svsm/plat.h"
#include "svsm/std.h"

#include "abi/svsm_attest.h"

#include "model/psp_model.h"

#define REPORT_VERSION 3u
#define PAGE_INFO_LEN 0x70u
/* No ID block: the launch's guest SVN is 0 (56860 Table 19). */
#define PSP_LAUNCH_GUEST_SVN 0u

void psp_init(struct psp_model *p, const struct psp_identity *id,
	      const uint8_t *entropy, uint64_t policy)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->vmpck, entropy, sizeof(p->vmpck));
	memcpy(p->chip_secret, entropy + sizeof(p->vmpck),
	       sizeof(p->chip_secret));
	p->id = id;
	p->policy = policy;
}

bool psp_launch_digest_page(uint8_t digest[48], uint64_t gpa,
			    enum psp_page_type type, const uint8_t *page)
{
	/* PAGE_INFO (56860 Table 67): the running digest, the page's
	 * digest, length, type, IMI, VMPL3..1 permissions, reserved, GPA. */
	uint8_t info[PAGE_INFO_LEN];
	struct crypto_piece piece = {page, 4096};
	struct crypto_piece all = {info, sizeof(info)};

	memset(info, 0, sizeof(info));
	memcpy(info, digest, 48);
	if (type == PSP_PAGE_NORMAL || type == PSP_PAGE_VMSA) {
		if (page == NULL || !crypto_sha384(&piece, 1, info + 48)) {
			return false;
		}
	}
	info[0x60] = PAGE_INFO_LEN;
	info[0x62] = (uint8_t)type;
	le_put64(info + 0x68, gpa);
	return crypto_sha384(&all, 1, digest);
}

/* The header of a request the model accepts, checked before the tag. */
static bool request_header_ok(const struct psp_model *p,
			      const struct snp_guest_msg_hdr *h)
{
	return h->algo == SNP_AEAD_AES_256_GCM &&
	       h->hdr_version == SNP_GUEST_MSG_HDR_VERSION &&
	       h->hdr_sz == SNP_GUEST_MSG_HDR_SIZE && h->msg_version == 1 &&
	       h->msg_vmpck < PSP_VMPCK_COUNT &&
	       h->msg_sz <= SNP_GUEST_MSG_MAX_PAYLOAD &&
	       h->msg_seqno == p->last_seqno[h->msg_vmpck] + 1 &&
	       h->msg_seqno < UINT64_MAX - 2;
}

/* The report for a MSG_REPORT_REQ from @vmpck (VMPL floor = @vmpck). */
static uint32_t make_report(struct psp_model *p, unsigned vmpck,
			    const uint8_t *req, size_t req_len, uint8_t *out,
			    size_t *out_len)
{
	struct snp_report_req r;
	uint8_t *rep = out + offsetof(struct snp_report_rsp, report);
	uint8_t rs[2][CRYPTO_P384_LEN];
	unsigned i;

	memset(out, 0, sizeof(struct snp_report_rsp));
	*out_len = sizeof(struct snp_report_rsp);
	if (req_len != sizeof(r)) {
		le_put32(out, SNP_MSG_STATUS_INVALID_PARAM);
		return PSP_STATUS_OK;
	}
	memcpy(&r, req, sizeof(r));
	if (r.vmpl < vmpck || r.vmpl > 3 || r.key_sel > 1) {
		le_put32(out, SNP_MSG_STATUS_INVALID_PARAM);
		return PSP_STATUS_OK;
	}
	le_put32(out + 4, SNP_REPORT_SIZE);
	le_put32(rep + SNP_REPORT_OFF_VERSION, REPORT_VERSION);
	le_put64(rep + SNP_REPORT_OFF_POLICY, p->policy);
	le_put32(rep + SNP_REPORT_OFF_VMPL, r.vmpl);
	le_put32(rep + SNP_REPORT_OFF_SIG_ALGO, SNP_SIG_ALGO_ECDSA_P384_SHA384);
	le_put64(rep + SNP_REPORT_OFF_CURRENT_TCB, p->id->reported_tcb);
	memcpy(rep + SNP_REPORT_OFF_REPORT_DATA, r.user_data,
	       SNP_REPORT_DATA_LEN);
	memcpy(rep + SNP_REPORT_OFF_MEASUREMENT, p->measurement,
	       SNP_MEASUREMENT_LEN);
	/* REPORT_ID: stable per guest, from the chip secret. */
	if (!crypto_hmac_sha384(p->chip_secret, sizeof(p->chip_secret),
				"report-id", 9, rs[0])) {
		return PSP_STATUS_INVALID_PARAM;
	}
	memcpy(rep + SNP_REPORT_OFF_REPORT_ID, rs[0], 32);
	le_put64(rep + SNP_REPORT_OFF_REPORTED_TCB, p->id->reported_tcb);
	/* The model's TCB never moves: committed = launch = current. */
	le_put64(rep + SNP_REPORT_OFF_COMMITTED_TCB, p->id->reported_tcb);
	le_put64(rep + SNP_REPORT_OFF_LAUNCH_TCB, p->id->reported_tcb);
	memcpy(rep + SNP_REPORT_OFF_CHIP_ID, p->id->chip_id, SNP_CHIP_ID_LEN);
	if (!crypto_p384_sign(p->id->vcek_key_der, p->id->vcek_key_len, rep,
			      SNP_REPORT_SIGNED_LEN, rs[0], rs[1])) {
		return PSP_STATUS_INVALID_PARAM;
	}
	/* R and S little-endian in 72-byte fields. */
	for (i = 0; i < CRYPTO_P384_LEN; i++) {
		rep[SNP_REPORT_OFF_SIGNATURE + i] =
			rs[0][CRYPTO_P384_LEN - 1 - i];
		rep[SNP_REPORT_OFF_SIGNATURE + SNP_REPORT_SIG_COMPONENT + i] =
			rs[1][CRYPTO_P384_LEN - 1 - i];
	}
	p->reports++;
	if (p->fault == PSP_FAULT_TRUNCATED) {
		*out_len = offsetof(struct snp_report_rsp, report) + 0x100;
	}
	if (p->fault == PSP_FAULT_BAD_STATUS) {
		le_put32(out, SNP_MSG_STATUS_INVALID_PARAM);
	}
	return PSP_STATUS_OK;
}

/* MSG_KEY_REQ's fields (56860, MSG_KEY_REQ, Table 19). */
#define KEY_ROOT_VMRK 1u	/* ROOT_KEY_SELECT [0]: 1 VMRK */
#define KEY_SEL_SHIFT 1u	/* KEY_SEL [2:1] */
#define KEY_SEL_VLEK 1u		/* 0: VLEK if installed, else VCEK */
#define KEY_SEL_RESERVED 3u	/* 2: VCEK */
#define KEY_ROOT_RESERVED (~7u) /* [31:3] */
#define GFS_DEFINED 0x3Full	/* message version 1: [5:0]; [63:6] MBZ */

/* Every component (a byte each: boot loader, TEE, SNP, microcode and the
 * reserved ones) of @tcb at most @bound's: "must not exceed". */
static bool tcb_within(uint64_t tcb, uint64_t bound)
{
	unsigned i;

	for (i = 0; i < 64; i += 8) {
		if (((tcb >> i) & 0xFFu) > ((bound >> i) & 0xFFu)) {
			return false;
		}
	}
	return true;
}

/* The status a MSG_KEY_REQ gets before any key is made (56860 Table 19
 * and Table 24): reserved bits, the VMPL floor of the requesting VMPCK,
 * an SVN above the launch's (no ID block here: 0), a TCB above the
 * committed one; a root key the chip lacks (no VMRK: no migration
 * agent; no VLEK installed) is INVALID_KEY. */
static uint32_t key_request_status(const struct psp_model *p, unsigned vmpck,
				   const struct snp_key_req *k)
{
	unsigned key_sel = (k->root_key_select >> KEY_SEL_SHIFT) & 3u;

	if ((k->root_key_select & KEY_ROOT_RESERVED) != 0 || k->rsvd != 0 ||
	    key_sel == KEY_SEL_RESERVED ||
	    (k->guest_field_select & ~GFS_DEFINED) != 0) {
		return SNP_MSG_STATUS_INVALID_PARAM;
	}
	/* T: a VMPL1+ guest asking for the SVSM's (VMPL0) sealing key. */
	if (k->vmpl < vmpck || k->vmpl > 3) {
		return SNP_MSG_STATUS_INVALID_PARAM;
	}
	if (k->guest_svn > PSP_LAUNCH_GUEST_SVN ||
	    !tcb_within(k->tcb_version, p->id->reported_tcb)) {
		return SNP_MSG_STATUS_INVALID_PARAM;
	}
	if ((k->root_key_select & KEY_ROOT_VMRK) != 0 ||
	    key_sel == KEY_SEL_VLEK) {
		return SNP_MSG_STATUS_INVALID_KEY;
	}
	return SNP_MSG_STATUS_SUCCESS;
}

/* What a derived key mixes in (the model's form of the ABI's KDF input):
 * the requested VMPL, the selection itself, then each guest field, the
 * selected ones' values and zero for the others. */
struct key_mix {
	uint8_t label[16];
	uint8_t vmpl[4];
	uint8_t select[8];
	uint8_t policy[8];
	uint8_t image_id[16];
	uint8_t family_id[16];
	uint8_t measurement[SNP_MEASUREMENT_LEN];
	uint8_t svn[4];
	uint8_t tcb[8];
};

/* A key for MSG_KEY_REQ: HMAC-SHA-384 under the chip secret (the VCEK's
 * root: VCEK is the only root key the model has) of key_mix. The image
 * and family IDs come from an ID block, which the model's launch has
 * not: zero, as the report shows them. */
static uint32_t make_key(struct psp_model *p, unsigned vmpck,
			 const uint8_t *req, size_t req_len, uint8_t *out,
			 size_t *out_len)
{
	struct snp_key_req k;
	struct key_mix mix;
	uint8_t key[CRYPTO_SHA384_LEN];
	uint32_t status;

	memset(out, 0, sizeof(struct snp_key_rsp));
	*out_len = sizeof(struct snp_key_rsp);
	if (req_len != sizeof(k)) {
		le_put32(out, SNP_MSG_STATUS_INVALID_PARAM);
		return PSP_STATUS_OK;
	}
	memcpy(&k, req, sizeof(k));
	status = key_request_status(p, vmpck, &k);
	if (status != SNP_MSG_STATUS_SUCCESS) {
		le_put32(out, status);
		return PSP_STATUS_OK;
	}
	memset(&mix, 0, sizeof(mix));
	memcpy(mix.label, "csvsm-psp-key-1", 15);
	le_put32(mix.vmpl, k.vmpl);
	le_put64(mix.select, k.guest_field_select);
	if ((k.guest_field_select & SNP_KEY_GFS_POLICY) != 0) {
		le_put64(mix.policy, p->policy);
	}
	if ((k.guest_field_select & SNP_KEY_GFS_MEASUREMENT) != 0) {
		memcpy(mix.measurement, p->measurement, SNP_MEASUREMENT_LEN);
	}
	if ((k.guest_field_select & SNP_KEY_GFS_SVN) != 0) {
		le_put32(mix.svn, k.guest_svn);
	}
	if ((k.guest_field_select & SNP_KEY_GFS_TCB) != 0) {
		le_put64(mix.tcb, k.tcb_version);
	}
	if (!crypto_hmac_sha384(p->chip_secret, sizeof(p->chip_secret), &mix,
				sizeof(mix), key)) {
		return PSP_STATUS_INVALID_PARAM;
	}
	memcpy(out + offsetof(struct snp_key_rsp, key), key,
	       SNP_DERIVED_KEY_LEN);
	crypto_wipe(key, sizeof(key));
	return PSP_STATUS_OK;
}

static uint32_t guest_request(struct psp_model *p, const uint8_t *req,
			      uint8_t *rsp)
{
	struct snp_guest_msg_hdr h;
	struct snp_guest_msg_hdr *rh = (struct snp_guest_msg_hdr *)rsp;
	uint8_t in[SNP_GUEST_MSG_MAX_PAYLOAD];
	uint8_t out[SNP_GUEST_MSG_MAX_PAYLOAD];
	uint8_t iv[CRYPTO_GCM_IV_LEN];
	size_t out_len = 0;
	uint32_t st;

	memcpy(&h, req, sizeof(h));
	if (!request_header_ok(p, &h)) {
		return PSP_STATUS_INVALID_PARAM;
	}
	snp_guest_msg_iv(h.msg_seqno, iv);
	if (!crypto_gcm_open(p->vmpck[h.msg_vmpck], iv,
			     req + SNP_GUEST_MSG_AAD_OFF, SNP_GUEST_MSG_AAD_LEN,
			     req + SNP_GUEST_MSG_HDR_SIZE, h.msg_sz, in,
			     h.authtag)) {
		return PSP_STATUS_INVALID_PARAM;
	}
	switch (h.msg_type) {
	case SNP_MSG_REPORT_REQ:
		st = make_report(p, h.msg_vmpck, in, h.msg_sz, out, &out_len);
		break;
	case SNP_MSG_KEY_REQ:
		st = make_key(p, h.msg_vmpck, in, h.msg_sz, out, &out_len);
		break;
	default:
		st = PSP_STATUS_INVALID_PARAM;
		break;
	}
	crypto_wipe(in, sizeof(in));
	if (st != PSP_STATUS_OK) {
		return st;
	}
	/* The request's number is used: a replay of it is refused. */
	p->last_seqno[h.msg_vmpck] = h.msg_seqno + 1;

	memset(rsp, 0, SNP_GUEST_MSG_PAGE);
	rh->msg_seqno = h.msg_seqno + 1;
	rh->algo = SNP_AEAD_AES_256_GCM;
	rh->hdr_version = SNP_GUEST_MSG_HDR_VERSION;
	rh->hdr_sz = SNP_GUEST_MSG_HDR_SIZE;
	rh->msg_type = (uint8_t)(h.msg_type + 1);
	rh->msg_version = h.msg_version;
	rh->msg_sz = (uint16_t)out_len;
	rh->msg_vmpck = h.msg_vmpck;
	if (p->fault == PSP_FAULT_WRONG_SEQNO) {
		rh->msg_seqno += 2;
	}
	if (p->fault == PSP_FAULT_WRONG_TYPE) {
		rh->msg_type = h.msg_type;
	}
	snp_guest_msg_iv(rh->msg_seqno, iv);
	if (!crypto_gcm_seal(p->vmpck[h.msg_vmpck], iv,
			     rsp + SNP_GUEST_MSG_AAD_OFF, SNP_GUEST_MSG_AAD_LEN,
			     out, out_len, rsp + SNP_GUEST_MSG_HDR_SIZE,
			     rh->authtag)) {
		return PSP_STATUS_INVALID_PARAM;
	}
	crypto_wipe(out, sizeof(out));
	if (p->fault == PSP_FAULT_BAD_TAG) {
		rh->authtag[0] ^= 0x80;
	}
	return PSP_STATUS_OK;
}

/* One command at a time: two requests that carry one sequence number
 * must not both pass its check before either consumes it (a replay
 * accepted, two responses sealed under one AES-GCM IV). The firmware
 * does not rely on the host to serialise its mailbox. */
uint32_t psp_guest_request(struct psp_model *p, const uint8_t *req,
			   uint8_t *rsp)
{
	uint32_t st;

	while (__atomic_test_and_set(&p->busy, __ATOMIC_ACQUIRE)) {
		__builtin_ia32_pause();
	}
	st = guest_request(p, req, rsp);
	__atomic_clear(&p->busy, __ATOMIC_RELEASE);
	return st;
}

uint64_t psp_host_guest_request(struct psp_model *p, const uint8_t *req,
				uint8_t *rsp, void *certs, size_t *certs_len)
{
	const struct psp_identity *id = p->id;
	uint32_t st;

	if (certs != NULL && *certs_len < id->certs_len) {
		*certs_len = id->certs_len;
		return (uint64_t)PLAT_GREQ_VMM_INVALID_LEN << 32;
	}
	st = psp_guest_request(p, req, rsp);
	if (st != PSP_STATUS_OK) {
		return st;
	}
	if (certs != NULL) {
		memcpy(certs, id->certs, id->certs_len);
		*certs_len = id->certs_len;
	}
	return 0;
}
