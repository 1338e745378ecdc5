/* SPDX-License-Identifier: MIT */
/*
 * Attestation layouts: the SVSM attestation protocol (protocol 1, 58019
 * section 7), the services manifest (58019 Table 12), SNP guest messages
 * and the attestation report (SNP firmware ABI 56860). Little-endian and
 * packed, as the guest and the PSP lay them out; offsets are pinned by the
 * assertions below.
 */
#ifndef ABI_SVSM_ATTEST_H
#define ABI_SVSM_ATTEST_H

#include <stddef.h>
#include <stdint.h>

/* The protocol's calls, 58019 section 7; their names as
 * svsm_call.h's SVSM_CORE_CALL_NAMES. */
#define SVSM_ATTEST_SERVICES 0u
#define SVSM_ATTEST_SINGLE_SERVICE 1u
#define SVSM_ATTEST_VM 2u
#define SVSM_ATTEST_CALL_NAMES(X)                                              \
	X(SVSM_PROTOCOL_ATTEST, SVSM_ATTEST_SERVICES,                          \
	  "attest ATTEST_SERVICES")                                            \
	X(SVSM_PROTOCOL_ATTEST, SVSM_ATTEST_SINGLE_SERVICE,                    \
	  "attest ATTEST_SINGLE_SERVICE")                                      \
	X(SVSM_PROTOCOL_ATTEST, SVSM_ATTEST_VM, "attest ATTEST_VM")

/* One guest buffer: {u64 pa; u32 len; u8 rsvd[4]} (Linux svsm_loc_entry). */
struct svsm_loc_entry {
	uint64_t pa;
	uint32_t len;
	uint8_t rsvd[4];
} __attribute__((packed));

/* SPEC Tables 11 and 13; Linux struct svsm_attest_call. */
struct svsm_attest_req {
	struct svsm_loc_entry report;
	uint64_t nonce_pa;
	uint16_t nonce_len;
	uint8_t rsvd1[6];
	struct svsm_loc_entry manifest;
	struct svsm_loc_entry certificates;
	/* ATTEST_SINGLE_SERVICE only: */
	uint8_t service_guid[16];
	uint32_t manifest_version;
	uint8_t rsvd2[4];
} __attribute__((packed));

#define SVSM_ATTEST_SERVICES_REQ_SIZE 0x40u
#define SVSM_ATTEST_SINGLE_REQ_SIZE 0x58u
#define SVSM_ATTEST_NONCE_SIZE 64u
#define SVSM_ATTEST_MAX_CERTS_SIZE 0x4000u

_Static_assert(sizeof(struct svsm_loc_entry) == 16, "Linux svsm_loc_entry");
_Static_assert(offsetof(struct svsm_attest_req, nonce_pa) == 0x10,
	       "SPEC Table 11: nonce at 0x10");
_Static_assert(offsetof(struct svsm_attest_req, manifest) == 0x20,
	       "SPEC Table 11: manifest at 0x20");
_Static_assert(offsetof(struct svsm_attest_req, certificates) == 0x30,
	       "SPEC Table 11: certificates at 0x30");
_Static_assert(offsetof(struct svsm_attest_req, service_guid) == 0x40,
	       "SPEC Table 13: service GUID at 0x40");
_Static_assert(offsetof(struct svsm_attest_req, manifest_version) == 0x50,
	       "SPEC Table 13: manifest version at 0x50");
_Static_assert(sizeof(struct svsm_attest_req) == SVSM_ATTEST_SINGLE_REQ_SIZE,
	       "SPEC Table 13: 0x58 bytes");

/*
 * Services manifest (SPEC Table 12): header GUID, u32 total size, u32
 * entry count; then per entry GUID, u32 offset from the table's start, u32
 * length; then the data. GUIDs in EFI (mixed-endian) byte order.
 */
#define SVSM_GUID_TABLE_HEADER_SIZE 24u
#define SVSM_GUID_TABLE_ENTRY_SIZE 24u

/* 63849ebb-3d92-4670-a1ff-58f9c94b87bb */
#define SVSM_MANIFEST_GUID                                                     \
	{                                                                      \
		0xbb, 0x9e, 0x84, 0x63, 0x92, 0x3d, 0x70, 0x46, 0xa1, 0xff,    \
			0x58, 0xf9, 0xc9, 0x4b, 0x87, 0xbb                     \
	}
/* c476f1eb-0123-45a5-9641-b4e7dde5bfe3 (SPEC 8.3.1) */
#define SVSM_VTPM_SERVICE_GUID                                                 \
	{                                                                      \
		0xeb, 0xf1, 0x76, 0xc4, 0x23, 0x01, 0xa5, 0x45, 0x96, 0x41,    \
			0xb4, 0xe7, 0xdd, 0xe5, 0xbf, 0xe3                     \
	}

