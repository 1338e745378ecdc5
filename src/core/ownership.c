/* SPDX-License-Identifier: MIT */
#include "svsm/ownership.h"

#include "svsm/deposit.h"
#include "svsm/memmap.h"
#include "svsm/vcpu.h"

bool owner_is_guest_accessible(gpa_t gpa, uint64_t len)
{
	/* is_guest_ram() first: it rejects empty and wrapping ranges. */
	return memmap_is_guest_ram(gpa, len) &&
	       !memmap_overlaps_svsm(gpa, len) &&
	       !vcpu_overlaps_vmsa(gpa, len) && !deposit_overlaps(gpa, len);
}

bool owner_overlaps_caa_control(gpa_t gpa, uint64_t len)
{
	return vcpu_overlaps_caa_control(gpa, len);
}

bool owner_is_guest_page_free(gpa_t gpa, uint64_t len)
{
	return owner_is_guest_accessible(gpa, len) &&
	       !vcpu_overlaps_caa(gpa, len);
}

bool owner_caa_ok(gpa_t caa, uint32_t apic_id)
{
	return owner_is_guest_accessible(caa, SNP_PAGE_SIZE) &&
	       !vcpu_caa_used_by_other_apic(caa, apic_id);
}
