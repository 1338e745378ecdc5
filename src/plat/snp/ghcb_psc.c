/* SPDX-License-Identifier: MIT */
/*
 * Page state changes through the GHCB (NAE 0x8000_0010; spec notes 7.4)
 * and the conversions built on them. The hypervisor may stop early and
 * return with cur_entry advanced; the SVSM loops. Like Linux it treats a
 * cur_entry that moves back, a changed end_entry or entry, a non-zero
 * reserved field or an error as fatal, and it also requires progress.
 * A PSC that claims success proves nothing: making pages private ends in
 * PVALIDATE, which fails unless the hypervisor assigned exactly them.
 */
#include "svsm/log.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"
#include "abi/snp.h"

#include "ghcb.h"
#include "snp_hw.h"

/* Linux's VMGEXIT_PSC_MAX_ENTRY: what hypervisors are tested with. */
#define PSC_BATCH 64u
/* Calls without any progress before the SVSM gives up on the host. */
#define PSC_STALL_LIMIT 8u

struct psc_buf {
	uint16_t cur_entry;
	uint16_t end_entry;
	uint32_t reserved;
	uint64_t entry[PSC_BATCH];
};

/* A macro, so the door names the function that saw the failure. */
#define psc_failed(what)                                                       \
	SNP_TERMINATE_HV(TERM_CSVSM_PSC_FAILED, "ghcb: page state change: %s", \
			 (what))

static void psc_batch(struct ghcb_cpu *g, const uint64_t *e, unsigned n)
{
	struct psc_buf b;
	struct ghcb_out out;
	unsigned stalls = 0;
	unsigned i;

	memset(&b, 0, sizeof(b));
	b.end_entry = (uint16_t)(n - 1);
	memcpy(b.entry, e, n * sizeof(e[0]));
	for (;;) {
		struct ghcb_in in = {
			.exit_code = SVM_VMGEXIT_PSC,
			.scratch = gpa_val(g->gpa) + GHCB_OFF_SHARED_BUFFER,
			.has_scratch = true,
			.buf = &b,
			.buf_len = GHCB_PSC_HDR_SIZE + n * sizeof(e[0]),
			.want_buf = true,
		};
		struct psc_buf r;
		bool progress = false;

		ghcb_call(g, &in, &out);
		memcpy(&r, out.buf, GHCB_PSC_HDR_SIZE + n * sizeof(e[0]));
		if (out.info2 != 0) {
			psc_failed("the hypervisor reported an error");
		}
		if (r.reserved != 0 || r.end_entry != b.end_entry ||
		    r.cur_entry < b.cur_entry) {
			psc_failed("the header went backwards or changed");
		}
		progress = r.cur_entry > b.cur_entry;
		for (i = 0; i < n; i++) {
			uint64_t mask = ~0xFFFull; /* all but cur_page */

			if ((r.entry[i] & mask) != (e[i] & mask) ||
			    GHCB_PSC_ENTRY_CUR_PAGE(r.entry[i]) <
				    GHCB_PSC_ENTRY_CUR_PAGE(b.entry[i])) {
				psc_failed("an entry changed");
			}
			progress = progress ||
				   GHCB_PSC_ENTRY_CUR_PAGE(r.entry[i]) >
					   GHCB_PSC_ENTRY_CUR_PAGE(b.entry[i]);
		}
		if (r.cur_entry > r.end_entry) {
			return; /* every entry done */
		}
		stalls = progress ? 0 : stalls + 1;
		if (stalls >= PSC_STALL_LIMIT) {
			psc_failed("no progress");
		}
		b = r; /* continue from where the hypervisor stopped */
	}
}

void ghcb_psc(struct ghcb_cpu *g, const uint64_t *entries, unsigned count)
{
	unsigned done;

	for (done = 0; done < count; done += PSC_BATCH) {
		unsigned n =
			count - done < PSC_BATCH ? count - done : PSC_BATCH;

		psc_batch(g, entries + done, n);
	}
}

static void psc_range(struct ghcb_cpu *g, gpa_t gpa, unsigned pages,
		      unsigned op)
{
	uint64_t e[PSC_BATCH];
	unsigned done = 0;

	while (done < pages) {
		unsigned n =
			pages - done < PSC_BATCH ? pages - done : PSC_BATCH;
		unsigned i;

		for (i = 0; i < n; i++) {
			e[i] = GHCB_PSC_ENTRY((gpa_val(gpa) >> 12) + done + i,
					      op, false);
		}
		ghcb_psc(g, e, n);
		done += n;
	}
}

void snp_make_private(struct ghcb_cpu *g, gpa_t gpa, unsigned pages)
{
	unsigned i;

	psc_range(g, gpa, pages, GHCB_PSC_OP_PRIVATE);
	for (i = 0; i < pages; i++) {
		gpa_t p = gpa_init(gpa_val(gpa) + i * SNP_PAGE_SIZE);
		bool unchanged = false;

		/* Fails (FAIL_INPUT) unless the page is now assigned to the
		 * guest; CF set means it was validated before: the
		 * hypervisor did not convert it. */
		if (snp_hw_pvalidate(p, false, true, &unchanged) !=
			    SNP_RET_SUCCESS ||
		    unchanged) {
			psc_failed("a page is not private after conversion");
		}
	}
}

void snp_make_shared(struct ghcb_cpu *g, gpa_t gpa, unsigned pages)
{
	unsigned i;

	for (i = 0; i < pages; i++) {
		gpa_t p = gpa_init(gpa_val(gpa) + i * SNP_PAGE_SIZE);
		bool unchanged = false;

		/* The SVSM's own invariant: it only shares pages it
		 * validated, so rescinding must succeed. */
		if (snp_hw_pvalidate(p, false, false, &unchanged) !=
		    SNP_RET_SUCCESS) {
			psc_failed("rescinding validation failed");
		}
	}
	psc_range(g, gpa, pages, GHCB_PSC_OP_SHARED);
}
