/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor: what KVM does for an SNP guest, and nothing more. It
 * owns each vCPU's run loop (hv_vcpu_run); the hardware (world.h) hands
 * it only automatic exits, and it sees the vCPU only through those, the
 * GHCB MSR value and the GHCB page the guest shares, never a VMSA. Its
 * GHCB side is the KVM model sim uses too (model/kvm); hv.c adapts it
 * to this machine.
 */
#ifndef MACHINE_HV_H
#define MACHINE_HV_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/snp.h"
#include "abi/snp_cpuid.h"

#include "hv_modes.h"
#include "machine/machine.h"

/* The SEV features this machine's KVM offers a guest's VMSAs
 * (KVM_X86_SEV_VMSA_FEATURES, SNP_ACTIVE aside): Restricted Injection, as
 * a KVM built to host an SVSM does; upstream KVM offers only DebugSwap and
 * Secure TSC (docs/running-on-snp.md). */
#define HV_VMSA_FEATURES SEV_FEAT_RESTRICTED_INJECTION

/** Hostile behaviours, chosen at start (fw_cfg opt/csvsm/hv), one of
 * hv_modes.h's list each. The GHCB lies are the KVM model's (enum
 * kvm_behaviour), the guest-request ones the PSP model's (enum
 * psp_fault); cpuid-lie and inject-ri are where the machine's hypervisor
 * acts outside the GHCB protocol. */
#define HV_MODE_ENUM(id, name, kvm, psp, when, st, log, lst, llog) HV_##id,
enum hv_mode { HV_MODES(HV_MODE_ENUM) HV_MODE_COUNT };
#undef HV_MODE_ENUM

/** When a behaviour's KVM lie is told, and to whom (hv_modes.h's
 * column). */
enum hv_when {
	HV_BOOT,      /* every exit, from the first */
	HV_RUN_SVSM,  /* VMPL0's exits, once the guest made its first */
	HV_RUN_GUEST, /* the guest's exits (VMPL1 and up) */
};

/** The behaviour named @name (hv_modes.h); false if none is. */
bool hv_mode_by_name(const char *name, enum hv_mode *mode);
/** The name of @mode. */
const char *hv_mode_name(enum hv_mode mode);
void hv_init(enum hv_mode mode);
/** The CPUID table KVM/QEMU put in a launch's CPUID page (hv_cpuid.c). */
void hv_cpuid_table(struct snp_cpuid_table *t);
/** This CPU's vCPU starts at VMPL0 with the VMSA at @vmsa_gpa (the boot
 * CPU, from the launch). */
void hv_vcpu_boot(uint64_t vmsa_gpa);
/** Run this CPU's vCPU for ever: KVM's run loop. */
void hv_vcpu_run(void) __attribute__((noreturn));

#endif /* MACHINE_HV_H */
