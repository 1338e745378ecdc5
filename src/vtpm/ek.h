/* SPDX-License-Identifier: MIT */
/*
 * The endorsement keys, TCG EK Credential Profile: RSA 2048 (template
 * L-1) at EK_HANDLE and ECC NIST P-256 (template L-2) at EK_ECC_HANDLE,
 * persistent, so a relying party can bind them to an SNP report (the RSA
 * EK's TPMT_PUBLIC is the vTPM's attestation manifest).
 */
#ifndef VTPM_EK_H
#define VTPM_EK_H

#include "svsm/vtpm.h"

#define EK_HANDLE 0x81010001u
#define EK_ECC_HANDLE 0x81010002u

/**
 * Make both EKs present: read them if the (restored) TPM holds them,
 * else create and persist them. *@created: how many were created (key
 * generation happened). SVSM_E_INVAL if the TPM refused.
 */
enum svsm_err ek_init(const struct vtpm_engine *e, unsigned *created);

#endif /* VTPM_EK_H */
