/* SPDX-License-Identifier: MIT */
/*
 * The endorsement key: RSA 2048 from the TCG EK Credential Profile
 * template L-1, made persistent at EK_HANDLE, created at boot so a relying
 * party can bind it to an SNP report (its TPMT_PUBLIC is the vTPM's
 * attestation manifest).
 */
#ifndef VTPM_EK_H
#define VTPM_EK_H

#include "svsm/vtpm.h"

#define EK_HANDLE 0x81010001u

enum svsm_err ek_create(const struct vtpm_engine *e);

#endif /* VTPM_EK_H */
