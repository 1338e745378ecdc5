/* SPDX-License-Identifier: MIT */
/*
 * The PSP's launch of an IGVM image, as a KVM/QEMU IGVM loader drives it
 * (SNP_LAUNCH_START, one SNP_LAUNCH_UPDATE per page, SNP_LAUNCH_FINISH),
 * written once: the emulated SEV-SNP machine (emu) launches its guest
 * with it, and csvsm-igvm measures with it (measure-only ops), so the
 * digest a guest's report carries and the one the tool prints are one
 * computation.
 *
 * Threats: the IGVM file is the host's and untrusted; the PSP trusts
 * nothing in it. Every structure is checked (model/igvm_reader.h), every
 * page must lie in guest RAM and be launched once, a CPUID page holds
 * only what the CPU confirms, parameter areas must be declared. A file
 * that breaks any of these refuses the launch with a reason; it never
 * makes the launch read outside the file or write outside the pages the
 * ops hand out. Each page is launched at most once, so the work is
 * bounded by guest RAM.
 */
#ifndef SVSM_PSP_LAUNCH_H
#define SVSM_PSP_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/igvm.h"
#include "abi/snp_cpuid.h"

/* VP_CONTEXTs a launch takes: SVSM_MAX_CPUS (svsm/vcpu.h, a floor up). */
#define PSP_LAUNCH_MAX_VPS 64u
/* Memory map entries the loader writes at most. */
#define PSP_LAUNCH_MAX_MAP 64u

/*
 * What the launch needs from the machine. Every op may be NULL: then that
 * part is not done (csvsm-igvm measures with only rmp_launch).
 */
struct psp_launch_ops {
	void *ctx;
	/* Guest memory is [0, ram_size), or where @backed says when it is
	 * set (a loader that backs more than RAM, as QEMU's IGVM loader
	 * does): a page outside refuses the launch. */
	uint64_t ram_size;
	bool (*backed)(void *ctx, uint64_t gpa);
	/* Host memory (4 KiB) for guest page @gpa, which the launch fills;
	 * NULL: the launch refuses. NULL op: measure only. */
	uint8_t *(*page)(void *ctx, uint64_t gpa);
	/* The RMP: the PSP's launch of @gpa (assigned, validated, VMPL0-only
	 * permissions; @vmsa: a VMSA page). False refuses: the page is not
	 * the guest's, or was launched already. */
	bool (*rmp_launch)(void *ctx, uint64_t gpa, bool vmsa);
	/* The hypervisor's CPUID table for a CPUID page (what QEMU/KVM put
	 * there), into a zeroed @t. */
	void (*cpuid_fill)(void *ctx, struct snp_cpuid_table *t);
	/* The PSP's check of one entry against what the CPU reports;
	 * false: the launch fails. */
	bool (*cpuid_check)(void *ctx, const struct snp_cpuid_fn *fn);
	/* The loader's memory map of guest RAM: up to @max entries into @e,
	 * returns how many. */
	unsigned (*memory_map)(void *ctx, struct igvm_memory_map_entry *e,
			       unsigned max);
	/* The guest's vCPUs (QEMU's -smp): the loader's VP count
	 * (VP_COUNT_PARAMETER), and KVM measures one VMSA for each; 0: 1. */
	uint32_t vp_count;
	/* CPUID(1).EAX of the vCPU model: RDX of a vCPU in its reset state
	 * (an AP the file gives no VP_CONTEXT), as QEMU resets it. */
	uint32_t cpu_signature;
	/* The SEV features the host's KVM offers (KVM_X86_SEV_VMSA_FEATURES;
	 * SNP_ACTIVE is implied): a boot VMSA asking for more is refused, as
	 * QEMU refuses it (check_sev_features()). */
	uint64_t vmsa_features;
	/* Where this machine keeps vCPU @vp's VMSA page: a GPA @page maps,
	 * recorded in the RMP as a VMSA. KVM keeps VMSAs in host pages
	 * outside guest memory (measured at 0xFFFFFFFFF000 all the same).
	 * NULL: the VMSAs are measured only. */
	uint64_t (*vmsa_home)(void *ctx, uint32_t vp);
	/* The PSP's secrets page (VMPCKs etc.) into a zeroed SECRETS page. */
	void (*secrets_fill)(void *ctx, uint8_t page[4096]);
};

struct psp_launch_result {
	uint8_t digest[48]; /* the launch MEASUREMENT */
	uint64_t policy;    /* the SNP GUEST_POLICY, 0 if none */
	unsigned pages[8];  /* measured pages by enum psp_page_type */
	/* Where each vCPU's VMSA was put (vmsa_home), by vCPU index. */
	uint64_t vmsa_gpa[PSP_LAUNCH_MAX_VPS];
	unsigned vmsa_count; /* VMSAs launched: one per vCPU */
	char why[128];	     /* why the launch was refused */
};

/**
 * Launch the IGVM image @file (@size bytes) for SEV-SNP through @ops:
 * the SNP platform's directives in the order a QEMU+KVM host hands them to
 * the PSP (psp_launch.c says how that differs from file order), then one
 * VMSA per vCPU as KVM rebuilds them from the registers QEMU loaded, the
 * digest as SNP_LAUNCH_UPDATE extends it (psp_launch_digest_page). NULL when
 * launched; else out->why, and the guest must not run (pages may be half
 * filled). Uses under 6 KiB of stack and 12 KiB of static scratch (VMSAs):
 * one launch at a time, which every caller (a machine's boot, a tool, a
 * fuzz target) is.
 */
const char *psp_launch_igvm(const uint8_t *file, size_t size,
			    const struct psp_launch_ops *ops,
			    struct psp_launch_result *out);

#endif /* SVSM_PSP_LAUNCH_H */
