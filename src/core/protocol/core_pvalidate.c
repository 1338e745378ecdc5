/* SPDX-License-Identifier: MIT */
/*
 * SVSM_CORE_PVALIDATE (58019 section 6.2). Linux puts up to 510 entries in
 * its Calling Area, sends ignore_cf = 0, and on FAIL_SIZEMISMATCH for a
 * 2 MiB entry expects `next` to stay on that entry so it can validate the
 * range as 4 KiB pages.
 */
#include "svsm/err.h"
#include "svsm/guest_list.h"
#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/overflow.h"
#include "svsm/ownership.h"
#include "svsm/page_state.h"
#include "svsm/protocol.h"

#include "abi/snp.h"
#include "abi/svsm_call.h"
#include "abi/svsm_core.h"

/* COCO and AMD's SVSM do not zero the legacy ROM window: the host may map
 * it read-only, and a write would fault forever. */
#define ROM_START 0xC0000ull
#define ROM_END 0x100000ull

struct pvalidate_op {
	gpa_t gpa;
	enum page_size size;
	bool validate;
	bool ignore_cf;
};

/**
 * Decode and check one entry; no side effects. @w: the walk's ownership
 * window (svsm/ownership.h), which spares the consecutive pages of a list
 * their lookups of the memory map and the vCPU registry.
 */
static enum svsm_result pvalidate_entry_decode(uint64_t e,
					       struct pvalidate_op *op,
					       struct owner_window *w)
{
	uint64_t sz = e & PVALIDATE_ENTRY_SIZE_MASK;

	if (sz > SVSM_ENTRY_SIZE_2M || (e & PVALIDATE_ENTRY_RESERVED_MASK)) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	op->size = sz == SVSM_ENTRY_SIZE_2M ? PAGE_2M : PAGE_4K;
	op->gpa = gpa_init(e & ~(SNP_PAGE_SIZE - 1));
	op->validate = (e & PVALIDATE_ENTRY_ACTION_VALIDATE) != 0;
	op->ignore_cf = (e & PVALIDATE_ENTRY_IGNORE_CF) != 0;
	if (!gpa_is_aligned(op->gpa, page_size_bytes(op->size))) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	/* T01: SVSM memory, VMSAs and Calling Areas are never the guest's
	 * to validate or invalidate. */
	if (!owner_is_guest_page_free_in(w, op->gpa,
					 page_size_bytes(op->size))) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	return SVSM_SUCCESS;
}

/* Zero a newly validated range, skipping the legacy ROM window. */
static enum svsm_err pvalidate_zero(struct owner_window *w, gpa_t gpa,
				    uint64_t len)
{
	uint64_t start = gpa_val(gpa);
	uint64_t end = start + len;
	enum svsm_err err = SVSM_OK;

	if (start < ROM_START) {
		uint64_t stop = end < ROM_START ? end : ROM_START;

		err = guestmem_zero_page_free(w, gpa, stop - start);
	}
	if (err == SVSM_OK && end > ROM_END) {
		uint64_t from = start > ROM_END ? start : ROM_END;

		err = guestmem_zero_page_free(w, gpa_init(from), end - from);
	}
	return err;
}

/*
 * A validation whose zeroing or grant failed is undone: the page must not
 * stay validated with no guest rights. They fail only if the host changed
 * the RMP during the call, e.g. PSMASHed a 2 MiB range and took one of its
 * 4 KiB pages back; the 2 MiB invalidation then meets 4 KiB entries and
 * the range is invalidated page by page. A page the host took back is not
 * validated any more, so its failure there changes nothing.
 */
static void pvalidate_undo(const struct pvalidate_op *op)
{
	bool unchanged = false;
	uint64_t off;

	LOG_NOTICE("pvalidate: %llx changed under the call; invalidated again",
		   (unsigned long long)gpa_val(op->gpa));
	if (page_pvalidate(op->gpa, op->size, false, &unchanged) ==
		    SNP_RET_SUCCESS ||
	    op->size == PAGE_4K) {
		return;
	}
	for (off = 0; off < SNP_PAGE_SIZE_2M; off += SNP_PAGE_SIZE) {
		(void)page_pvalidate(gpa_add(op->gpa, off), PAGE_4K, false,
				     &unchanged);
	}
}

static enum svsm_result pvalidate_entry_invoke(const struct pvalidate_op *op,
					       struct owner_window *w)
{
	bool unchanged = false;
	enum snp_ret rc;

	if (op->validate) {
		rc = page_pvalidate(op->gpa, op->size, true, &unchanged);
		if (rc != SNP_RET_SUCCESS) {
			return core_rmp_result(rc);
		}
		if (unchanged && !op->ignore_cf) {
			return SVSM_PVALIDATE_FAIL_UNCHANGED;
		}
		/* T04: the hypervisor chose what this page held before; the
		 * guest only ever sees it zeroed. The guest VMPL has no access
		 * until the grant below. */
		if (!unchanged &&
		    pvalidate_zero(w, op->gpa, page_size_bytes(op->size)) !=
			    SVSM_OK) {
			pvalidate_undo(op);
			return SVSM_ERR_INVALID_ADDRESS;
		}
		/* The grant fails the same way (another vCPU's page-state
		 * change split the 2 MiB entry meanwhile): what this call
		 * validated is undone, so Linux's 4 KiB retry finds the pages
		 * as it left them, not validated without guest rights. */
		rc = page_grant_guest(op->gpa, op->size);
		if (rc != SNP_RET_SUCCESS && !unchanged) {
			pvalidate_undo(op);
		}
		return core_rmp_result(rc);
	}
	/* Invalidate: revoke (and flush) first, so no guest VMPL keeps a
	 * mapping of a page that is no longer validated. */
	rc = page_revoke_guest(op->gpa, op->size);
	if (rc != SNP_RET_SUCCESS) {
		return core_rmp_result(rc);
	}
	rc = page_pvalidate(op->gpa, op->size, false, &unchanged);
	if (rc != SNP_RET_SUCCESS) {
		return core_rmp_result(rc);
	}
	if (unchanged && !op->ignore_cf) {
		return SVSM_PVALIDATE_FAIL_UNCHANGED;
	}
	return SVSM_SUCCESS;
}

enum svsm_result core_pvalidate(struct call_ctx *ctx)
{
	struct guest_list *list = (struct guest_list *)ctx->cpu->scratch;
	struct owner_window window = {0};
	enum svsm_err err;
	enum svsm_result ret = SVSM_SUCCESS;

	_Static_assert(sizeof(struct guest_list) <= sizeof(ctx->cpu->scratch),
		       "the list copy fits the per-CPU scratch page");
	err = guest_list_read(gpa_init(ctx->rcx), list);
	if (err != SVSM_OK) {
		return err_to_result(err);
	}
	while (list->next < list->entries) {
		struct pvalidate_op op;

		ret = pvalidate_entry_decode(list->entry[list->next], &op,
					     &window);
		if (ret == SVSM_SUCCESS) {
			ret = pvalidate_entry_invoke(&op, &window);
		}
		if (ret != SVSM_SUCCESS) {
			break; /* `next` stays on the failing entry */
		}
		list->next++;
	}
	err = guest_list_write_next(list);
	if (err != SVSM_OK && ret == SVSM_SUCCESS) {
		ret = err_to_result(err);
	}
	return ret;
}
