/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the snp platform's boot information (src/plat/snp/boot_info.c):
 * the fuzzer's bytes are the loader's memory map, then (if long enough)
 * the boot parameters. Checks: accepted RAM ranges are sorted, disjoint
 * and non-empty; accepted boot information puts the heap inside the SVSM
 * region and the guest's pages outside it.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/plat/snp/snp_boot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem_range ram[MEMMAP_MAX_RAM];
	struct csvsm_boot_params p;
	struct svsm_boot_info info;
	size_t map_len = size > sizeof(p) ? size - sizeof(p) : size;
	unsigned n = 0, i;

	if (snp_memory_map(data, map_len, ram, MEMMAP_MAX_RAM, &n) != NULL) {
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (ram[i].size == 0 ||
		    (i > 0 && gpa_val(ram[i].base) < gpa_val(ram[i - 1].base) +
							     ram[i - 1].size)) {
			abort();
		}
	}
	if (size < sizeof(p)) {
		return 0;
	}
	memcpy(&p, data + size - sizeof(p), sizeof(p));
	if (snp_boot_info(&p, ram, n, &info) != NULL) {
		return 0;
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