/* SNP guest message header (56860 Table 98; Linux snp_guest_msg_hdr). */
struct snp_guest_msg_hdr {
	uint8_t authtag[32];
	uint64_t msg_seqno;
	uint8_t rsvd1[8];
	uint8_t algo;
	uint8_t hdr_version;
	uint16_t hdr_sz;
	uint8_t msg_type;
	uint8_t msg_version;
	uint16_t msg_sz;
	uint32_t rsvd2;
	uint8_t msg_vmpck;
	uint8_t rsvd3[35];
} __attribute__((packed));

#define SNP_GUEST_MSG_HDR_SIZE 0x60u
#define SNP_GUEST_MSG_PAGE 4096u
#define SNP_GUEST_MSG_MAX_PAYLOAD (SNP_GUEST_MSG_PAGE - SNP_GUEST_MSG_HDR_SIZE)
#define SNP_GUEST_MSG_AAD_OFF 0x30u
#define SNP_GUEST_MSG_AAD_LEN 48u
#define SNP_GUEST_MSG_TAG_LEN 16u
#define SNP_GUEST_MSG_IV_LEN 12u
#define SNP_AEAD_AES_256_GCM 1u
#define SNP_GUEST_MSG_HDR_VERSION 1u
#define SNP_VMPCK_LEN 32u

/* The AES-GCM IV of message @seqno: the number little-endian in bytes
 * 0-7, bytes 8-11 zero (spec notes 10.2). One definition for the SVSM
 * and the emulated PSP. */
static inline void snp_guest_msg_iv(uint64_t seqno,
				    uint8_t iv[SNP_GUEST_MSG_IV_LEN])
{
	unsigned i;

	for (i = 0; i < SNP_GUEST_MSG_IV_LEN; i++) {
		iv[i] = i < 8 ? (uint8_t)(seqno >> (8 * i)) : 0;
	}
}

_Static_assert(sizeof(struct snp_guest_msg_hdr) == SNP_GUEST_MSG_HDR_SIZE,
	       "56860 Table 98: 0x60-byte header");
_Static_assert(offsetof(struct snp_guest_msg_hdr, msg_seqno) == 0x20,
	       "seqno at 0x20");
_Static_assert(offsetof(struct snp_guest_msg_hdr, algo) ==
		       SNP_GUEST_MSG_AAD_OFF,
	       "AAD starts at algo, 0x30");
_Static_assert(offsetof(struct snp_guest_msg_hdr, msg_vmpck) == 0x3C,
	       "msg_vmpck at 0x3C");

enum snp_msg_type {
	SNP_MSG_KEY_REQ = 3,
	SNP_MSG_KEY_RSP = 4,
	SNP_MSG_REPORT_REQ = 5,
	SNP_MSG_REPORT_RSP = 6,
};

/* MSG_REPORT_REQ (56860 Table 20; Linux snp_report_req). */
struct snp_report_req {
	uint8_t user_data[64];
	uint32_t vmpl;
	uint32_t key_sel;
	uint8_t rsvd[24];
} __attribute__((packed));
_Static_assert(sizeof(struct snp_report_req) == 0x60, "REPORT_REQ 0x60");

#define SNP_REPORT_SIZE 0x4A0u
/* MSG_REPORT_RSP (56860 Table 25). */
struct snp_report_rsp {
	uint32_t status;
	uint32_t report_size;
	uint8_t rsvd[24];
	uint8_t report[SNP_REPORT_SIZE];
} __attribute__((packed));
_Static_assert(offsetof(struct snp_report_rsp, report) == 0x20,
	       "the report follows a 0x20-byte status header");

/* MSG_KEY_REQ (56860 Table 19; Linux snp_derived_key_req). VMPL must be
 * at least the requesting VMPCK's; GUEST_SVN at most the ID block's; TCB
 * at most the committed TCB. */
struct snp_key_req {
	uint32_t root_key_select; /* bit 0: 0 VCEK, 1 VMRK; bits 2:1 key_sel */
	uint32_t rsvd;
	uint64_t guest_field_select;
	uint32_t vmpl;
	uint32_t guest_svn;
	uint64_t tcb_version;
} __attribute__((packed));
_Static_assert(sizeof(struct snp_key_req) == 0x20, "KEY_REQ 0x20");

