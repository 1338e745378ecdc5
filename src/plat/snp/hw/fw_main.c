/* SPDX-License-Identifier: MIT */
/*
 * The snp firmware's C entry points (from entry.S). The boot CPU:
 *   descriptor tables and IST stacks first (so a #VC can be served),
 *   the boot parameters copied and checked, the CPUID page copied, the
 *   C-bit from it, the loader's memory map and VP count, the SVSM's own
 *   page tables, the FPU (CPUID: the first #VC), then snp_boot() and the
 *   request loop. An AP: its tables, the FPU, its GHCB, the loop.
 *
 * Threats: the boot parameters, the CPUID page (checked by the PSP at
 * launch) and the image are measured; the memory map and VP count are
 * the loader's (hostile, checked before use: snp_memory_map() and the
 * bound below). Every failure terminates with a named reason.
 */
#include "svsm/check.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/std.h"
#include "svsm/terminate.h"
#include "svsm/vcpu.h"
#include "svsm/vtpm.h"

#include "abi/csvsm_boot.h"
#include "abi/snp.h"

#include "../ghcb.h"
#include "../snp_boot.h"
#include "../snp_hw.h"
#include "../snp_main.h"
#include "../vc.h"
#include "arch.h"
#include "fw_cpu.h"

#define PAGE SNP_PAGE_SIZE

void snp_fw_main(uint64_t params_gpa) __attribute__((noreturn));
void snp_fw_ap_main(struct snp_fw_cpu *fw) __attribute__((noreturn));

struct snp_fw_cpu snp_bsp_fw_cpu;
struct snp_cpuid_table snp_fw_cpuid;
static uint8_t bsp_ist[X86_IST_COUNT][PAGE << SNP_FW_IST_ORDER]
	__attribute__((aligned(16)));
static struct csvsm_boot_params params;
static uint32_t apic_ids[SVSM_MAX_CPUS];

static bool page_in_region(uint64_t gpa)
{
	return gpa % PAGE == 0 && gpa >= params.svsm_base &&
	       gpa - params.svsm_base < params.svsm_size;
}

/* The image's boot page tables must use the C-bit the CPUID page names
 * (csvsm-igvm --c-bit): the PML4 entry that maps the SVSM region. */
static void check_boot_c_bit(unsigned cbit)
{
	const uint64_t *pml4 =
		(const uint64_t *)(read_cr3() & 0x000FFFFFFFFFF000ull &
				   ~(1ull << cbit));
	uint64_t pml4e = pml4[(params.svsm_base >> 39) & 511];

	if ((pml4e & (1ull << cbit)) == 0) {
		snp_bad_boot("the image's page tables use another C-bit");
	}
}

/*
 * The heap is not in the image: the loader leaves it assigned to the
 * guest and not validated, as every page it does not launch. Validate it
 * before anything allocates from it (a first touch would be #VC
 * page-not-validated). 2 MiB at a time where the RMP has 2 MiB entries,
 * else page by page. A page already validated was validated by someone
 * else (the hypervisor cannot; only a broken launch could): refused.
 */
static void validate_heap(void)
{
	uint64_t gpa = params.svsm_heap_gpa;
	uint64_t end = params.svsm_base + params.svsm_size;

	while (gpa < end) {
		bool size_2m = false;
		uint64_t span = PAGE;
		bool unchanged = false;
		enum snp_ret rc;

		if (gpa % SNP_PAGE_SIZE_2M == 0 &&
		    end - gpa >= SNP_PAGE_SIZE_2M) {
			size_2m = true;
			span = SNP_PAGE_SIZE_2M;
		}
		rc = snp_hw_pvalidate(gpa_init(gpa), size_2m, true, &unchanged);
		if (rc == SNP_RET_FAIL_SIZEMISMATCH && size_2m) {
			size_2m = false;
			span = PAGE;
			rc = snp_hw_pvalidate(gpa_init(gpa), size_2m, true,
					      &unchanged);
		}
		if (rc != SNP_RET_SUCCESS || unchanged) {
			SNP_TERMINATE_HV(TERM_CSVSM_RMP_FAILURE,
					 "snp: PVALIDATE of the heap at 0x%llx "
					 "failed (%u%s)",
					 (unsigned long long)gpa, (unsigned)rc,
					 unchanged ? ", already validated"
						   : "");
		}
		gpa += span;
	}
}

