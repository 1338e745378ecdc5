/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the decoder of the PSP's responses (guest_msg_decode in
 * src/core/guest_msg.c): the hypervisor controls every byte of the page.
 * Half the inputs are sealed with the right key first (the fuzzer's bytes
 * as header and payload), so the paths after the tag are reached too.
 * Checks: only an authentic page with the expected number and type
 * decodes; a decoded payload fits the page and the caller's bound and
 * equals what was sealed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/crypto.h"
#include "svsm/guest_msg.h"

#include "abi/svsm_attest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t page[SNP_GUEST_MSG_PAGE], sealed[SNP_GUEST_MSG_PAGE];
	struct snp_guest_msg_hdr *h = (struct snp_guest_msg_hdr *)page;
	uint64_t seqno;
	size_t cap, len = 0;
	bool seal;
	enum gmsg_decode d;

	if (size < 4) {
		return 0;
	}
	seal = (data[0] & 1) != 0;
	cap = (size_t)data[1] << 4;
	seqno = data[2];
	memset(page, 0, sizeof(page));
	memcpy(page, data + 3,
	       size - 3 < sizeof(page) ? size - 3 : sizeof(page));
	if (seal && h->msg_sz <= SNP_GUEST_MSG_MAX_PAYLOAD) {
		uint8_t iv[12] = {0};

		memcpy(iv, &h->msg_seqno, 8);
		memcpy(sealed, page, sizeof(page));
		if (!crypto_gcm_seal(key, iv, page + SNP_GUEST_MSG_AAD_OFF,
				     SNP_GUEST_MSG_AAD_LEN,
				     page + SNP_GUEST_MSG_HDR_SIZE, h->msg_sz,
				     page + SNP_GUEST_MSG_HDR_SIZE,
				     h->authtag)) {
			abort();
		}
	}
	d = guest_msg_decode(key, seqno, data[3], page, cap, &len);
	if (d == GMSG_DECODE_OK) {
		if (!seal || len > cap || len > SNP_GUEST_MSG_MAX_PAYLOAD ||
		    h->msg_seqno != seqno || h->msg_type != data[3] ||
		    memcmp(page + SNP_GUEST_MSG_HDR_SIZE,
			   sealed + SNP_GUEST_MSG_HDR_SIZE, len) != 0) {
			abort(); /* unauthenticated or altered data passed */
		}
	}
	return 0;
}
