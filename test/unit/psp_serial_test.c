/* SPDX-License-Identifier: MIT */
/*
 * The emulated PSP runs one guest request at a time (model/snp/psp.c), as
 * the SNP firmware does: two vCPUs that send the same message at once,
 * one sequence number for both, get one answer, never two. Two answers
 * would be a replay accepted and two responses sealed under one AES-GCM
 * IV (the response's IV is its sequence number, ABI 56860 "Message
 * sequence numbers"), which breaks GCM's confidentiality and integrity.
 * Two threads send the same MSG_REPORT_REQ (an ECDSA signature: a long
 * window between the number's check and its use) from a start line, many
 * rounds; with the model's command lock exactly one succeeds each round.
 */
#include <pthread.h>
#include <string.h>

#include "svsm/crypto.h"

#include "abi/svsm_attest.h"

#include "model/psp_model.h"

#include "../framework/test.h"

#define ROUNDS 40

static struct psp_model psp;
static uint8_t entropy[PSP_VMPCK_COUNT * 32 + 48];
static uint8_t request[4096];
static unsigned go;	 /* the round the threads may start */
static unsigned arrived; /* two per thread and round: started, done */
static uint32_t status[2];

static bool seal_report_request(unsigned vmpck)
{
	struct snp_guest_msg_hdr *h = (struct snp_guest_msg_hdr *)request;
	struct snp_report_req r;
	uint8_t iv[SNP_GUEST_MSG_IV_LEN];
	uint64_t seqno = psp.last_seqno[vmpck] + 1;

	memset(&r, 0, sizeof(r));
	r.vmpl = vmpck;
	memset(request, 0, sizeof(request));
	h->msg_seqno = seqno;
	h->algo = SNP_AEAD_AES_256_GCM;
	h->hdr_version = SNP_GUEST_MSG_HDR_VERSION;
	h->hdr_sz = SNP_GUEST_MSG_HDR_SIZE;
	h->msg_type = SNP_MSG_REPORT_REQ;
	h->msg_version = 1;
	h->msg_sz = sizeof(r);
	h->msg_vmpck = (uint8_t)vmpck;
	snp_guest_msg_iv(seqno, iv);
	return crypto_gcm_seal(psp.vmpck[vmpck], iv,
			       request + SNP_GUEST_MSG_AAD_OFF,
			       SNP_GUEST_MSG_AAD_LEN, &r, sizeof(r),
			       request + SNP_GUEST_MSG_HDR_SIZE, h->authtag);
}

static void *sender(void *arg)
{
	unsigned me = (unsigned)(uintptr_t)arg;
	static uint8_t rsp[2][4096];
	unsigned round;

	for (round = 1; round <= ROUNDS; round++) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) < round) {
		}
		__atomic_fetch_add(&arrived, 1u, __ATOMIC_ACQ_REL);
		while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) <
		       4u * round - 2u) {
		}
		status[me] = psp_guest_request(&psp, request, rsp[me]);
		__atomic_fetch_add(&arrived, 1u, __ATOMIC_ACQ_REL);
		while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) <
		       4u * round) {
		}
	}
	return NULL;
}

TEST(psp_serial, one_sequence_number_is_answered_once)
{
	pthread_t t[2];
	unsigned round, i, both = 0, none = 0;

	for (i = 0; i < sizeof(entropy); i++) {
		entropy[i] = (uint8_t)(i * 13);
	}
	psp_init(&psp, &psp_test_identity, entropy, 0x30000);
	go = 0;
	arrived = 0;
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pthread_create(&t[i], NULL, sender,
					 (void *)(uintptr_t)i),
			  0);
	}
	for (round = 1; round <= ROUNDS; round++) {
		ASSERT_TRUE(seal_report_request(1));
		__atomic_store_n(&go, round, __ATOMIC_RELEASE);
		while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) <
		       4u * round) {
		}
		both += status[0] == PSP_STATUS_OK &&
			status[1] == PSP_STATUS_OK;
		none += status[0] != PSP_STATUS_OK &&
			status[1] != PSP_STATUS_OK;
	}
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
	}
	EXPECT_EQ(both, 0u);
	EXPECT_EQ(none, 0u);
	EXPECT_EQ(psp.last_seqno[1], 2ull * ROUNDS);
}
