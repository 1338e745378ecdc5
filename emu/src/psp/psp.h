/* SPDX-License-Identifier: MIT */
/*
 * The PSP: launches the IGVM image into guest RAM (SNP_LAUNCH_START,
 * _UPDATE for every page, _FINISH with the VMSAs), computing the launch
 * digest the reports carry, and serves guest requests (the model of
 * model/snp/psp.c) with the VMPCKs it put in the secrets page.
 */
#ifndef MACHINE_PSP_H
#define MACHINE_PSP_H

#include <stddef.h>
#include <stdint.h>

#include "abi/snp_cpuid.h"

#include "model/psp_model.h"

/**
 * What the VMM hands the PSP with the image, as QEMU hands KVM and the
 * PSP: the guest's vCPUs (-smp); the CPUID table it filled from the
 * hypervisor's answers, which SNP_LAUNCH_UPDATE puts in a CPUID page
 * once the PSP checked every entry against the CPU; the SEV features
 * the hypervisor offers its VMSAs (KVM_SEV_INIT2's vmsa_features).
 */
struct psp_launch_args {
	uint32_t vp_count;
	const struct snp_cpuid_table *cpuid;
	uint64_t vmsa_features;
};

/**
 * Launch @file with @args. NULL on success, with the boot VMSA's GPA and
 * the digest; else why the launch is refused (nothing runs then).
 */
const char *psp_launch(const uint8_t *file, size_t size,
		       const struct psp_launch_args *args, uint64_t *boot_vmsa,
		       uint8_t digest[48]);
/** The PSP misbehaves as @f says from the next launch on (the
 * hypervisor's hostile behaviour, hv_modes.h). */
void psp_set_fault(enum psp_fault f);
/** SNP_GUEST_REQUEST as the hypervisor passes it on (psp_model.h). */
uint64_t psp_serve_request(const uint8_t *req, uint8_t *rsp, void *certs,
			   size_t *certs_len);

#endif /* MACHINE_PSP_H */
