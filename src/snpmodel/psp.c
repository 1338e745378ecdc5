/* SPDX-License-Identifier: MIT */
/*
 * The emulated PSP (svsm/psp_model.h). Its input, a guest message page,
 * comes through the hypervisor and is untrusted: every header field is
 * checked before the tag, and the payload is used only once the tag
 * authenticated it. The model never sees SVSM memory except the pages it
 * is given.
 */
#include "svsm/crypto.h"
#include "svsm/le.h"
#include "svsm/plat.h"
#include "svsm/psp_model.h"
#include "svsm/std.h"

#include "abi/svsm_attest.h"

#define REPORT_VERSION 3u
#define PAGE_INFO_LEN 0x70u

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

/* A key for MSG_KEY_REQ: HMAC of the chip secret over what selects it. */
static uint32_t make_key(struct psp_model *p, unsigned vmpck,
			 const uint8_t *req, size_t req_len, uint8_t *out,
			 size_t *out_len)
{
	struct snp_key_req k;
	/* The request (VMPL, selection, SVN, TCB), then what it selects. */
	uint8_t mix[sizeof(k) + SNP_MEASUREMENT_LEN + 8];
	uint8_t key[CRYPTO_SHA384_LEN];

	memset(out, 0, sizeof(struct snp_key_rsp));
	*out_len = sizeof(struct snp_key_rsp);
	if (req_len != sizeof(k)) {
		le_put32(out, SNP_MSG_STATUS_INVALID_PARAM);
		return PSP_STATUS_OK;
	}
	memcpy(&k, req, sizeof(k));
	if (k.vmpl < vmpck || k.vmpl > 3 || k.rsvd != 0 ||
	    (k.root_key_select & ~7u) != 0) {
		le_put32(out, SNP_MSG_STATUS_INVALID_PARAM);
		return PSP_STATUS_OK;
	}
	/* Bit 0 of guest_field_select mixes in the guest policy, bit 3
	 * the measurement (56860 Table 19); the requesting VMPL always. */
	memset(mix, 0, sizeof(mix));
	memcpy(mix, &k, sizeof(k));
	if (k.guest_field_select & (1u << 3)) {
		memcpy(mix + sizeof(k), p->measurement, SNP_MEASUREMENT_LEN);
	}
	if (k.guest_field_select & 1u) {
		le_put64(mix + sizeof(k) + SNP_MEASUREMENT_LEN, p->policy);
	}
	if (!crypto_hmac_sha384(p->chip_secret, sizeof(p->chip_secret), mix,
				sizeof(mix), key)) {
		return PSP_STATUS_INVALID_PARAM;
	}
	memcpy(out + offsetof(struct snp_key_rsp, key), key,
	       SNP_DERIVED_KEY_LEN);
	crypto_wipe(key, sizeof(key));
	return PSP_STATUS_OK;
}

uint32_t psp_guest_request(struct psp_model *p, const uint8_t *req,
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
