/* SPDX-License-Identifier: MIT */
/*
 * The GHCB page protocol (56421 section 2.3.2; spec notes 7.2): the SVSM
 * fills a fresh page, marks each field it supplies in the valid bitmap,
 * names the page in the GHCB MSR and exits. The hypervisor's reply is
 * copied out once (the page stays writable by the hypervisor, which may
 * change it between two reads) and only the copy is checked and used.
 */
#include "svsm/check.h"
#include "svsm/le.h"
#include "svsm/log.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"
#include "abi/snp.h"

#include "ghcb.h"
#include "snp_hw.h"

static void put64(uint8_t *page, unsigned off, uint64_t v)
{
	memcpy(page + off, &v, 8);
	ghcb_page_set_valid(page, off);
}

static uint64_t get64(const uint8_t *copy, unsigned off)
{
	uint64_t v;

	memcpy(&v, copy + off, 8);
	return v;
}

/* A macro, so the door names the function that saw the broken reply. */
#define broken(what)                                                           \
	SNP_TERMINATE_HV(TERM_CSVSM_GHCB_RESPONSE,                             \
			 "ghcb: reply broke the protocol: %s", (what))

void ghcb_cpu_init(struct ghcb_cpu *g, gpa_t gpa)
{
	bool unchanged = false;

	CHECK(gpa_val(gpa) % GHCB_PAGE_SIZE == 0);
	/* Shared before use: a private GHCB would be unreadable to the
	 * hypervisor, which is then free to misbehave. The page is the
	 * SVSM's: rescinding its validation first cannot fail. */
	CHECK(snp_hw_pvalidate(gpa, false, false, &unchanged) ==
	      SNP_RET_SUCCESS);
	ghcb_msr_psc(gpa, false);
	ghcb_msr_register(gpa);
	g->gpa = gpa;
	g->page = snp_hw_map_shared(gpa);
	if (g->page == NULL) {
		/* Reported shared, yet not mappable as shared: a lie. */
		SNP_TERMINATE_HV(TERM_CSVSM_PSC_FAILED,
				 "ghcb: GHCB 0x%llx not mappable as shared",
				 (unsigned long long)gpa_val(gpa));
	}
	memset(g->page, 0, GHCB_PAGE_SIZE);
}

void ghcb_call(struct ghcb_cpu *g, const struct ghcb_in *in,
	       struct ghcb_out *out)
{
	uint8_t *copy = g->reply;
	uint8_t *p = g->page;
	uint16_t version = GHCB_VERSION_SNP;
	uint32_t usage = GHCB_USAGE_STANDARD;

	_Static_assert(sizeof(g->reply) == GHCB_SAVE_AREA_END, "save area");
	CHECK(in->buf_len <= GHCB_SHARED_BUFFER_SIZE);
	/* The shared buffer keeps what was last sent through it: only ever
	 * data meant for the hypervisor. */
	memset(p, 0, GHCB_SAVE_AREA_END);
	put64(p, GHCB_OFF_SW_EXIT_CODE, in->exit_code);
	put64(p, GHCB_OFF_SW_EXIT_INFO_1, in->info1);
	put64(p, GHCB_OFF_SW_EXIT_INFO_2, in->info2);
	if (in->has_rax) {
		put64(p, GHCB_OFF_RAX, in->rax);
	}
	if (in->has_rbx) {
		put64(p, GHCB_OFF_RBX, in->rbx);
	}
	if (in->has_rcx) {
		put64(p, GHCB_OFF_RCX, in->rcx);
	}
	if (in->has_rdx) {
		put64(p, GHCB_OFF_RDX, in->rdx);
	}
	if (in->has_scratch) {
		put64(p, GHCB_OFF_SW_SCRATCH, in->scratch);
	}
	if (in->buf_len != 0) {
		memcpy(p + GHCB_OFF_SHARED_BUFFER, in->buf, in->buf_len);
	}
	le_put16(p + GHCB_OFF_PROTOCOL_VERSION, version);
	le_put32(p + GHCB_OFF_USAGE, usage);

	snp_hw_write_ghcb_msr(gpa_val(g->gpa));
	snp_hw_vmgexit();

