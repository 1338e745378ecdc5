/* SPDX-License-Identifier: MIT */
/*
 * The attestation protocol, protocol 1 (58019 section 7; Linux
 * arch/x86/coco/sev/svsm.c snp_issue_svsm_attest_req).
 * The SVSM asks the PSP, over its own VMPCK0 channel, for a VMPL0 report
 * whose REPORT_DATA is SHA-512(nonce || manifest), and hands the report,
 * the manifest and (if asked) the host's certificates to the guest.
 * Threats: the request and nonce are guest memory, copied once and
 * checked as copies (T02); every output range is checked like any guest
 * address, never SVSM memory or a CA's control bytes (T01, T09); the
 * sizes are 32-bit fields from the guest, compared, never added (T03).
 * Shape (decode, then invoke, as seL4's decodeUntypedInvocation):
 * attest_decode() copies in and checks, with no side effect;
 * attest_invoke() allocates, asks the PSP and copies out.
 * SMP: the ownership lock is dropped while the PSP's answer is awaited;
 * the outputs are checked again, under it, as they are written, so a
 * CREATE_VCPU or DEPOSIT_MEM meanwhile cannot turn them into SVSM pages.
 * RCX, RDX and R8 always carry the sizes, also when a buffer is too small,
 * because Linux retries with them.
 */
#include "svsm/attest.h"

#include "svsm/crypto.h"
#include "svsm/guest_msg.h"
#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/owner_lock.h"
#include "svsm/ownership.h"
#include "svsm/protocol.h"
#include "svsm/std.h"

#include "abi/snp.h"
#include "abi/svsm_call.h"

#define CERTS_ORDER 2u /* the host's certificates: up to 16 KiB */
#define CERTS_CAP (SNP_PAGE_SIZE << CERTS_ORDER)
#define MANIFEST_CAP SNP_PAGE_SIZE

_Static_assert(CERTS_CAP == SVSM_ATTEST_MAX_CERTS_SIZE,
	       "the SVSM takes what Linux's 16 KiB buffer takes");

enum svsm_result attest_request_check(const struct svsm_attest_req *r,
				      bool single)
{
	if (!mem_all_zero(r->report.rsvd, sizeof(r->report.rsvd)) ||
	    !mem_all_zero(r->rsvd1, sizeof(r->rsvd1)) ||
	    !mem_all_zero(r->manifest.rsvd, sizeof(r->manifest.rsvd)) ||
	    !mem_all_zero(r->certificates.rsvd, sizeof(r->certificates.rsvd)) ||
	    (single && !mem_all_zero(r->rsvd2, sizeof(r->rsvd2)))) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (r->nonce_len != SVSM_ATTEST_NONCE_SIZE ||
	    (r->nonce_pa % SNP_PAGE_SIZE) + SVSM_ATTEST_NONCE_SIZE >
		    SNP_PAGE_SIZE) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (r->report.pa % SNP_PAGE_SIZE != 0 ||
	    r->manifest.pa % SNP_PAGE_SIZE != 0 ||
	    (r->certificates.len != 0 &&
	     r->certificates.pa % SNP_PAGE_SIZE != 0)) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (single && r->manifest_version != 0) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	return SVSM_SUCCESS;
}

/* May the SVSM write @len bytes at @pa for the guest? */
static bool output_ok(uint64_t pa, size_t len)
{
	gpa_t g = gpa_init(pa);

	return len == 0 || (owner_is_guest_accessible(g, len) &&
			    !owner_overlaps_caa_control(g, len));
}

/* The host's certificate table, as many bytes as it has pages. */
static size_t certs_size(const uint8_t *certs, size_t len)
{
	/* COCO: an all-zero first entry means the host has none. */
	if (len < SNP_CERT_ENTRY_SIZE ||
	    mem_all_zero(certs, SNP_CERT_ENTRY_SIZE)) {
		return 0;
	}
	return ALIGN_UP(len, SNP_PAGE_SIZE);
}

struct attest_out {
	uint8_t manifest[MANIFEST_CAP];
	size_t manifest_len;
	struct snp_report_rsp rsp;
	uint8_t *certs; /* CERTS_CAP bytes, or NULL */
	size_t certs_len;
};

