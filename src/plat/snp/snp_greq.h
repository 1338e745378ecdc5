/* SPDX-License-Identifier: MIT */
/* SNP guest requests over the GHCB (guest_request.c). */
#ifndef SNP_GREQ_H
#define SNP_GREQ_H

#include <stddef.h>
#include <stdint.h>

#include "ghcb.h"

/* The shared pages of one CPU's guest requests, mapped by the caller. */
struct snp_greq {
	struct ghcb_cpu *ghcb;
	gpa_t req_gpa, rsp_gpa, certs_gpa;
	uint8_t *req, *rsp, *certs; /* shared mappings: hostile */
	size_t certs_pages;
};

/** plat_guest_request() through @q (same contract). */
uint64_t snp_guest_request(struct snp_greq *q, const void *req, void *rsp,
			   void *certs, size_t *certs_len);

#endif /* SNP_GREQ_H */
