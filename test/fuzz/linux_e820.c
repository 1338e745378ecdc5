/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the Linux loader's e820 builder (src/plat/snp/linux/linux_e820.c) on the
 * host's memory map: the fuzzer's first 16 bytes place the loader's
 * holes, the rest is the IGVM memory map (snp_memory_map, then
 * linux_e820_build). Checks on an accepted table: 2..128 entries, sorted
 * and disjoint, every entry inside the host's RAM, no RAM entry touching
 * a hole, each hole an entry of its own type. Reproducers:
 * test/fuzz/regress/fuzz-linux_e820/.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/plat/snp/linux/linux_boot.h"
#include "../../src/plat/snp/snp_boot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PAGE 4096ull

static bool inside_ram(const struct mem_range *ram, unsigned n, uint64_t b,
		       uint64_t s)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t rb = gpa_val(ram[i].base);

		if (b >= rb && s <= ram[i].size && b - rb <= ram[i].size - s) {
			return true;
		}
	}
	/* Adjacent host ranges merge into one RAM entry. */
	for (i = 0; i < n; i++) {
		uint64_t rb = gpa_val(ram[i].base), re = rb + ram[i].size;

		if (b >= rb && b < re) {
			if (b + s <= re) {
				return true;
			}
			s -= re - b;
			b = re;
		}
	}
	return s == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct linux_e820_entry e[LINUX_E820_MAX];
	struct mem_range ram[MEMMAP_MAX_RAM];
	struct linux_hole holes[3];
	unsigned n = 0, count = 0, i, j;
	uint16_t v[8];

	if (size < sizeof(v)) {
		return 0;
	}
	memcpy(v, data, sizeof(v));
	/* Loader pages, ACPI, the SVSM region: in that order, disjoint. */
	holes[0] = (struct linux_hole){v[0] * PAGE, (v[1] % 64 + 1) * PAGE,
				       LINUX_E820_RESERVED};
	holes[1] =
		(struct linux_hole){holes[0].base + holes[0].size + v[2] * PAGE,
				    (v[3] % 64 + 1) * PAGE, LINUX_E820_ACPI};
	holes[2] = (struct linux_hole){
		holes[1].base + holes[1].size + v[4] * PAGE * 512,
		(v[5] % 64 + 1) * PAGE * 512, LINUX_E820_RESERVED};
	if (snp_memory_map(data + sizeof(v), size - sizeof(v), ram,
			   MEMMAP_MAX_RAM, &n) != NULL) {
		return 0;
	}
	if (linux_e820_build(ram, n, holes, 3, e, v[6] % LINUX_E820_MAX + 1,
			     &count) != NULL) {
		return 0;
	}
	if (count < 2 || count > v[6] % LINUX_E820_MAX + 1) {
		abort();
	}
	for (i = 0; i < count; i++) {
		if (e[i].size == 0 ||
		    !inside_ram(ram, n, e[i].addr, e[i].size) ||
		    (i > 0 && e[i].addr < e[i - 1].addr + e[i - 1].size)) {
			abort();
		}
		for (j = 0; j < 3; j++) {
			bool touches =
				e[i].addr < holes[j].base + holes[j].size &&
				holes[j].base < e[i].addr + e[i].size;

			if (touches && (e[i].type != holes[j].type ||
					e[i].addr != holes[j].base ||
					e[i].size != holes[j].size)) {
				abort();
			}
		}
	}
	for (j = 0; j < 3; j++) {
		for (i = 0; i < count && e[i].addr != holes[j].base; i++) {
		}
		if (i == count) {
			abort();
		}
	}
	return 0;
}