#define SNP_DERIVED_KEY_LEN 32u
/* GUEST_FIELD_SELECT [5:0] (message version 1; [63:6] must be zero). */
#define SNP_KEY_GFS_POLICY (1ull << 0)
#define SNP_KEY_GFS_IMAGE_ID (1ull << 1)
#define SNP_KEY_GFS_FAMILY_ID (1ull << 2)
#define SNP_KEY_GFS_MEASUREMENT (1ull << 3)
#define SNP_KEY_GFS_SVN (1ull << 4)
#define SNP_KEY_GFS_TCB (1ull << 5)
/* MSG_KEY_RSP: status, reserved, the 32-byte key. */
struct snp_key_rsp {
	uint32_t status;
	uint8_t rsvd[28];
	uint8_t key[SNP_DERIVED_KEY_LEN];
} __attribute__((packed));
_Static_assert(sizeof(struct snp_key_rsp) == 0x40, "KEY_RSP 0x40");

/* Status of a report or key response (56860 Table 24). */
#define SNP_MSG_STATUS_SUCCESS 0x00u
#define SNP_MSG_STATUS_INVALID_PARAM 0x16u
#define SNP_MSG_STATUS_INVALID_KEY 0x27u

/* Attestation report fields (56860 Table 23; spec notes 10.7). */
#define SNP_REPORT_OFF_VERSION 0x000u
#define SNP_REPORT_OFF_GUEST_SVN 0x004u
#define SNP_REPORT_OFF_POLICY 0x008u
#define SNP_REPORT_OFF_FAMILY_ID 0x010u
#define SNP_REPORT_OFF_IMAGE_ID 0x020u
#define SNP_REPORT_OFF_VMPL 0x030u
#define SNP_REPORT_OFF_SIG_ALGO 0x034u
#define SNP_REPORT_OFF_CURRENT_TCB 0x038u
#define SNP_REPORT_OFF_PLATFORM_INFO 0x040u
#define SNP_REPORT_OFF_FLAGS 0x048u
#define SNP_REPORT_OFF_REPORT_DATA 0x050u
#define SNP_REPORT_OFF_MEASUREMENT 0x090u
#define SNP_REPORT_OFF_HOST_DATA 0x0C0u
#define SNP_REPORT_OFF_ID_KEY_DIGEST 0x0E0u
#define SNP_REPORT_OFF_AUTHOR_KEY_DIGEST 0x110u
#define SNP_REPORT_OFF_REPORT_ID 0x140u
#define SNP_REPORT_OFF_REPORT_ID_MA 0x160u
#define SNP_REPORT_OFF_REPORTED_TCB 0x180u
#define SNP_REPORT_OFF_CHIP_ID 0x1A0u
#define SNP_REPORT_OFF_COMMITTED_TCB 0x1E0u /* report version 2+ */
#define SNP_REPORT_OFF_LAUNCH_TCB 0x1F0u
#define SNP_REPORT_OFF_SIGNATURE 0x2A0u
#define SNP_REPORT_SIGNED_LEN 0x2A0u /* bytes 0x000-0x29F are signed */
#define SNP_REPORT_SIG_COMPONENT 72u /* R at 0x2A0, S at 0x2E8, LE */
#define SNP_REPORT_DATA_LEN 64u
#define SNP_MEASUREMENT_LEN 48u
#define SNP_CHIP_ID_LEN 64u
#define SNP_SIG_ALGO_ECDSA_P384_SHA384 1u

/*
 * Extended guest request certificate table (GHCB spec 4.1.8.1): entries
 * {GUID, u32 offset, u32 length} ended by an all-zero entry, then the
 * certificates (DER).
 */
#define SNP_CERT_ENTRY_SIZE 24u
/* 63da758d-e664-4564-adc5-f4b93be8accd */
#define SNP_CERT_GUID_VCEK                                                     \
	{                                                                      \
		0x8d, 0x75, 0xda, 0x63, 0x64, 0xe6, 0x64, 0x45, 0xad, 0xc5,    \
			0xf4, 0xb9, 0x3b, 0xe8, 0xac, 0xcd                     \
	}
/* 4ab7b379-bbac-4fe4-a02f-05aef327c782 */
#define SNP_CERT_GUID_ASK                                                      \
	{                                                                      \
		0x79, 0xb3, 0xb7, 0x4a, 0xac, 0xbb, 0xe4, 0x4f, 0xa0, 0x2f,    \
			0x05, 0xae, 0xf3, 0x27, 0xc7, 0x82                     \
	}
/* c0b406a4-a803-4952-9743-3fb6014cd0ae */
#define SNP_CERT_GUID_ARK                                                      \
	{                                                                      \
		0xa4, 0x06, 0xb4, 0xc0, 0x03, 0xa8, 0x52, 0x49, 0x97, 0x43,    \
			0x3f, 0xb6, 0x01, 0x4c, 0xd0, 0xae                     \
	}

#endif /* ABI_SVSM_ATTEST_H */