	/* The one read of the reply (and of its buffer, if asked for). */
	memcpy(copy, p, GHCB_SAVE_AREA_END);
	if (in->want_buf) {
		memcpy(out->buf, p + GHCB_OFF_SHARED_BUFFER, sizeof(out->buf));
	}
	if (snp_hw_read_ghcb_msr() != gpa_val(g->gpa)) {
		broken("the GHCB MSR no longer names the GHCB");
	}
	if (!ghcb_page_is_valid(copy, GHCB_OFF_SW_EXIT_INFO_1) ||
	    !ghcb_page_is_valid(copy, GHCB_OFF_SW_EXIT_INFO_2)) {
		broken("exit_info_1 or exit_info_2 not marked valid");
	}
	out->info1 = get64(copy, GHCB_OFF_SW_EXIT_INFO_1);
	out->info2 = get64(copy, GHCB_OFF_SW_EXIT_INFO_2);
	out->has_rax = ghcb_page_is_valid(copy, GHCB_OFF_RAX);
	out->rax = out->has_rax ? get64(copy, GHCB_OFF_RAX) : 0;
	out->has_rbx = ghcb_page_is_valid(copy, GHCB_OFF_RBX);
	out->rbx = out->has_rbx ? get64(copy, GHCB_OFF_RBX) : 0;
	out->has_rdx = ghcb_page_is_valid(copy, GHCB_OFF_RDX);
	out->rdx = out->has_rdx ? get64(copy, GHCB_OFF_RDX) : 0;
	/* Result 1 would inject an exception, 2 says the SVSM's request
	 * was malformed: the SVSM sends none, so either is a lie. */
	if ((uint32_t)out->info1 != GHCB_RESULT_OK &&
	    !(in->may_refuse &&
	      (uint32_t)out->info1 == GHCB_RESULT_MALFORMED)) {
		broken("a result other than 0");
	}
}

void ghcb_run_vmpl(struct ghcb_cpu *g, unsigned vmpl)
{
	struct ghcb_in in = {.exit_code = SVM_VMGEXIT_SNP_RUN_VMPL,
			     .info1 = vmpl};
	struct ghcb_out out;

	ghcb_call(g, &in, &out);
	if (out.info2 != 0) {
		SNP_TERMINATE_HV(TERM_CSVSM_RUN_VMPL_REFUSED,
				 "ghcb: run VMPL %u refused: 0x%llx", vmpl,
				 (unsigned long long)out.info2);
	}
}

void ghcb_ap_create(struct ghcb_cpu *g, uint32_t apic_id, gpa_t vmsa,
		    unsigned vmpl, uint64_t sev_features)
{
	struct ghcb_in in = {
		.exit_code = SVM_VMGEXIT_AP_CREATION,
		.info1 = SVM_VMGEXIT_AP_CREATE |
			 ((uint64_t)vmpl << SVM_VMGEXIT_AP_VMPL_SHIFT) |
			 ((uint64_t)apic_id << 32),
		.info2 = gpa_val(vmsa),
		.rax = sev_features,
		.has_rax = true,
	};
	struct ghcb_out out;

	ghcb_call(g, &in, &out);
}

uint64_t ghcb_guest_request(struct ghcb_cpu *g, gpa_t req, gpa_t rsp,
			    gpa_t certs, uint64_t *pages)
{
	bool ext = pages != NULL;
	struct ghcb_in in = {
		.exit_code = ext ? SVM_VMGEXIT_EXT_GUEST_REQUEST
				 : SVM_VMGEXIT_GUEST_REQUEST,
		.info1 = gpa_val(req),
		.info2 = gpa_val(rsp),
		.rax = ext ? gpa_val(certs) : 0,
		.rbx = ext ? *pages : 0,
		.has_rax = ext,
		.has_rbx = ext,
	};
	struct ghcb_out out;

	ghcb_call(g, &in, &out);
	if (ext && (out.info2 >> 32) == 1) { /* INVALID_LEN: RBX = pages */
		if (!out.has_rbx || out.rbx <= *pages) {
			broken("INVALID_LEN without a larger page count");
		}
		*pages = out.rbx;
	}
	return out.info2;
}
