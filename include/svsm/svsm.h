/* SPDX-License-Identifier: MIT */
/*
 * Start-up of the platform-independent SVSM and its global configuration.
 * A platform fills struct svsm_boot_info from what its loader provided
 * (IGVM parameters on snp, fw_cfg on emu, the machine model on sim) and
 * calls svsm_init() once, on the boot CPU, before any request is served.
 */
#ifndef SVSM_SVSM_H
#define SVSM_SVSM_H

#include <stdint.h>

#include "svsm/addr.h"
#include "svsm/err.h"
#include "svsm/memmap.h"
#include "svsm/vcpu.h"
#include "svsm/vtpm.h"
#include "svsm/vtpm_store.h"

#define SVSM_VERSION "0.1.0"

/* How the guest's boot vCPU starts: svsm_init() builds its VMSA so. */
enum svsm_guest_entry_mode {
	/* The architectural reset state, at rip in the top segment (CS
	 * base 0xFFFF0000): firmware such as OVMF. */
	SVSM_GUEST_ENTRY_RESET = 0,
	/* 64-bit mode with paging on the guest's own tables at cr3, flat
	 * segments (CS 0x08, the rest 0x10; no GDT or IDT loaded yet), SSE
	 * enabled, RDI and RSI as given: a kernel started without
	 * firmware (emu's test guest; an snp image built with
	 * csvsm-igvm --kernel). */
	SVSM_GUEST_ENTRY_LONG = 1,
	/* Linux's 64-bit boot protocol (boot.rst): 64-bit mode on the
	 * loader's tables at cr3, the loader's GDT at gdt_base with
	 * __BOOT_CS 0x10 and __BOOT_DS 0x18 loaded, RSI = boot_params. */
	SVSM_GUEST_ENTRY_LINUX = 2,
};

struct svsm_guest_entry {
	uint32_t mode; /* enum svsm_guest_entry_mode */
	uint64_t rip;
	uint64_t cr3, rdi, rsi; /* SVSM_GUEST_ENTRY_LONG and _LINUX */
	uint64_t gdt_base;	/* SVSM_GUEST_ENTRY_LINUX */
	uint16_t gdt_limit;
};

struct svsm_boot_info {
	const char *platform_name;
	struct mem_range ram[MEMMAP_MAX_RAM];
	unsigned ram_count;
	struct mem_range svsm; /* the SVSM region, all SVSM-private */
	struct mem_range heap; /* inside svsm: the SVSM's heap */
	gpa_t psp_secrets;     /* inside svsm: the PSP's secrets page */
	gpa_t guest_secrets;   /* guest page for the guest's copy */
	gpa_t guest_caa;       /* the boot vCPU's first Calling Area */
	uint32_t apic_ids[SVSM_MAX_CPUS];
	unsigned cpu_count;		     /* apic_ids[0] is the boot CPU */
	uint8_t guest_vmpl;		     /* 1..3 */
	uint64_t guest_sev_features;	     /* SEV_FEATURES of guest VMSAs */
	struct svsm_guest_entry guest_entry; /* how the boot vCPU starts */
	/* The platform's TPM engine; NULL: no vTPM (protocol 2 not offered). */
	const struct vtpm_engine *vtpm_engine;
	/* A block device for the vTPM's state other than the SVSM's own
	 * virtio-blk one (the tests'); NULL: the SVSM's own, if the host
	 * offers one (svsm/vtpm_store.h). */
	const struct vtpm_disk *vtpm_disk;
};

/** Bring the SVSM up; on success *boot_vmsa is the guest boot VMSA. */
enum svsm_err svsm_init(const struct svsm_boot_info *info, gpa_t *boot_vmsa);

#endif /* SVSM_SVSM_H */
