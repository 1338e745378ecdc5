/* SPDX-License-Identifier: MIT */
#include "svsm/guest_list.h"

#include "svsm/guestmem.h"
#include "svsm/ownership.h"

#include "abi/svsm_core.h"

enum svsm_err guest_list_check(uint64_t page_offset, uint16_t entries,
			       uint16_t next)
{
	uint64_t end = page_offset + sizeof(struct svsm_list_hdr) +
		       (uint64_t)entries * SVSM_LIST_ENTRY_SIZE;

	/* Operands are at most 4095 + 8 + 65535 * 8: no overflow possible. */
	if ((page_offset & (SVSM_LIST_ALIGN - 1)) != 0 || entries == 0 ||
	    end > SNP_PAGE_SIZE || next >= entries) {
		return SVSM_E_INVAL;
	}
	return SVSM_OK;
}

enum svsm_err guest_list_read(gpa_t gpa, struct guest_list *list)
{
	struct svsm_list_hdr hdr;
	enum svsm_err err;

	if (!gpa_is_aligned(gpa, SVSM_LIST_ALIGN)) {
		return SVSM_E_INVAL;
	}
	if (owner_overlaps_caa_control(gpa, sizeof(hdr))) {
		return SVSM_E_ADDR;
	}
	err = guestmem_read(gpa, &hdr, sizeof(hdr));
	if (err != SVSM_OK) {
		return err;
	}
	err = guest_list_check(gpa_page_offset(gpa), hdr.entries, hdr.next);
	if (err != SVSM_OK) {
		return err;
	}
	list->gpa = gpa;
	list->entries = hdr.entries;
	list->next = hdr.next;
	return guestmem_read(
		gpa_add(gpa, sizeof(hdr) + (uint64_t)hdr.next * 8u),
		&list->entry[hdr.next],
		(size_t)(hdr.entries - hdr.next) * SVSM_LIST_ENTRY_SIZE);
}

enum svsm_err guest_list_write_next(const struct guest_list *list)
{
	uint16_t next = list->next;

	return guestmem_write(gpa_add(list->gpa, 2), &next, sizeof(next));
}
