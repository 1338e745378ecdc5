/* SPDX-License-Identifier: MIT */
/*
 * SNP guest messages from the SVSM to the PSP (svsm/guest_msg.h). Threats:
 * the hypervisor carries every message and may drop, delay, replay or
 * alter it (T16 in docs/threat-model.md). It cannot forge one: responses
 * are AES-256-GCM under VMPCK0, with the header as AAD, and the number
 * and type are checked before the payload is used.
 */
#include "svsm/guest_msg.h"

#include "svsm/crypto.h"
#include "svsm/log.h"
#include "svsm/plat.h"
#include "svsm/spinlock.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/svsm_attest.h"

/*
 * BUSY is an honest host whose PSP queue is full for now. Linux
 * (drivers/virt/coco/sev-guest, __handle_guest_request) resends the
 * identical message every SNP_REQ_RETRY_DELAY (2 s) until
 * SNP_REQ_MAX_RETRY_DURATION (60 s) has passed; the SVSM does the same
 * within one call, and never more than BUSY_MAX_RETRIES times whatever
 * the clock says. The clock is the TSC (plat_clock_ns), which on SNP
 * without Secure TSC the hypervisor controls: a lying clock can stretch
 * the waits (so could not running the vCPU at all) or shrink them to
 * nothing (then the retries come back to back, at most
 * BUSY_MAX_RETRIES). Only availability depends on it: what is resent
 * is always the same sealed bytes.
 */
#define BUSY_DELAY_NS (2ull * 1000000000ull)
#define BUSY_MAX_NS (60ull * 1000000000ull)
#define BUSY_MAX_RETRIES 30u

static struct spinlock gmsg_lock;
static uint8_t vmpck0[SNP_VMPCK_LEN];
static bool have_key;
static uint64_t last_seqno; /* of the last response; 0 before the first */
static uint8_t req_page[SNP_GUEST_MSG_PAGE] __attribute__((aligned(4096)));
static uint8_t rsp_page[SNP_GUEST_MSG_PAGE] __attribute__((aligned(4096)));
/*
 * A request the host took but did not answer (still BUSY at the bound,
 * or an error in exit_info_2): it may or may not have reached the PSP,
 * so its number is spoken for. It stays sealed in req_page and is resent
 * identically before anything new is sealed, never replaced: no IV ever
 * carries two plaintexts, and the numbers stay in step with the PSP's
 * (which moves only when it answers). Its late answer is checked like
 * any other and then dropped: the call that wanted it has failed.
 */
static bool pending;
static uint8_t pending_type;

/* One call's allowance of BUSY retries. */
struct busy_budget {
	uint64_t start;
	unsigned retries;
};

static void wipe_key(const char *why)
{
	crypto_wipe(vmpck0, sizeof(vmpck0));
	have_key = false;
	pending = false;
	LOG_NOTICE("guest messages: VMPCK0 wiped (%s); attestation is off",
		   why);
}

void guest_msg_init(const uint8_t *key)
{
	size_t i;

	spin_init(&gmsg_lock);
	last_seqno = 0;
	pending = false;
	have_key = false;
	for (i = 0; i < SNP_VMPCK_LEN; i++) {
		have_key = have_key || key[i] != 0;
	}
	memcpy(vmpck0, key, sizeof(vmpck0));
}

bool guest_msg_available(void)
{
	return have_key;
}

enum gmsg_decode guest_msg_decode(const uint8_t key[32], uint64_t seqno,
				  uint8_t type, uint8_t *page, size_t cap,
				  size_t *len)
{
	struct snp_guest_msg_hdr h;
	uint8_t iv[CRYPTO_GCM_IV_LEN];

	memcpy(&h, page, sizeof(h));
	if (h.algo != SNP_AEAD_AES_256_GCM ||
	    h.hdr_version != SNP_GUEST_MSG_HDR_VERSION ||
	    h.hdr_sz != SNP_GUEST_MSG_HDR_SIZE || h.msg_version != 1 ||
	    h.msg_vmpck != 0) {
		return GMSG_DECODE_BAD_HEADER;
	}
	if (h.msg_seqno != seqno) {
		return GMSG_DECODE_BAD_SEQNO;
	}
	if (h.msg_type != type) {
		return GMSG_DECODE_BAD_TYPE;
	}
	if (h.msg_sz > SNP_GUEST_MSG_MAX_PAYLOAD || h.msg_sz > cap) {
		return GMSG_DECODE_BAD_SIZE;
	}
	snp_guest_msg_iv(seqno, iv);
	if (!crypto_gcm_open(key, iv, page + SNP_GUEST_MSG_AAD_OFF,
			     SNP_GUEST_MSG_AAD_LEN,
			     page + SNP_GUEST_MSG_HDR_SIZE, h.msg_sz,
			     page + SNP_GUEST_MSG_HDR_SIZE, h.authtag)) {
		return GMSG_DECODE_BAD_TAG;
	}
	*len = h.msg_sz;
	return GMSG_DECODE_OK;
}

