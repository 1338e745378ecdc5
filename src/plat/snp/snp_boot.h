/* SPDX-License-Identifier: MIT */
/* The snp platform's boot checks (boot_checks.c). */
#ifndef SNP_BOOT_H
#define SNP_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "svsm/addr.h"
#include "svsm/memmap.h"
#include "svsm/svsm.h"

#include "abi/csvsm_boot.h"

/** SEV_STATUS has SEV, SEV-ES, SNP and Restricted Injection, not vTOM
 * or ReflectVC. */
uint64_t snp_check_sev_status(void);
struct snp_cpuid_table;
/**
 * What the snp firmware needs from the (PSP-checked) CPUID page before
 * it builds its page tables: a usable table, the SEV leaf with SEV set
 * and a C-bit position 32..51 (*@cbit). Not INVLPGB, which every SNP CPU
 * has and no KVM reports. NULL or what is missing.
 */
const char *snp_cpuid_boot_checks(const struct snp_cpuid_table *t,
				  unsigned *cbit);
/** The SVSM runs at VMPL0 (an RMPADJUST of VMPL1 rights succeeds). */
void snp_check_vmpl0(gpa_t own_page);

/**
 * The RAM ranges of the loader's memory map (IGVM_VHT_MEMORY_MAP entries
 * in a parameter area of @len bytes; hostile): sorted, not overlapping,
 * below 2^52, closed by an entry of zero pages. NULL or what is wrong.
 */
const char *snp_memory_map(const uint8_t *area, size_t len,
			   struct mem_range *ram, unsigned max,
			   unsigned *count);

/**
 * The SVSM's boot information from csvsm's boot parameters and the RAM
 * ranges; NULL or what is inconsistent (the SVSM region must be RAM, the
 * SVSM's pages inside it, the guest's pages outside it in RAM).
 */
const char *snp_boot_info(const struct csvsm_boot_params *p,
			  const struct mem_range *ram, unsigned n,
			  struct svsm_boot_info *info);

/**
 * Add the guest firmware's volume (@p, launched by the image) to the RAM
 * ranges if the loader's map leaves it out: launched pages are memory.
 * NULL or what is wrong (not whole pages below 4 GiB, straddling a range,
 * no room).
 */
const char *snp_launch_ram(const struct csvsm_boot_params *p,
			   struct mem_range *ram, unsigned max, unsigned *n);

/**
 * The guest's RAM at boot: the loader's memory map (@map, @len bytes;
 * snp_memory_map) with the launched firmware added (snp_launch_ram).
 * NULL or what is wrong.
 */
const char *snp_boot_ram(const struct csvsm_boot_params *p, const uint8_t *map,
			 size_t len, struct mem_range *ram, unsigned max,
			 unsigned *n);

/**
 * After svsm_init(): grant the guest's VMPL the pages launched for it,
 * which the PSP validated with rights for VMPL0 only (guest_launch.c):
 * the firmware volume and the SEV metadata sections it names (SEC
 * memory, its CPUID page), or a kernel's whole launched range. Any
 * failure terminates.
 */
void snp_grant_launched(const struct csvsm_boot_params *p);

#endif /* SNP_BOOT_H */
