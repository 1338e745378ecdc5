/* SPDX-License-Identifier: MIT */
/* The guest's configuration (svsm/guest_config.h). */
#include "svsm/guest_config.h"

#include "abi/snp.h"

static uint8_t guest_vmpl;

void guest_config_set_vmpl(uint8_t vmpl)
{
	guest_vmpl = vmpl;
}

uint8_t svsm_guest_vmpl(void)
{
	return guest_vmpl;
}

/*
 * Features a Linux or OVMF guest VMSA may carry. Left out: VmsaRegProt,
 * VmplSSS, VmgexitParameter and Secure AVIC (the SVSM does not handle
 * them, 58019 section 4.1), Alternate and Restricted Injection (no APIC
 * emulation yet, and Linux refuses them), and every reserved bit.
 */
uint64_t svsm_permitted_sev_features(void)
{
	return SEV_FEAT_SNP_ACTIVE | SEV_FEAT_VTOM | SEV_FEAT_REFLECT_VC |
	       SEV_FEAT_DEBUG_SWAP | SEV_FEAT_PREVENT_HOST_IBS |
	       SEV_FEAT_BTB_ISOLATION | SEV_FEAT_SECURE_TSC |
	       SEV_FEAT_IBS_VIRTUALIZATION | SEV_FEAT_SMT_PROTECTION |
	       SEV_FEAT_IBPB_ON_ENTRY;
}
