/* SPDX-License-Identifier: MIT */
/*
 * MSG_KEY_REQ of the emulated PSP (model/snp/psp.c) against the SNP
 * firmware ABI (56860, MSG_KEY_REQ and MSG_KEY_RSP): requests sealed
 * under a VMPCK as a guest seals them, answers opened the same way.
 * Truths: the same request gives the same key, on the same chip only;
 * each guest field, when selected, changes the key when its value does
 * (policy, measurement, SVN, TCB), and changes nothing when not selected;
 * the VMPL field is mixed in, whichever VMPCK asked; a VMPCK may not ask
 * for a VMPL below its own (VMPL1 never gets VMPL0's key); reserved
 * bits, a TCB above the committed one, an SVN above the launch's are
 * INVALID_PARAM; a VMRK or VLEK the chip lacks is INVALID_KEY.
 */
#include <string.h>

#include "svsm/crypto.h"

#include "abi/svsm_attest.h"

#include "model/psp_model.h"

#include "../framework/test.h"

#define ALL_FIELDS                                                             \
	(SNP_KEY_GFS_POLICY | SNP_KEY_GFS_MEASUREMENT | SNP_KEY_GFS_SVN |      \
	 SNP_KEY_GFS_TCB)

static struct psp_model psp;
static uint8_t entropy[PSP_VMPCK_COUNT * 32 + 48];

static void chip(uint8_t seed)
{
	size_t i;

	for (i = 0; i < sizeof(entropy); i++) {
		entropy[i] = (uint8_t)(seed + i * 7);
	}
	psp_init(&psp, &psp_test_identity, entropy, 0x30000);
	memset(psp.measurement, 0xAB, sizeof(psp.measurement));
}

static struct snp_key_req req(uint64_t select, uint32_t vmpl)
{
	struct snp_key_req k;

	memset(&k, 0, sizeof(k));
	k.guest_field_select = select;
	k.vmpl = vmpl;
	return k;
}

/* One MSG_KEY_REQ through VMPCK @vmpck; the response's status, the key
 * in @key when it is SUCCESS. */
static uint32_t ask(unsigned vmpck, const struct snp_key_req *k,
		    uint8_t key[32])
{
	static uint8_t page[4096], rsp[4096];
	struct snp_guest_msg_hdr *h = (struct snp_guest_msg_hdr *)page;
	const struct snp_guest_msg_hdr *rh = (struct snp_guest_msg_hdr *)rsp;
	struct snp_key_rsp out;
	uint8_t iv[SNP_GUEST_MSG_IV_LEN];
	uint64_t seqno = psp.last_seqno[vmpck] + 1;

	memset(page, 0, sizeof(page));
	h->msg_seqno = seqno;
	h->algo = SNP_AEAD_AES_256_GCM;
	h->hdr_version = SNP_GUEST_MSG_HDR_VERSION;
	h->hdr_sz = SNP_GUEST_MSG_HDR_SIZE;
	h->msg_type = SNP_MSG_KEY_REQ;
	h->msg_version = 1;
	h->msg_sz = sizeof(*k);
	h->msg_vmpck = (uint8_t)vmpck;
	snp_guest_msg_iv(seqno, iv);
	if (!crypto_gcm_seal(psp.vmpck[vmpck], iv, page + SNP_GUEST_MSG_AAD_OFF,
			     SNP_GUEST_MSG_AAD_LEN, k, sizeof(*k),
			     page + SNP_GUEST_MSG_HDR_SIZE, h->authtag) ||
	    psp_guest_request(&psp, page, rsp) != PSP_STATUS_OK ||
	    rh->msg_type != SNP_MSG_KEY_RSP || rh->msg_sz != sizeof(out)) {
		return 0xFFFFFFFFu;
	}
	snp_guest_msg_iv(rh->msg_seqno, iv);
	if (!crypto_gcm_open(psp.vmpck[vmpck], iv, rsp + SNP_GUEST_MSG_AAD_OFF,
			     SNP_GUEST_MSG_AAD_LEN,
			     rsp + SNP_GUEST_MSG_HDR_SIZE, sizeof(out), &out,
			     rh->authtag)) {
		return 0xFFFFFFFEu;
	}
	memcpy(key, out.key, 32);
	return out.status;
}

static bool same(const uint8_t a[32], const uint8_t b[32])
{
	return memcmp(a, b, 32) == 0;
}

TEST(psp_key, same_inputs_same_key_other_chip_another)
{
	struct snp_key_req k = req(ALL_FIELDS, 0);
	uint8_t a[32], b[32], c[32];
	static const uint8_t zero[32];

	chip(1);
	ASSERT_EQ(ask(0, &k, a), SNP_MSG_STATUS_SUCCESS);
	ASSERT_EQ(ask(0, &k, b), SNP_MSG_STATUS_SUCCESS);
	EXPECT_TRUE(same(a, b));
	EXPECT_FALSE(same(a, zero));
	/* A new launch on the same chip (new VMPCKs, same secret). */
	chip(1);
	ASSERT_EQ(ask(0, &k, b), SNP_MSG_STATUS_SUCCESS);
	EXPECT_TRUE(same(a, b));
	chip(2);
	ASSERT_EQ(ask(0, &k, c), SNP_MSG_STATUS_SUCCESS);
	EXPECT_FALSE(same(a, c));
}

