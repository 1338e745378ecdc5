/* SPDX-License-Identifier: MIT */
/*
 * The endorsement keys a relying party may certify, as the services
 * manifest carries them (docs/vtpm.md, "EK certificates"). The SVSM
 * specification's vTPM entry (SVSM_VTPM_SERVICE_GUID) is the RSA 2048
 * EK's TPMT_PUBLIC; the ECC NIST P-256 EK's TPMT_PUBLIC, a csvsm
 * extension, is the entry of CSVSM_VTPM_EK_ECC_GUID. The NV indices and
 * persistent handles are the TCG's (EK Credential Profile 2.x, 2.2.1.4;
 * Registry of Reserved TPM 2.0 Handles).
 */
#ifndef ABI_CSVSM_EK_H
#define ABI_CSVSM_EK_H

/* 9707a83f-e42a-4a85-9fa8-dfe65260832a, EFI (mixed-endian) byte order */
#define CSVSM_VTPM_EK_ECC_GUID                                                 \
	{                                                                      \
		0x3f, 0xa8, 0x07, 0x97, 0x2a, 0xe4, 0x85, 0x4a, 0x9f, 0xa8,    \
			0xdf, 0xe6, 0x52, 0x60, 0x83, 0x2a                     \
	}

/* The TCG's EK certificate NV indices (low range). */
#define TCG_NV_EK_CERT_RSA2048 0x01c00002u
#define TCG_NV_EK_CERT_ECC_P256 0x01c0000au
/* The EKs' persistent handles. */
#define TCG_EK_HANDLE_RSA2048 0x81010001u
#define TCG_EK_HANDLE_ECC_P256 0x81010002u

#endif /* ABI_CSVSM_EK_H */