static enum svsm_result request_report(const uint8_t *nonce,
				       struct attest_out *o)
{
	struct snp_report_req rr;
	struct crypto_piece data[2] = {{nonce, SVSM_ATTEST_NONCE_SIZE},
				       {o->manifest, o->manifest_len}};
	size_t len = 0;
	enum gmsg_status st;

	memset(&rr, 0, sizeof(rr));
	if (!crypto_sha512(data, 2, rr.user_data)) {
		return SVSM_ERR_INVALID_REQUEST;
	}
	rr.vmpl = 0; /* the report speaks for VMPL0: the SVSM */
	o->certs_len = o->certs != NULL ? CERTS_CAP : 0;
	st = guest_msg_exchange(SNP_MSG_REPORT_REQ, &rr, sizeof(rr), &o->rsp,
				sizeof(o->rsp), &len, o->certs,
				o->certs != NULL ? &o->certs_len : NULL);
	/* Not BUSY even when the host was: the SVSM already waited as long
	 * as Linux would, and Linux resends SVSM_ERR_BUSY at once, forever.
	 * A pending request is resent by the next call. */
	if (st != GMSG_OK) {
		return SVSM_ERR_INVALID_REQUEST;
	}
	/* Authenticated, so the PSP said it; still only a whole report of
	 * the right size is handed on. */
	if (len != sizeof(o->rsp) || o->rsp.status != SNP_MSG_STATUS_SUCCESS ||
	    o->rsp.report_size != SNP_REPORT_SIZE) {
		LOG_NOTICE("attest: PSP answered status 0x%x, %u of %u bytes",
			   o->rsp.status, (unsigned)len,
			   (unsigned)sizeof(o->rsp));
		return SVSM_ERR_INVALID_REQUEST;
	}
	return SVSM_SUCCESS;
}

/** An attestation call, decoded: SVSM copies of what the guest sent. */
struct attest_call {
	struct svsm_attest_req req;
	uint8_t nonce[SVSM_ATTEST_NONCE_SIZE];
	bool single;
};

/**
 * Decode: copy in the request and the nonce, and check them and the
 * outputs. No side effects, and no report is asked for.
 */
static enum svsm_result attest_decode(const struct call_ctx *ctx, bool single,
				      struct attest_call *c)
{
	size_t req_size = single ? SVSM_ATTEST_SINGLE_REQ_SIZE
				 : SVSM_ATTEST_SERVICES_REQ_SIZE;
	const struct svsm_attest_req *req = &c->req;
	enum svsm_result rc;

	memset(c, 0, sizeof(*c));
	c->single = single;
	if (ctx->rcx % 8 != 0) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (guestmem_read_param(gpa_init(ctx->rcx), &c->req, req_size) !=
	    SVSM_OK) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	rc = attest_request_check(req, single);
	if (rc != SVSM_SUCCESS) {
		return rc;
	}
	if (guestmem_read(gpa_init(req->nonce_pa), c->nonce,
			  sizeof(c->nonce)) != SVSM_OK) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	/* Outputs checked before the PSP is asked: a bad address costs no
	 * report. The sizes are checked after, when they are all known. */
	if (!output_ok(req->report.pa, req->report.len < SNP_REPORT_SIZE
					       ? 0
					       : SNP_REPORT_SIZE) ||
	    !output_ok(req->manifest.pa, req->manifest.len < MANIFEST_CAP
						 ? req->manifest.len
						 : MANIFEST_CAP) ||
	    !output_ok(req->certificates.pa, req->certificates.len < CERTS_CAP
						     ? req->certificates.len
						     : CERTS_CAP)) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	return SVSM_SUCCESS;
}

/* The manifest the report will cover, into @o. */
static enum svsm_result attest_manifest(const struct attest_call *c,
					struct attest_out *o)
{
	if (!c->single) {
		o->manifest_len = services_manifest(o->manifest, MANIFEST_CAP);
		return o->manifest_len != 0 ? SVSM_SUCCESS
					    : SVSM_ERR_INVALID_REQUEST;
	}
	o->manifest_len =
		service_manifest(c->req.service_guid, c->req.manifest_version,
				 o->manifest, MANIFEST_CAP);
	return o->manifest_len != 0 ? SVSM_SUCCESS
				    : SVSM_ERR_UNSUPPORTED_PROTOCOL;
}

