/* SPDX-License-Identifier: MIT */
/*
 * SVSM_CORE_DEPOSIT_MEM and SVSM_CORE_WITHDRAW_MEM (58019 sections 6.5, 6.6):
 * the guest lends validated pages to the SVSM and takes them back.
 * Threat T07: a deposited page is SVSM memory: no guest VMPL may touch it
 * while it is deposited, and it is zeroed before it is returned, so nothing
 * the SVSM kept there leaks.
 */
#include "svsm/deposit.h"
#include "svsm/err.h"
#include "svsm/guest_list.h"
#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/ownership.h"
#include "svsm/page_state.h"
#include "svsm/plat.h"
#include "svsm/protocol.h"
#include "svsm/terminate.h"
#include "svsm/vcpu.h"

#include "abi/snp.h"
#include "abi/svsm_caa.h"
#include "abi/svsm_call.h"
#include "abi/svsm_core.h"

static enum svsm_result deposit_entry_decode(uint64_t e, gpa_t *gpa,
					     enum page_size *size)
{
	uint64_t sz = e & DEPOSIT_ENTRY_SIZE_MASK;

	if (sz > SVSM_ENTRY_SIZE_2M || (e & DEPOSIT_ENTRY_RESERVED_MASK)) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	*size = sz == SVSM_ENTRY_SIZE_2M ? PAGE_2M : PAGE_4K;
	*gpa = gpa_init(e & ~(SNP_PAGE_SIZE - 1));
	if (!gpa_is_aligned(*gpa, page_size_bytes(*size))) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (!owner_is_guest_page_free(*gpa, page_size_bytes(*size))) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	return SVSM_SUCCESS;
}

/* Every 4 KiB page of the range must be validated: probe each one. */
static bool deposit_range_is_validated(gpa_t gpa, enum page_size size)
{
	uint64_t off;
	uint8_t b;

	for (off = 0; off < page_size_bytes(size); off += SNP_PAGE_SIZE) {
		if (guestmem_read(gpa_add(gpa, off), &b, 1) != SVSM_OK) {
			return false;
		}
	}
	return true;
}

static enum svsm_result deposit_entry_invoke(gpa_t gpa, enum page_size size)
{
	enum snp_ret rc;

	if (!deposit_range_is_validated(gpa, size)) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	rc = page_revoke_guest(gpa, size);
	if (rc != SNP_RET_SUCCESS) {
		return core_rmp_result(rc);
	}
	if (deposit_add(gpa, size) != SVSM_OK) {
		/* The page goes back. Only a page-state change meanwhile (the
		 * host's, or one another vCPU asked for) makes this fail; the
		 * page is then the host's, with nothing of the SVSM in it. */
		if (page_grant_guest(gpa, size) != SNP_RET_SUCCESS) {
			LOG_NOTICE("deposit: %llx changed under the call; not "
				   "given back",
				   (unsigned long long)gpa_val(gpa));
		}
		return SVSM_ERR_INVALID_REQUEST;
	}
	return SVSM_SUCCESS;
}

enum svsm_result core_deposit_mem(struct call_ctx *ctx)
{
	struct guest_list *list = (struct guest_list *)ctx->cpu->scratch;
	enum svsm_err err = guest_list_read(gpa_init(ctx->rcx), list);
	enum svsm_result ret = SVSM_SUCCESS;

	if (err != SVSM_OK) {
		return err_to_result(err);
	}
	while (list->next < list->entries) {
		enum page_size size = PAGE_4K;
		gpa_t gpa = gpa_init(0);

		ret = deposit_entry_decode(list->entry[list->next], &gpa,
					   &size);
		if (ret == SVSM_SUCCESS) {
			ret = deposit_entry_invoke(gpa, size);
		}
		if (ret != SVSM_SUCCESS) {
			break;
		}
		list->next++;
	}
	err = guest_list_write_next(list);
	if (err != SVSM_OK && ret == SVSM_SUCCESS) {
		ret = err_to_result(err);
	}
	return ret;
}

/* mem_available in the startup vCPU's CA says whether more can be taken. */
static void withdraw_update_mem_available(void)
{
	struct vcpu *startup = vcpu_startup();
	uint8_t flag = deposit_has_free() ? 1 : 0;

	if (startup != NULL &&
	    guestmem_write(
		    gpa_add(startup->caa_gpa, SVSM_CAA_OFF_MEM_AVAILABLE),
		    &flag, 1) != SVSM_OK) {
		LOG_GUEST("startup Calling Area is not writable");
	}
}

enum svsm_result core_withdraw_mem(struct call_ctx *ctx)
{
	gpa_t out = gpa_init(ctx->rcx);
	uint64_t *list = (uint64_t *)ctx->cpu->scratch;
	struct svsm_withdraw_hdr hdr = {0};
	uint64_t capacity;
	uint16_t count = 0;

	if (!gpa_is_aligned(out, SVSM_LIST_ALIGN)) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	capacity = (SNP_PAGE_SIZE - gpa_page_offset(out) - sizeof(hdr)) / 8u;
	if (capacity == 0) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (owner_overlaps_caa_control(out,
				       SNP_PAGE_SIZE - gpa_page_offset(out))) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	/* Probe the output area before any page leaves the SVSM. */
	if (guestmem_write(out, &hdr, sizeof(hdr)) != SVSM_OK) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	while (count < capacity) {
		enum page_size size = PAGE_4K;
		gpa_t gpa = gpa_init(0);

		if (!deposit_take_free(&gpa, &size)) {
			break;
		}
		/* A page the SVSM held must still be validated and adjustable;
		 * if not, the hypervisor changed the RMP behind our back. */
		if (guestmem_zero(gpa, page_size_bytes(size)) != SVSM_OK ||
		    page_grant_guest(gpa, size) != SNP_RET_SUCCESS) {
			TERMINATE_HV(
				TERM_CSVSM_RMP_FAILURE,
				"withdrawn page 0x%llx no longer adjustable",
				(unsigned long long)gpa_val(gpa));
		}
		list[count++] = gpa_val(gpa) |
				(size == PAGE_2M ? WITHDRAW_ENTRY_SIZE_2M : 0);
	}
	hdr.entries = count;
	withdraw_update_mem_available();
	if ((count > 0 && guestmem_write(gpa_add(out, sizeof(hdr)), list,
					 (size_t)count * 8u) != SVSM_OK) ||
	    guestmem_write(out, &hdr, sizeof(hdr)) != SVSM_OK) {
		/* The pages are the guest's again; only the list is lost. */
		return SVSM_ERR_INVALID_ADDRESS;
	}
	return SVSM_SUCCESS;
}