static bool seal_request(uint8_t type, const void *req, size_t req_len)
{
	struct snp_guest_msg_hdr *h = (struct snp_guest_msg_hdr *)req_page;
	uint8_t iv[CRYPTO_GCM_IV_LEN];

	memset(req_page, 0, sizeof(req_page));
	h->msg_seqno = last_seqno + 1;
	h->algo = SNP_AEAD_AES_256_GCM;
	h->hdr_version = SNP_GUEST_MSG_HDR_VERSION;
	h->hdr_sz = SNP_GUEST_MSG_HDR_SIZE;
	h->msg_type = type;
	h->msg_version = 1;
	h->msg_sz = (uint16_t)req_len;
	h->msg_vmpck = 0;
	snp_guest_msg_iv(h->msg_seqno, iv);
	return crypto_gcm_seal(vmpck0, iv, req_page + SNP_GUEST_MSG_AAD_OFF,
			       SNP_GUEST_MSG_AAD_LEN, req, req_len,
			       req_page + SNP_GUEST_MSG_HDR_SIZE, h->authtag);
}

/* May the caller wait and resend once more? A clock that went backwards
 * gives a huge elapsed time: the budget ends. */
static bool busy_wait(struct busy_budget *b)
{
	if (b->retries >= BUSY_MAX_RETRIES ||
	    plat_clock_ns() - b->start >= BUSY_MAX_NS) {
		return false;
	}
	b->retries++;
	plat_delay_ns(BUSY_DELAY_NS);
	return true;
}

/* Send the sealed request in req_page, resending the identical page
 * while the host answers BUSY and @b allows. */
static uint64_t send(struct busy_budget *b, void *certs, size_t *certs_len)
{
	size_t cap = *certs_len;
	uint64_t ret;

	for (;;) {
		*certs_len = cap;
		ret = plat_guest_request(req_page, rsp_page, certs, certs_len);
		if ((ret >> 32) != PLAT_GREQ_VMM_BUSY || !busy_wait(b)) {
			return ret;
		}
	}
}

/*
 * The host's answer @ret to the request in req_page (number last + 1,
 * @type). Unanswered, the request stays pending and the key is kept: the
 * host may delay or refuse (availability), not make the SVSM reuse an
 * IV. An answer that fails its checks is tampering.
 */
static enum gmsg_status answered(uint64_t ret, uint8_t type, size_t cap,
				 size_t *len)
{
	enum gmsg_decode d;

	if (ret != 0) {
		pending = true;
		pending_type = type;
		if ((ret >> 32) == PLAT_GREQ_VMM_BUSY) {
			LOG_NOTICE("guest messages: host still busy; request "
				   "kept for resending");
			return GMSG_BUSY;
		}
		LOG_NOTICE("guest messages: request refused, exit_info_2 "
			   "0x%llx; kept for resending",
			   (unsigned long long)ret);
		return GMSG_REFUSED;
	}
	d = guest_msg_decode(vmpck0, last_seqno + 2, (uint8_t)(type + 1),
			     rsp_page, cap, len);
	if (d != GMSG_DECODE_OK) {
		wipe_key("tampered response");
		TERMINATE_HV(TERM_CSVSM_GUEST_MSG_TAMPERED,
			     "guest messages: response refused (check %d)",
			     (int)d);
	}
	pending = false;
	last_seqno += 2;
	return GMSG_OK;
}