/**
 * Invoke: ask the PSP for the report of a decoded call and copy the
 * report, the manifest and the certificates out to the guest.
 */
static enum svsm_result attest_invoke(struct call_ctx *ctx,
				      const struct attest_call *c)
{
	const struct svsm_attest_req *req = &c->req;
	struct attest_out *o;
	size_t csize = 0;
	enum svsm_result rc;

	/* A heap too small for the call's multi-page buffers is a
	 * definite INVALID_REQUEST: SVSM_ERR_BUSY would have Linux call
	 * again at once, forever, and 0x4000_0000 + N (58019 Table 4)
	 * would promise that DEPOSIT_MEM helps, where lent pages serve
	 * only single-page allocations (src/mem/mem.c). */
	o = page_alloc(1);
	if (o == NULL) {
		return SVSM_ERR_INVALID_REQUEST;
	}
	_Static_assert(sizeof(*o) <= 2 * SNP_PAGE_SIZE,
		       "attestation outputs fit");
	memset(o, 0, sizeof(*o));
	if (req->certificates.len != 0) {
		o->certs = page_alloc(CERTS_ORDER);
		if (o->certs == NULL) {
			rc = SVSM_ERR_INVALID_REQUEST;
			goto out;
		}
		/* No earlier heap contents can reach the guest as
		 * "certificates". */
		memset(o->certs, 0, CERTS_CAP);
	}
	rc = attest_manifest(c, o);
	if (rc != SVSM_SUCCESS) {
		goto out;
	}
	/* The wait on the host: no guest memory is touched. */
	owner_unlock();
	rc = request_report(c->nonce, o);
	owner_lock();
	if (rc != SVSM_SUCCESS) {
		goto out;
	}
	/* The host's length is the platform's report of a hostile value:
	 * bounded before any arithmetic. More than the SVSM can carry is
	 * reported to the guest as needed, and never copied. */
	if (o->certs != NULL) {
		if (o->certs_len > (1u << 24)) {
			rc = SVSM_ERR_INVALID_REQUEST;
			goto out;
		}
		csize = o->certs_len > CERTS_CAP
				? ALIGN_UP(o->certs_len, SNP_PAGE_SIZE)
				: certs_size(o->certs, o->certs_len);
	}
	/* The sizes, also when a buffer is too small: Linux retries. */
	ctx->rcx = o->manifest_len;
	ctx->rdx = csize;
	ctx->r8 = SNP_REPORT_SIZE;
	if (req->report.len < SNP_REPORT_SIZE ||
	    req->manifest.len < o->manifest_len ||
	    req->certificates.len < csize || csize > CERTS_CAP) {
		rc = SVSM_ERR_INVALID_PARAMETER;
		goto out;
	}
	if (csize != 0) {
		memset(o->certs + o->certs_len, 0, csize - o->certs_len);
	}
	if (guestmem_write_param(gpa_init(req->report.pa), o->rsp.report,
				 SNP_REPORT_SIZE) != SVSM_OK ||
	    guestmem_write_param(gpa_init(req->manifest.pa), o->manifest,
				 o->manifest_len) != SVSM_OK ||
	    (csize != 0 && guestmem_write_param(gpa_init(req->certificates.pa),
						o->certs, csize) != SVSM_OK)) {
		rc = SVSM_ERR_INVALID_ADDRESS;
	}
out:
	if (o->certs != NULL) {
		page_free(o->certs);
	}
	page_free(o);
	return rc;
}

static enum svsm_result attest(struct call_ctx *ctx, bool single)
{
	struct attest_call c;
	enum svsm_result rc;

	rc = attest_decode(ctx, single, &c);
	if (rc != SVSM_SUCCESS) {
		return rc;
	}
	return attest_invoke(ctx, &c);
}

enum svsm_result attest_protocol_handle(struct call_ctx *ctx)
{
	switch (SVSM_CALL_ID(ctx->rax)) {
	case SVSM_ATTEST_SERVICES:
		return attest(ctx, false);
	case SVSM_ATTEST_SINGLE_SERVICE:
		return attest(ctx, true);
	default:
		return SVSM_ERR_UNSUPPORTED_CALL;
	}
}
