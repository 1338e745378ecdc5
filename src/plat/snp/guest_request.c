/* SPDX-License-Identifier: MIT */
/*
 * plat_guest_request's work on snp: the SVSM's guest message goes to the
 * hypervisor in shared pages (the only memory it can read), and the
 * response comes back by one copy into SVSM memory, where guest_msg.c
 * authenticates it. The certificate table is the host's, unauthenticated
 * by nature (the relying party checks it): only its size is interpreted,
 * bounded by the buffer.
 */
#include "svsm/std.h"

#include "abi/svsm_attest.h"

#include "snp_greq.h"

/* The table's extent: entries up to the all-zero one, their data. */
static size_t table_extent(const uint8_t *t, size_t cap)
{
	static const uint8_t zero[SNP_CERT_ENTRY_SIZE];
	size_t end = 0, at;

	for (at = 0; at + SNP_CERT_ENTRY_SIZE <= cap;
	     at += SNP_CERT_ENTRY_SIZE) {
		uint32_t off, len;

		if (memcmp(t + at, zero, SNP_CERT_ENTRY_SIZE) == 0) {
			return end > at + SNP_CERT_ENTRY_SIZE
				       ? end
				       : at + SNP_CERT_ENTRY_SIZE;
		}
		memcpy(&off, t + at + 16, 4);
		memcpy(&len, t + at + 20, 4);
		if (off > cap || len > cap - off) {
			return cap; /* malformed: hand on all, interpret none */
		}
		if (off + (size_t)len > end) {
			end = off + (size_t)len;
		}
	}
	return cap;
}

uint64_t snp_guest_request(struct snp_greq *q, const void *req, void *rsp,
			   void *certs, size_t *certs_len)
{
	uint64_t pages = 0, ret;
	size_t cap = 0;

	memcpy(q->req, req, SNP_GUEST_MSG_PAGE);
	if (certs != NULL) {
		cap = *certs_len < q->certs_pages * SNP_GUEST_MSG_PAGE
			      ? *certs_len
			      : q->certs_pages * SNP_GUEST_MSG_PAGE;
		pages = cap / SNP_GUEST_MSG_PAGE;
		memset(q->certs, 0, cap);
	}
	ret = ghcb_guest_request(q->ghcb, q->req_gpa, q->rsp_gpa, q->certs_gpa,
				 certs != NULL ? &pages : NULL);
	if (ret != 0) {
		if (certs != NULL && (ret >> 32) == 1) {
			/* The hypervisor's page count, bounded before the
			 * multiplication: beyond 16 MiB it is only "too
			 * many", which the caller refuses. */
			*certs_len = pages > 4096 ? (size_t)1 << 30
						  : pages * SNP_GUEST_MSG_PAGE;
		}
		return ret;
	}
	memcpy(rsp, q->rsp, SNP_GUEST_MSG_PAGE); /* the one copy */
	if (certs != NULL) {
		memcpy(certs, q->certs, cap);
		*certs_len = table_extent(certs, cap);
	}
	return 0;
}
