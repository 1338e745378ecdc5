/* SPDX-License-Identifier: MIT */
/*
 * SNP guest requests, plain and extended (NAE 0x8000_0011/12; spec notes
 * 7.3): exit_info_1 the request page, exit_info_2 the response page; the
 * extended form adds RAX, the certificate buffer, and RBX, its size in
 * pages, which the reply sets to the pages needed on INVALID_LEN.
 * Threats (a guest at any VMPL calls it): each page must be page aligned,
 * RAM and shared in the RMP, or the host would write a private page; the
 * request is copied once into the vCPU's own buffer before the PSP reads
 * it (KVM's guest_req_buf), so no other vCPU can change it mid-parse.
 */
#include "abi/snp.h"

#include "model/snpmodel.h"

#include "kvm_internal.h"

/* The most certificate pages the model looks at (KVM's table is a few
 * KiB): larger buffers are taken as this size. */
#define KVM_CERTS_MAX_PAGES 64u

/* The host mapping of @pages shared pages at @gpa, contiguous in the
 * host too (the PSP writes them as one buffer), or NULL. */
static uint8_t *certs_span(struct kvm *k, uint64_t gpa, uint64_t pages)
{
	uint8_t *first = kvm_shared_page(k, gpa);
	uint64_t i;

	if (first == NULL || pages > k->rmp->page_count) {
		return NULL;
	}
	for (i = 1; i < pages; i++) {
		uint64_t at =
			gpa + i * SNP_PAGE_SIZE; /* pages < 2^40: no wrap */

		if (kvm_shared_page(k, at) != first + i * SNP_PAGE_SIZE) {
			return NULL;
		}
	}
	return first;
}

void kvm_nae_guest_request(struct kvm *k, struct kvm_vcpu *v,
			   struct kvm_ghcb *g, struct kvm_reply *r, bool ext)
{
	uint64_t req_gpa = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_1);
	uint64_t rsp_gpa = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_2);
	uint64_t pages = kvm_ghcb_val(g, GHCB_OFF_RBX);
	const uint8_t *req = kvm_shared_page(k, req_gpa);
	uint8_t *rsp = kvm_shared_page(k, rsp_gpa);
	uint8_t *certs = NULL;
	size_t len = 0;

	kvm_count(&k->stats.guest_requests);
	if (req == NULL || rsp == NULL || req_gpa == rsp_gpa) {
		kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
		return;
	}
	if (ext) {
		if (!kvm_ghcb_has(g, GHCB_OFF_RAX) ||
		    !kvm_ghcb_has(g, GHCB_OFF_RBX)) {
			kvm_malformed(r, GHCB_ERR_MISSING_INPUT);
			return;
		}
		if (pages > KVM_CERTS_MAX_PAGES) {
			pages = KVM_CERTS_MAX_PAGES;
		}
		len = (size_t)(pages * SNP_PAGE_SIZE);
		/* No pages: a size query; the PSP writes nothing. */
		certs = pages == 0
				? v->greq_copy
				: certs_span(k, kvm_ghcb_val(g, GHCB_OFF_RAX),
					     pages);
		if (certs == NULL) {
			kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
			return;
		}
	}
	if (ext && k->behaviour == KVM_CERTS_NO_RBX) {
		/* A host may always say the certificates outgrew the buffer
		 * (they are its own); this one does not say how many pages
		 * they need. The PSP is not asked. */
		kvm_lie(k, "INVALID_LEN for the certificates, without RBX "
			   "(the pages they need) marked valid");
		r->info2 = (uint64_t)SNP_GUEST_VMM_ERR_INVALID_LEN << 32;
		r->rbx = pages + 1;
		r->unmark |= KVM_R_RBX;
		return;
	}
	memcpy(v->greq_copy, req, sizeof(v->greq_copy));
	r->info2 = k->ops->guest_request(k, v->greq_copy, rsp, certs,
					 ext ? &len : NULL);
	if (ext && (r->info2 >> 32) == SNP_GUEST_VMM_ERR_INVALID_LEN) {
		r->rbx = (len + SNP_PAGE_SIZE - 1) / SNP_PAGE_SIZE;
		r->write |= KVM_R_RBX;
	}
	if (k->behaviour == KVM_FLIP_SHARED ||
	    k->behaviour == KVM_FLIP_RESPONSE) {
		kvm_lie(k, "a bit of the guest-request response flipped "
			   "after the PSP wrote it");
		rsp[0] ^= 0x01; /* after the request was read: the tag */
	}
}
