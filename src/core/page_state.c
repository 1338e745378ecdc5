/* SPDX-License-Identifier: MIT */
#include "svsm/page_state.h"

#include "svsm/guest_config.h"
#include "svsm/plat.h"

#include "abi/snp.h"

enum snp_ret page_pvalidate(gpa_t gpa, enum page_size size, bool validate,
			    bool *unchanged)
{
	return plat_pvalidate(gpa, size, validate, unchanged);
}

enum snp_ret page_grant_guest_perms(gpa_t gpa, enum page_size size,
				    uint64_t perms)
{
	return plat_rmpadjust(
		gpa, size, svsm_guest_vmpl() | (perms & RMPADJUST_PERM_MASK));
}

enum snp_ret page_grant_guest(gpa_t gpa, enum page_size size)
{
	return page_grant_guest_perms(gpa, size, RMPADJUST_RWX);
}

enum snp_ret page_revoke_guest(gpa_t gpa, enum page_size size)
{
	unsigned vmpl;

	for (vmpl = svsm_guest_vmpl(); vmpl < SNP_VMPL_COUNT; vmpl++) {
		enum snp_ret rc = plat_rmpadjust(gpa, size, vmpl);

		if (rc != SNP_RET_SUCCESS) {
			return rc;
		}
	}
	/* Stale guest TLB entries must not outlive the permissions. */
	plat_flush_guest_tlb();
	return SNP_RET_SUCCESS;
}

enum snp_ret page_make_vmsa(gpa_t gpa, uint64_t perms)
{
	return plat_rmpadjust(gpa, PAGE_4K,
			      svsm_guest_vmpl() | perms | RMPADJUST_VMSA);
}
