/* SPDX-License-Identifier: MIT */
/*
 * What the snp platform checks before it trusts its environment: that it
 * was launched as an SNP guest with the features it relies on and without
 * those it cannot handle, and that it really runs at VMPL0. Any failure
 * terminates with a named reason: the SVSM never runs half-protected.
 */
#include "svsm/log.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "ghcb.h"
#include "snp_boot.h"
#include "snp_hw.h"
#include "vc.h"

/* MSR_AMD64_SEV bits: [0] SEV, [1] SEV-ES, [2] SNP; from bit 2 on they
 * are SEV_FEATURES << 2 (abi/snp.h). */
#define SEV_STATUS_SEV (1ull << 0)
#define SEV_STATUS_ES (1ull << 1)
#define SEV_STATUS_FEAT(f) ((f) << 2)

uint64_t snp_check_sev_status(void)
{
	/* Restricted Injection: the hypervisor may signal the SVSM only
	 * through #HV, which it never asks for (snp_hv.h). */
	const uint64_t need = SEV_STATUS_SEV | SEV_STATUS_ES |
			      SEV_STATUS_FEAT(SEV_FEAT_SNP_ACTIVE) |
			      SEV_STATUS_FEAT(SEV_FEAT_RESTRICTED_INJECTION);
	/* vTOM: the SVSM's memory model is the C-bit; ReflectVC: #VC would
	 * go to the hypervisor, which then sees the SVSM's CPUID and MSRs. */
	const uint64_t forbid = SEV_STATUS_FEAT(SEV_FEAT_VTOM) |
				SEV_STATUS_FEAT(SEV_FEAT_REFLECT_VC);
	uint64_t s = snp_hw_sev_status();

	if ((s & need) != need || (s & forbid) != 0) {
		TERMINATE_HV_VIA(
			ghcb_msr_terminate, TERM_SET_GENERAL,
			TERM_SNP_FEATURES_UNSUPPORTED,
			"snp: SEV_STATUS 0x%llx: needs 0x%llx, forbids 0x%llx",
			(unsigned long long)s, (unsigned long long)need,
			(unsigned long long)forbid);
	}
	return s;
}

void snp_check_vmpl0(gpa_t own_page)
{
	/* RMPADJUST may only lower the rights of a less privileged VMPL
	 * than the caller's: setting VMPL1's rights succeeds at VMPL0 and
	 * nowhere else. @own_page is validated SVSM memory; VMPL1 keeps no
	 * rights to it. */
	if (snp_hw_rmpadjust(own_page, false, 1) != SNP_RET_SUCCESS) {
		SNP_TERMINATE_HV(TERM_CSVSM_NOT_VMPL0,
				 "snp: RMPADJUST of VMPL1 refused: the SVSM"
				 " is not at VMPL0");
	}
}

#define CPUID_SEV_LEAF 0x8000001Fu

const char *snp_cpuid_boot_checks(const struct snp_cpuid_table *t,
				  unsigned *cbit)
{
	struct cpuid_regs r;

	if (!snp_cpuid_table_ok(t)) {
		return "the CPUID page is unusable";
	}
	if (!snp_cpuid_lookup(t, CPUID_SEV_LEAF, 0, &r) ||
	    (r.eax & 0x2u) == 0) {
		return "the CPUID page has no SEV leaf 0x8000001F";
	}
	*cbit = r.ebx & 0x3Fu;
	if (*cbit < 32 || *cbit > 51) {
		return "C-bit position outside 32..51";
	}
	/* INVLPGB is not asked of the page: every SNP CPU (Zen 3 on) has
	 * it, and KVM never reports it (arch/x86/kvm/cpuid.c), so a real
	 * host's CPUID page never shows it. A CPU without it would raise
	 * #UD at the first flush: the SVSM's panic, at boot. */
	return NULL;
}
