/* SPDX-License-Identifier: MIT */
/*
 * Fuzz emu's guest page-table walker (src/plat/emu/guest_walk.c), which
 * reads page tables the guest controls to find instruction bytes and
 * RMPADJUST targets. The input fills 16 validated guest pages with page
 * tables whose entries are folded to point back into those pages (or
 * anywhere, the SVSM region included), and picks CR3 and the address.
 * Checks: no fault or sanitizer report; a translation keeps the page
 * offset; fetched bytes are the guest memory at the translated address.
 */
#include "../../src/plat/emu/guest_walk.h"

#include <stdint.h>
#include <string.h>

#include "abi/svsm_call.h"

#include "fuzz_harness.h"

#define WINDOW 0x100000ull
#define WINDOW_PAGES 16u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void validate_window(struct sim_machine *m)
{
	uint64_t caa = sim_current_caa_gpa(m, 0);
	uint64_t hdr = WINDOW_PAGES;
	struct sim_regs r = {.rax = SVSM_CALL(0, 1), .rcx = caa + 8};
	unsigned i;

	(void)sim_mem_write(m, caa + 8, &hdr, 8);
	for (i = 0; i < WINDOW_PAGES; i++) {
		uint64_t e = (WINDOW + i * 4096ull) | 4;

		(void)sim_mem_write(m, caa + 16 + i * 8, &e, 8);
	}
	if (sim_call(m, 0, &r) != SIM_OK || r.rax != 0) {
		abort();
	}
}

static uint64_t fold(uint64_t e, uint8_t how)
{
	uint64_t flags = e & (0xFFFull | (1ull << 63));

	if (how % 4 == 0) {
		return e; /* unchanged: mostly out of range */
	}
	if (how % 4 == 1) {
		return flags | ((e % FUZZ_MEM) & ~0xFFFull); /* anywhere */
	}
	return flags | 1u | (WINDOW + ((e >> 12) % WINDOW_PAGES) * 4096ull);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t pages[WINDOW_PAGES * 4096];
	struct snp_vmsa vmsa;
	struct sim_machine *m;
	uint64_t va;
	uint64_t gpa;
	uint8_t insn[15];
	size_t i;

	if (size < 16) {
		return 0;
	}
	m = fuzz_machine(1);
	validate_window(m);
	memcpy(&va, data, 8);
	memset(pages, 0, sizeof(pages));
	for (i = 16; i + 8 <= size; i += 8) {
		size_t k = (i - 16) / 8;
		uint64_t e;

		memcpy(&e, data + i, 8);
		e = fold(e, data[8]);
		/* Spread the words over the pages: k-th word, page k % 16. */
		memcpy(pages + (k % WINDOW_PAGES) * 4096 +
			       ((k / WINDOW_PAGES) * 8) % 4096,
		       &e, 8);
	}
	if (sim_mem_write(m, WINDOW, pages, sizeof(pages)) != SIM_OK) {
		abort();
	}
	memset(&vmsa, 0, sizeof(vmsa));
	vmsa.cr0 = 0x80000001ull;			/* PG | PE */
	vmsa.efer = 0x500ull;				/* LME | LMA */
	vmsa.cr4 = (data[9] & 1) ? 0x1000ull : 0x20ull; /* LA57 or PAE */
	vmsa.cr3 = WINDOW + (data[10] % WINDOW_PAGES) * 4096ull;
	if (data[11] & 1) {
		va = (va & 0x1FFFFFull) | ((uint64_t)data[12] << 21);
	}
	if (guest_va_to_gpa(&vmsa, va, &gpa) &&
	    (gpa & 0xFFFull) != (va & 0xFFFull)) {
		fprintf(stderr, "translation lost the page offset\n");
		abort();
	}
	if (guest_fetch(&vmsa, va, insn, sizeof(insn))) {
		uint8_t byte;

		for (i = 0; i < sizeof(insn); i++) {
			if (!guest_va_to_gpa(&vmsa, va + i, &gpa) ||
			    sim_mem_read(m, gpa, &byte, 1) != SIM_OK ||
			    byte != insn[i]) {
				fprintf(stderr, "fetched byte %zu is wrong\n",
					i);
				abort();
			}
		}
	}
	fuzz_check(m);
	sim_destroy(m);
	return 0;
}
