/* SPDX-License-Identifier: MIT */
/*
 * The honest hypervisor's side of the RMP, as KVM does it (Linux
 * arch/x86/kvm/svm/sev.c), and the SNP instructions as a guest sees them
 * complete with that hypervisor behind them. The hardware itself is rmp.c.
 * Freestanding, shared by sim and emu.
 */
#include "abi/snp.h"

#include "model/snpmodel.h"

static uint64_t rmp_2m_base(uint64_t gpa)
{
	return gpa & ~(SNP_PAGE_SIZE_2M - 1);
}

static bool rmp_in_2m_entry(const struct rmp *rmp, uint64_t gpa)
{
	const struct rmp_entry *e = rmp_lookup(rmp, gpa);

	return e != NULL && (e->flags & RMP_F_SIZE_2M) != 0;
}

enum snp_ret rmp_hv_npf_sizem(struct rmp *rmp, uint64_t gpa)
{
	/* sev_handle_rmp_fault(): "if (rmp_level > PG_LEVEL_4K)", PSMASH
	 * the 2 MiB-aligned entry; the guest then re-executes. */
	if (!rmp_in_2m_entry(rmp, gpa)) {
		return SNP_RET_FAIL_INPUT;
	}
	return rmp_hv_psmash(rmp, rmp_2m_base(gpa));
}

enum snp_ret rmp_hv_page_state(struct rmp *rmp, uint64_t gpa, bool size_2m,
			       bool to_private)
{
	if (!size_2m && rmp_in_2m_entry(rmp, gpa)) {
		enum snp_ret rc = rmp_hv_psmash(rmp, rmp_2m_base(gpa));

		if (rc != SNP_RET_SUCCESS) {
			return rc;
		}
	}
	return to_private ? rmp_hv_assign(rmp, gpa, size_2m)
			  : rmp_hv_unassign(rmp, gpa, size_2m);
}

enum snp_ret rmp_guest_pvalidate(struct rmp *rmp, unsigned vmpl, uint64_t gpa,
				 unsigned page_size, bool validate,
				 bool *unchanged)
{
	uint32_t rc =
		rmp_pvalidate(rmp, vmpl, gpa, page_size, validate, unchanged);

	if (rc == RMP_NPF_SIZEM) {
		if (rmp_hv_npf_sizem(rmp, gpa) != SNP_RET_SUCCESS) {
			return SNP_RET_FAIL_INPUT;
		}
		rc = rmp_pvalidate(rmp, vmpl, gpa, page_size, validate,
				   unchanged);
	}
	return rc == RMP_NPF_SIZEM ? SNP_RET_FAIL_INPUT : rc;
}

enum snp_ret rmp_guest_rmpadjust(struct rmp *rmp, unsigned vmpl, uint64_t gpa,
				 unsigned page_size, uint64_t attrs)
{
	uint32_t rc = rmp_rmpadjust(rmp, vmpl, gpa, page_size, attrs);

	if (rc == RMP_NPF_SIZEM) {
		if (rmp_hv_npf_sizem(rmp, gpa) != SNP_RET_SUCCESS) {
			return SNP_RET_FAIL_INPUT;
		}
		rc = rmp_rmpadjust(rmp, vmpl, gpa, page_size, attrs);
	}
	return rc == RMP_NPF_SIZEM ? SNP_RET_FAIL_INPUT : rc;
}
