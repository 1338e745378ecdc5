/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the snp platform's boot information (src/plat/snp/boot_info.c):
 * the fuzzer's bytes are the loader's memory map, then (if long enough)
 * the boot parameters. Checks: accepted RAM ranges are sorted, disjoint
 * and non-empty, and stay so when the launched firmware is added
 * (snp_launch_ram), which then lies inside one of them; accepted boot
 * information puts the heap inside the SVSM region and the guest's pages
 * (page aligned) outside it, and no two of the SVSM's boot pages on one
 * page. Reproducers: test/fuzz/regress/fuzz-snp_boot_info/.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/plat/snp/snp_boot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_ranges(const struct mem_range *ram, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (ram[i].size == 0 ||
		    (i > 0 && gpa_val(ram[i].base) < gpa_val(ram[i - 1].base) +
							     ram[i - 1].size)) {
			abort();
		}
	}
}

static bool in_one(const struct mem_range *ram, unsigned n, uint64_t base,
		   uint64_t size)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (base >= gpa_val(ram[i].base) &&
		    base + size <= gpa_val(ram[i].base) + ram[i].size) {
			return true;
		}
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem_range ram[MEMMAP_MAX_RAM];
	struct csvsm_boot_params p;
	struct svsm_boot_info info;
	size_t map_len = size > sizeof(p) ? size - sizeof(p) : size;
	unsigned n = 0;

	if (snp_memory_map(data, map_len, ram, MEMMAP_MAX_RAM, &n) != NULL) {
		return 0;
	}
	check_ranges(ram, n);
	if (size < sizeof(p)) {
		return 0;
	}
	memcpy(&p, data + size - sizeof(p), sizeof(p));
	if (snp_launch_ram(&p, ram, MEMMAP_MAX_RAM, &n) != NULL) {
		return 0;
	}
	check_ranges(ram, n);
	if (p.guest_firmware_size != 0 &&
	    !in_one(ram, n, p.guest_firmware_base, p.guest_firmware_size)) {
		abort();
	}
	if (snp_boot_info(&p, ram, n, &info) != NULL) {
		return 0;
	}
	if (p.guest_secrets_gpa % 4096 != 0 || p.guest_caa_gpa % 4096 != 0 ||
	    p.guest_cpuid_gpa % 4096 != 0 ||
	    p.psp_secrets_gpa == p.vp_count_gpa ||
	    p.psp_secrets_gpa == p.svsm_cpuid_gpa ||
	    p.psp_secrets_gpa == p.memory_map_gpa ||
	    p.svsm_cpuid_gpa == p.memory_map_gpa ||
	    p.svsm_cpuid_gpa == p.vp_count_gpa ||
	    p.memory_map_gpa == p.vp_count_gpa ||
	    (p.guest_caa_gpa >= p.svsm_base &&
	     p.guest_caa_gpa - p.svsm_base < p.svsm_size)) {
		abort();
	}
	if (gpa_val(info.heap.base) < gpa_val(info.svsm.base) ||
	    gpa_val(info.heap.base) + info.heap.size >
		    gpa_val(info.svsm.base) + info.svsm.size ||
	    (gpa_val(info.guest_secrets) >= gpa_val(info.svsm.base) &&
	     gpa_val(info.guest_secrets) <
		     gpa_val(info.svsm.base) + info.svsm.size)) {
		abort();
	}
	return 0;
}