/* Resend a pending request first (as a plain request: the page is what
 * counts) and drop its answer. */
static enum gmsg_status flush_pending(struct busy_budget *b)
{
	enum gmsg_status st;
	size_t none = 0;
	size_t len = 0;

	if (!pending) {
		return GMSG_OK;
	}
	st = answered(send(b, NULL, &none), pending_type,
		      SNP_GUEST_MSG_MAX_PAYLOAD, &len);
	crypto_wipe(rsp_page, sizeof(rsp_page));
	return st;
}

static enum gmsg_status exchange(uint8_t type, const void *req, size_t req_len,
				 void *rsp, size_t rsp_cap, size_t *rsp_len,
				 void *certs, size_t *certs_len)
{
	struct busy_budget b = {plat_clock_ns(), 0};
	enum gmsg_status st;
	uint64_t ret;
	size_t len = 0;
	size_t none = 0;
	size_t cap;

	if (!have_key) {
		return GMSG_UNAVAILABLE;
	}
	st = flush_pending(&b);
	if (st != GMSG_OK) {
		return st; /* nothing new sealed: still in step */
	}
	/* Linux keeps numbers below 2^32 - 1; so does the SVSM. */
	if (last_seqno >= UINT32_MAX - 2) {
		wipe_key("sequence numbers used up");
		return GMSG_UNAVAILABLE;
	}
	if (req_len > SNP_GUEST_MSG_MAX_PAYLOAD ||
	    !seal_request(type, req, req_len)) {
		return GMSG_REFUSED; /* nothing was sent: the key stays */
	}
	cap = certs != NULL ? *certs_len : 0;
	ret = send(&b, certs, certs != NULL ? certs_len : &none);
	if ((ret >> 32) == PLAT_GREQ_VMM_INVALID_LEN && certs != NULL) {
		/* "Too small" for a length that fits is a lie: nothing was
		 * written to @certs, and the message may have been used. */
		if (*certs_len <= cap) {
			wipe_key("certificate length contradicts itself");
			return GMSG_REFUSED;
		}
		/* Certificates did not fit: send the same message as a
		 * plain request, so its number is used for what it said;
		 * *certs_len now tells the caller what the host needs. */
		none = 0;
		ret = send(&b, NULL, &none);
	}
	st = answered(ret, type, rsp_cap, &len);
	if (st == GMSG_OK) {
		memcpy(rsp, rsp_page + SNP_GUEST_MSG_HDR_SIZE, len);
		*rsp_len = len;
	}
	return st;
}

enum gmsg_status guest_msg_exchange(uint8_t type, const void *req,
				    size_t req_len, void *rsp, size_t rsp_cap,
				    size_t *rsp_len, void *certs,
				    size_t *certs_len)
{
	enum gmsg_status st;

	spin_lock(&gmsg_lock);
	st = exchange(type, req, req_len, rsp, rsp_cap, rsp_len, certs,
		      certs_len);
	/* Plaintext never stays in the pages between calls; a pending
	 * request (ciphertext the host has seen) does. */
	if (!pending) {
		crypto_wipe(req_page, sizeof(req_page));
	}
	crypto_wipe(rsp_page, sizeof(rsp_page));
	spin_unlock(&gmsg_lock);
	return st;
}

enum svsm_err guest_msg_derive_key(uint64_t guest_field_select,
				   uint64_t tcb_version, uint8_t key[32])
{
	struct snp_key_req req;
	struct snp_key_rsp rsp;
	size_t len = 0;
	enum svsm_err err = SVSM_E_INVAL;

	memset(&req, 0, sizeof(req));
	req.guest_field_select = guest_field_select;
	req.vmpl = 0;
	req.tcb_version = tcb_version;
	if (guest_msg_exchange(SNP_MSG_KEY_REQ, &req, sizeof(req), &rsp,
			       sizeof(rsp), &len, NULL, NULL) == GMSG_OK &&
	    len == sizeof(rsp) && rsp.status == SNP_MSG_STATUS_SUCCESS) {
		memcpy(key, rsp.key, SNP_DERIVED_KEY_LEN);
		err = SVSM_OK;
	}
	crypto_wipe(&rsp, sizeof(rsp));
	return err;
}
