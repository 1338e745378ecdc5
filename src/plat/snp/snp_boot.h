/* SPDX-License-Identifier: MIT */
/* The snp platform's boot checks (boot_checks.c). */
#ifndef SNP_BOOT_H
#define SNP_BOOT_H

#include <stdint.h>

#include "svsm/addr.h"

/** SEV_STATUS has SEV, SEV-ES and SNP, not vTOM or ReflectVC. */
uint64_t snp_check_sev_status(void);
/** The SVSM runs at VMPL0 (an RMPADJUST of VMPL1 rights succeeds). */
void snp_check_vmpl0(gpa_t own_page);

#endif /* SNP_BOOT_H */
