/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's channel to the PSP: SNP guest messages under VMPCK0 (spec
 * notes section 10). VMPCK0 is copied out of the PSP's secrets page at
 * boot and never leaves SVSM memory; the sequence number lives here too.
 * Rules kept (10.4): a request uses last + 1, its response must carry
 * last + 2, and the counter moves by 2 per round trip. A number is never
 * used for two different messages: a request the hypervisor took and did
 * not answer (BUSY for longer than Linux waits, 60 s; or an error in
 * exit_info_2) stays pending, and the next exchange first resends its
 * identical bytes; the key is kept. Only a broken protocol wipes VMPCK0:
 * a response that fails its checks (tag, number, type, size) is the
 * hypervisor tampering, and the SVSM also terminates
 * (TERM_CSVSM_GUEST_MSG_TAMPERED); a certificate length that contradicts
 * itself ends attestation for this boot.
 */
#ifndef SVSM_GUEST_MSG_H
#define SVSM_GUEST_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/err.h"

/** Take VMPCK0 (32 bytes) from the PSP's secrets page; zero: none. */
void guest_msg_init(const uint8_t *key);
/** VMPCK0 is present and not wiped. */
bool guest_msg_available(void);

enum gmsg_status {
	GMSG_OK = 0,
	GMSG_UNAVAILABLE, /* no VMPCK0 (never had one, or wiped) */
	/* The hypervisor was still busy when the retries ran out: the
	 * request is pending (resent first next time), the key kept. */
	GMSG_BUSY,
	/* Refused: by the hypervisor or PSP after sending (pending, key
	 * kept), before sending (nothing used), or with a contradictory
	 * certificate length (key wiped). */
	GMSG_REFUSED,
};

/**
 * One round trip: @req_len bytes of type @type out, the response payload
 * (at most @rsp_cap bytes, type @type + 1) in @rsp with *rsp_len set.
 * @certs/@certs_len as plat_guest_request(): *certs_len is @certs' size
 * in, the host's length out, and @certs holds the table only if the
 * length out is at most the size in. Serialised internally. While the
 * host answers BUSY the call waits and resends, for up to 60 s.
 */
enum gmsg_status guest_msg_exchange(uint8_t type, const void *req,
				    size_t req_len, void *rsp, size_t rsp_cap,
				    size_t *rsp_len, void *certs,
				    size_t *certs_len);

/**
 * A key the PSP derives for VMPL0 from the chip's root (VCEK) and
 * @guest_field_select (56860 Table 19, SNP_KEY_GFS_*), with
 * @tcb_version mixed in when SNP_KEY_GFS_TCB selects it (the PSP refuses
 * one above its committed TCB), for sealing SVSM state. VMPL0 is mixed
 * in always: no VMPL1+ guest can ask for it. The key never leaves SVSM
 * memory.
 */
enum svsm_err guest_msg_derive_key(uint64_t guest_field_select,
				   uint64_t tcb_version, uint8_t key[32]);

/* Why a response page was refused (guest_msg_decode). */
enum gmsg_decode {
	GMSG_DECODE_OK = 0,
	GMSG_DECODE_BAD_HEADER, /* algo, versions, header size, VMPCK */
	GMSG_DECODE_BAD_SEQNO,
	GMSG_DECODE_BAD_TYPE,
	GMSG_DECODE_BAD_SIZE, /* payload larger than the page or @cap */
	GMSG_DECODE_BAD_TAG,
};

/**
 * Check and decrypt the response @page (4 KiB, SVSM memory) expected to
 * carry @seqno and @type: the payload replaces the ciphertext in place
 * at offset 0x60, *len its size (at most @cap). Only GMSG_DECODE_OK
 * leaves plaintext; every other result leaves nothing usable.
 */
enum gmsg_decode guest_msg_decode(const uint8_t key[32], uint64_t seqno,
				  uint8_t type, uint8_t *page, size_t cap,
				  size_t *len);

#endif /* SVSM_GUEST_MSG_H */