static void cpu_tables(struct snp_fw_cpu *fw)
{
	x86_tables_load(&fw->tables, fw->ist_tops);
}

void snp_fw_main(uint64_t params_gpa)
{
	struct snp_fw_cpu *fw = &snp_bsp_fw_cpu;
	struct mem_range ram[MEMMAP_MAX_RAM];
	const uint8_t *map;
	uint32_t vp_count;
	unsigned i, n = 0, cbit;
	const char *why;
	uint64_t cr3;

	for (i = 0; i < X86_IST_COUNT; i++) {
		fw->ist_tops[i] = bsp_ist[i] + sizeof(bsp_ist[i]);
	}
	cpu_tables(fw);
	/* Measured, but still copied once and checked: the rest of boot
	 * reads the copy. Until the page tables change, only the SVSM
	 * region is mapped, so every page read here must lie in it. */
	memcpy(&params, (const void *)params_gpa, sizeof(params));
	if (params.magic != CSVSM_BOOT_MAGIC ||
	    params.version != CSVSM_BOOT_VERSION ||
	    params.svsm_size > (1ull << 30) ||
	    params.svsm_base + params.svsm_size < params.svsm_base ||
	    !page_in_region(params_gpa) ||
	    !page_in_region(params.svsm_cpuid_gpa) ||
	    !page_in_region(params.memory_map_gpa) ||
	    !page_in_region(params.vp_count_gpa) ||
	    !page_in_region(params.svsm_heap_gpa)) {
		snp_bad_boot("no usable csvsm boot parameters");
	}
	memcpy(&snp_fw_cpuid, (const void *)params.svsm_cpuid_gpa,
	       sizeof(snp_fw_cpuid));
	why = snp_cpuid_boot_checks(&snp_fw_cpuid, &cbit);
	if (why != NULL) {
		snp_bad_boot(why);
	}
	check_boot_c_bit(cbit);
	validate_heap();
	map = (const uint8_t *)params.memory_map_gpa;
	why = snp_boot_ram(&params, map, PAGE, ram, MEMMAP_MAX_RAM, &n);
	if (why != NULL) {
		snp_bad_boot(why);
	}
	memcpy(&vp_count, (const void *)params.vp_count_gpa, sizeof(vp_count));
	if (vp_count == 0 || vp_count > SVSM_MAX_CPUS) {
		snp_bad_boot(
			"the loader's VP count is 0 or above SVSM_MAX_CPUS");
	}
	/* QEMU numbers a flat topology's APIC IDs from 0 (the IGVM MADT
	 * parameter would say otherwise; it is not read yet). */
	for (i = 0; i < vp_count; i++) {
		apic_ids[i] = i;
	}
	cr3 = snp_fw_paging_init(cbit, &params, ram, n);
	(void)x86_enable_fpu();
	(void)snp_boot(&params, gpa_init(params_gpa), map, PAGE, apic_ids,
		       vp_count, &vtpm_engine_libtpms, cr3);
	snp_run_guest();
	for (;;) {
		struct svsm_cpu *cpu = cpu_by_apic(apic_ids[0]);

		CHECK(cpu != NULL);
		(void)snp_serve(cpu);
	}
}

void snp_fw_ap_main(struct snp_fw_cpu *fw)
{
	struct snp_cpu *c = fw->fs.cpu;

	cpu_tables(fw);
	(void)x86_enable_fpu();
	snp_cpu_online(c);
	LOG_INFO("snp: CPU %u (APIC ID %u) online", c->index, c->apic_id);
	snp_run_guest();
	for (;;) {
		struct svsm_cpu *cpu = cpu_by_apic(c->apic_id);

		CHECK(cpu != NULL);
		(void)snp_serve(cpu);
	}
}
