/* SPDX-License-Identifier: MIT */
/*
 * RMP operations on guest pages with the SVSM's permission patterns. Each
 * returns the instruction's EAX (SNP_RET_*). The guest VMPL is the one the
 * SVSM serves (svsm_guest_vmpl()); VMPLs below it in privilege (numerically
 * above) are the guest's business.
 */
#ifndef SVSM_PAGE_STATE_H
#define SVSM_PAGE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "svsm/addr.h"

enum snp_ret page_pvalidate(gpa_t gpa, enum page_size size, bool validate,
			    bool *unchanged);
/**
 * Grant the guest VMPL read, write and execute and clear the VMSA bit, in
 * one RMPADJUST (FAIL_INUSE while the VMSA runs): either the page is the
 * guest's again or nothing changed.
 */
enum snp_ret page_grant_guest(gpa_t gpa, enum page_size size);
/** Grant the guest VMPL exactly @perms (RMPADJUST_READ | ...). */
enum snp_ret page_grant_guest_perms(gpa_t gpa, enum page_size size,
				    uint64_t perms);
/** Remove every permission of every VMPL from the guest's to 3; flush. */
enum snp_ret page_revoke_guest(gpa_t gpa, enum page_size size);
/** Set the VMSA bit, leaving the guest VMPL @perms (RMPADJUST_READ or 0). */
enum snp_ret page_make_vmsa(gpa_t gpa, uint64_t perms);

#endif /* SVSM_PAGE_STATE_H */
