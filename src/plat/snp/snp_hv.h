/* SPDX-License-Identifier: MIT */
/*
 * Restricted Injection (SEV_FEATURES bit 3) on the snp platform: the
 * hypervisor can signal the SVSM's VMSA only with #HV, and says what is
 * pending in the #HV doorbell page, a shared page it writes. The SVSM
 * runs with interrupts off and asks for no event, so the only right
 * answer to a pending one is to stop: the hypervisor gains nothing by
 * signalling, and an NMI or machine check the SVSM cannot serve must
 * not be lost silently.
 */
#ifndef SNP_HV_H
#define SNP_HV_H

#include <stdint.h>

#include "svsm/addr.h"

#include "ghcb.h"

/** Register @gpa (shared) as this CPU's #HV doorbell page. */
void snp_hv_doorbell_register(struct ghcb_cpu *g, gpa_t gpa);

/**
 * The #HV handler: take the pending events from @doorbell once (clearing
 * them); none: a spurious #HV, return; any: terminate with
 * TERM_CSVSM_UNEXPECTED_EVENT.
 */
void snp_hv_handle(uint8_t *doorbell);

/**
 * What the #HV exception entry calls: snp_hv_handle() on the calling
 * CPU's doorbell; before that CPU registered one, terminate.
 */
void snp_hv_entry(void);

#endif /* SNP_HV_H */
