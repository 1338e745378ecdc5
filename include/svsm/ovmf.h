/* SPDX-License-Identifier: MIT */
/*
 * OVMF's description of itself for SEV-SNP: the GUID table at the end of
 * the firmware image (walked backwards from a footer GUID 0x30 bytes
 * before the end) and the "ASEV" SEV metadata it points to, with the
 * ranges OVMF expects pre-validated and where it wants its secrets page,
 * CPUID page and SVSM Calling Area (EDK2 OvmfPkg ResetVector, "SEV
 * metadata"). The image is input from outside: every offset is checked.
 */
#ifndef SVSM_OVMF_H
#define SVSM_OVMF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OVMF_SECTION_SNP_SEC_MEM 1u
#define OVMF_SECTION_SNP_SECRETS 2u
#define OVMF_SECTION_CPUID 3u
#define OVMF_SECTION_SVSM_CAA 4u
#define OVMF_SECTION_KERNEL_HASHES 0x10u

#define OVMF_MAX_SECTIONS 16u

struct ovmf_section {
	uint32_t base;
	uint32_t size;
	uint32_t type;
};

struct ovmf_info {
	struct ovmf_section section[OVMF_MAX_SECTIONS];
	unsigned count;
	bool has_secrets, has_cpuid, has_caa;
	uint32_t secrets_gpa, cpuid_gpa, caa_gpa;
	bool has_ap_reset;
	uint32_t ap_reset_ip; /* SEV-ES AP reset block */
};

/**
 * Parse the tail of an OVMF image (@img is the whole image, @len bytes,
 * loaded to end at 4 GiB). NULL on success, else what is wrong. Sections
 * must be page aligned, inside 4 GiB, not overlap, and the secrets, CPUID
 * and CA sections must be single pages, at most one each.
 */
const char *ovmf_parse(const uint8_t *img, size_t len, struct ovmf_info *out);

#endif /* SVSM_OVMF_H */
