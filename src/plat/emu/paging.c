/* SPDX-License-Identifier: MIT */
#include "paging.h"

#include "svsm/check.h"
#include "svsm/mem.h"
#include "svsm/std.h"

#include "arch.h"
#include "layout.h"

#define PTE_P (1ull << 0)
#define PTE_RW (1ull << 1)
#define PTE_PWT (1ull << 3)
#define PTE_PCD (1ull << 4)
#define PTE_PS (1ull << 7)
#define PTE_NX (1ull << 63)
#define PAGE 4096ull
#define SPAN_2M 0x200000ull

extern const uint8_t __image_start[];
extern const uint8_t __text_end[];

static uint64_t *table(void)
{
	uint64_t *t = page_alloc(0);

	if (t == NULL) {
		panic("no memory for the SVSM page tables");
	}
	memset(t, 0, PAGE);
	return t;
}

/* 4 KiB entries for the 2 MiB at @base: code pages R+X, others RW+NX. */
static uint64_t *fine_table(uint64_t base, uint64_t x_start, uint64_t x_end,
			    bool x_writable)
{
	uint64_t *pt = table();
	unsigned i;

	for (i = 0; i < 512; i++) {
		uint64_t pa = base + i * PAGE;
		bool x = pa >= x_start && pa < x_end;

		pt[i] = pa | PTE_P;
		if (!x || x_writable) {
			pt[i] |= PTE_RW;
		}
		if (!x) {
			pt[i] |= PTE_NX;
		}
	}
	return pt;
}

uint64_t paging_init(void)
{
	uint64_t *pml4 = table();
	uint64_t *pdpt = table();
	uint64_t text_start = (uint64_t)__image_start;
	uint64_t text_end = (uint64_t)__text_end;
	unsigned i;

	CHECK(text_start == EMU_SVSM_BASE && text_end > text_start &&
	      text_end <= EMU_SVSM_END);
	pml4[0] = (uint64_t)pdpt | PTE_P | PTE_RW;
	for (i = 0; i < 4; i++) {
		uint64_t *pd = table();
		unsigned j;

		pdpt[i] = (uint64_t)pd | PTE_P | PTE_RW;
		for (j = 0; j < 512; j++) {
			uint64_t pa = ((uint64_t)i * 512 + j) * SPAN_2M;

			pd[j] = pa | PTE_P | PTE_RW | PTE_PS | PTE_NX;
			if (pa >= EMU_RAM_LIMIT) {
				pd[j] |= PTE_PCD | PTE_PWT; /* MMIO */
			}
		}
		if (i == 0) {
			/* The trampoline page: written once, then run by APs.
			 */
			pd[0] = (uint64_t)fine_table(0, EMU_TRAMPOLINE,
						     EMU_TRAMPOLINE + PAGE,
						     true) |
				PTE_P | PTE_RW;
			/* The 2 MiB spans holding the image's text. */
			for (j = EMU_SVSM_BASE / SPAN_2M;
			     j * SPAN_2M < text_end; j++) {
				pd[j] = (uint64_t)fine_table(j * SPAN_2M,
							     text_start,
							     text_end, false) |
					PTE_P | PTE_RW;
			}
		}
	}
	write_cr0(read_cr0() | CR0_WP);
	write_cr3((uint64_t)pml4);
	return (uint64_t)pml4;
}
