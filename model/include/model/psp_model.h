/* SPDX-License-Identifier: MIT */
/*
 * The emulated AMD Secure Processor (PSP) of the SNP model, used by emu
 * and sim where no real PSP exists. It does what the firmware does for a
 * guest (SNP firmware ABI 56860, spec notes section 10):
 * - the launch digest (MEASUREMENT) of the pages it launched;
 * - SNP guest messages under the VMPCKs it put in the secrets page:
 *   AES-256-GCM with the header as AAD, sequence numbers that must be the
 *   last one + 1 (replays are refused);
 * - MSG_REPORT_REQ: an attestation report (version 3) signed by its VCEK
 *   (ECDSA P-384), with the requesting VMPCK's VMPL floor enforced;
 * - MSG_KEY_REQ: keys derived from a chip secret and the guest's identity.
 * Its keys are a TEST chain made by the build (scripts/make-test-pki.sh),
 * never AMD's. Fault modes make it misbehave for the SVSM's tests.
 */
#ifndef SVSM_PSP_MODEL_H
#define SVSM_PSP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PSP_VMPCK_COUNT 4u

/* A made-up chip's identity: the build's from its test PKI (test_pki.c),
 * or, on emu, a named chip's (emu/src/psp/chip_identity.c). */
struct psp_identity {
	const uint8_t *vcek_key_der; /* PKCS#8 P-384 private key */
	size_t vcek_key_len;
	const uint8_t *chip_id; /* 64 bytes, as in the VCEK's hwID */
	uint64_t reported_tcb;
	/* The host's extended-request certificate table (VCEK, ASK, ARK). */
	const uint8_t *certs;
	size_t certs_len;
};

extern const struct psp_identity psp_test_identity;

/* Ways the model misbehaves, for tests (honest by default). */
enum psp_fault {
	PSP_HONEST = 0,
	PSP_FAULT_BAD_TAG,     /* response tag does not authenticate */
	PSP_FAULT_WRONG_SEQNO, /* authenticated, with seqno + 2 */
	PSP_FAULT_TRUNCATED,   /* authenticated, report cut short */
	PSP_FAULT_WRONG_TYPE,  /* authenticated, type = request type */
	PSP_FAULT_BAD_STATUS,  /* authenticated, status INVALID_PARAM */
};

struct psp_model {
	uint8_t vmpck[PSP_VMPCK_COUNT][32];
	uint64_t last_seqno[PSP_VMPCK_COUNT]; /* last accepted request */
	uint8_t chip_secret[48];	      /* root of derived keys */
	uint8_t measurement[48];
	uint64_t policy;
	const struct psp_identity *id;
	enum psp_fault fault;
	uint32_t reports; /* reports signed */
	/* The firmware runs one command at a time, whatever the host does:
	 * taken around each guest request, so a sequence number is checked
	 * and consumed in one step (psp_guest_request). */
	bool busy;
};

/* Firmware status of a guest request the model refuses (returned through
 * the hypervisor's exit_info_2 [31:0]). */
#define PSP_STATUS_OK 0u
#define PSP_STATUS_INVALID_PARAM 0x16u /* bad header, tag, seqno, key */

/**
 * Start a PSP for a guest: VMPCKs and chip secret from @entropy (the
 * caller's random bytes, 4*32 + 48), launch digest zero, policy @policy.
 */
void psp_init(struct psp_model *p, const struct psp_identity *id,
	      const uint8_t *entropy, uint64_t policy);

/* Page types of SNP_LAUNCH_UPDATE (56860 Table 67). */
enum psp_page_type {
	PSP_PAGE_NORMAL = 1,
	PSP_PAGE_VMSA = 2,
	PSP_PAGE_ZERO = 3,
	PSP_PAGE_UNMEASURED = 4,
	PSP_PAGE_SECRETS = 5,
	PSP_PAGE_CPUID = 6,
};

/**
 * Extend a launch digest with one page, as SNP_LAUNCH_UPDATE does:
 * digest = SHA-384(PAGE_INFO{digest, SHA-384(page) or zero, 0x70, type,
 * not IMI, no VMPL1-3 permissions, gpa}). @page is 4 KiB for NORMAL and
 * VMSA pages and ignored otherwise. The same code serves the IGVM tool.
 */
bool psp_launch_digest_page(uint8_t digest[48], uint64_t gpa,
			    enum psp_page_type type, const uint8_t *page);

/**
 * One SNP_GUEST_REQUEST: decrypt and check the 4 KiB message @req, act,
 * write the encrypted response page to @rsp. Returns a firmware status;
 * on anything but PSP_STATUS_OK, @rsp is not written.
 */
uint32_t psp_guest_request(struct psp_model *p, const uint8_t *req,
			   uint8_t *rsp);

/**
 * An honest host's SNP (extended) guest request in front of the PSP, as
 * plat_guest_request() reports it: with @certs, INVALID_LEN (and the
 * length needed in *certs_len) if the buffer is too small, else the
 * certificate table copied; then the PSP's status. emu calls it as its
 * host; sim's hypervisor model wraps its hostile behaviours around it.
 */
uint64_t psp_host_guest_request(struct psp_model *p, const uint8_t *req,
				uint8_t *rsp, void *certs, size_t *certs_len);

#endif /* SVSM_PSP_MODEL_H */