TEST(psp_key, each_selected_field_changes_the_key)
{
	struct snp_key_req k = req(ALL_FIELDS, 0);
	uint8_t base[32], other[32];

	chip(1);
	k.tcb_version = 0x0016000000000002ull;
	ASSERT_EQ(ask(0, &k, base), SNP_MSG_STATUS_SUCCESS);

	psp.measurement[47] ^= 1; /* another image */
	ASSERT_EQ(ask(0, &k, other), SNP_MSG_STATUS_SUCCESS);
	EXPECT_FALSE(same(base, other));
	psp.measurement[47] ^= 1;

	psp.policy ^= 1ull << 19; /* debug allowed */
	ASSERT_EQ(ask(0, &k, other), SNP_MSG_STATUS_SUCCESS);
	EXPECT_FALSE(same(base, other));
	psp.policy ^= 1ull << 19;

	k.tcb_version = 0x0016000000000003ull;
	ASSERT_EQ(ask(0, &k, other), SNP_MSG_STATUS_SUCCESS);
	EXPECT_FALSE(same(base, other));
	k.tcb_version = 0x0016000000000002ull;

	k.guest_field_select &= ~SNP_KEY_GFS_SVN; /* another selection */
	ASSERT_EQ(ask(0, &k, other), SNP_MSG_STATUS_SUCCESS);
	EXPECT_FALSE(same(base, other));
	k.guest_field_select = ALL_FIELDS;

	ASSERT_EQ(ask(0, &k, other), SNP_MSG_STATUS_SUCCESS);
	EXPECT_TRUE(same(base, other));
}

TEST(psp_key, unselected_fields_are_not_mixed_in)
{
	struct snp_key_req k = req(0, 0);
	uint8_t base[32], other[32];

	chip(1);
	ASSERT_EQ(ask(0, &k, base), SNP_MSG_STATUS_SUCCESS);
	psp.measurement[0] ^= 1;
	psp.policy ^= 1;
	k.tcb_version = 1; /* sent, not selected */
	ASSERT_EQ(ask(0, &k, other), SNP_MSG_STATUS_SUCCESS);
	EXPECT_TRUE(same(base, other));
}

TEST(psp_key, vmpl_is_mixed_in_and_its_floor_enforced)
{
	struct snp_key_req k0 = req(ALL_FIELDS, 0);
	struct snp_key_req k1 = req(ALL_FIELDS, 1);
	uint8_t vmpl0[32], vmpl1[32], via0[32], none[32];

	chip(1);
	ASSERT_EQ(ask(0, &k0, vmpl0), SNP_MSG_STATUS_SUCCESS);
	ASSERT_EQ(ask(1, &k1, vmpl1), SNP_MSG_STATUS_SUCCESS);
	EXPECT_FALSE(same(vmpl0, vmpl1));
	/* The VMPL field, not the VMPCK, selects the key. */
	ASSERT_EQ(ask(0, &k1, via0), SNP_MSG_STATUS_SUCCESS);
	EXPECT_TRUE(same(vmpl1, via0));
	/* VMPL1 asking for VMPL0's key is refused. */
	EXPECT_EQ(ask(1, &k0, none), SNP_MSG_STATUS_INVALID_PARAM);
	k1.vmpl = 4;
	EXPECT_EQ(ask(1, &k1, none), SNP_MSG_STATUS_INVALID_PARAM);
}

TEST(psp_key, malformed_and_unavailable_requests_are_refused)
{
	struct snp_key_req k;
	uint8_t key[32];

	chip(1);
	k = req(1ull << 6, 0); /* a field version 1 does not define */
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_INVALID_PARAM);
	k = req(0, 0);
	k.rsvd = 1;
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_INVALID_PARAM);
	k = req(0, 0);
	k.root_key_select = 1u << 3; /* reserved */
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_INVALID_PARAM);
	k.root_key_select = 3u << 1; /* KEY_SEL 3: reserved */
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_INVALID_PARAM);
	k.root_key_select = 1u; /* VMRK: no migration agent */
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_INVALID_KEY);
	k.root_key_select = 1u << 1; /* VLEK: none installed */
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_INVALID_KEY);
	k.root_key_select = 2u << 1; /* VCEK by name */
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_SUCCESS);
	k = req(SNP_KEY_GFS_TCB, 0);
	k.tcb_version = psp_test_identity.reported_tcb;
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_SUCCESS);
	k.tcb_version += 1; /* one boot loader SVN above the committed */
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_INVALID_PARAM);
	k = req(SNP_KEY_GFS_SVN, 0);
	k.guest_svn = 1; /* the launch's is 0 */
	EXPECT_EQ(ask(0, &k, key), SNP_MSG_STATUS_INVALID_PARAM);
}
