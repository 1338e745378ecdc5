/* SPDX-License-Identifier: MIT */
#include "paging.h"

#include "svsm/check.h"
#include "svsm/mem.h"
#include "svsm/plat.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "arch.h"
#include "layout.h"
#include "pgtable.h"

#define PAGE 4096ull
#define SPAN_2M 0x200000ull
#define GIB4 0x100000000ull

extern const uint8_t __image_start[];
extern const uint8_t __text_end[];

static uint64_t heap_table(void *ctx)
{
	void *t = page_alloc(0);

	(void)ctx;
	if (t == NULL) {
		TERMINATE_HV(TERM_CSVSM_NO_MEMORY,
			     "emu: no memory for the SVSM page tables");
	}
	memset(t, 0, PAGE);
	return (uint64_t)t;
}

static uint64_t *identity(void *ctx, uint64_t pa)
{
	(void)ctx;
	return (uint64_t *)pa;
}

static const struct pt_ops heap_ops = {.alloc = heap_table, .table = identity};

static void map(struct pgtable *pt, uint64_t base, uint64_t end, unsigned flags)
{
	if (end > base && !pt_map(pt, base, base, end - base, flags)) {
		panic("cannot map %llx-%llx", (unsigned long long)base,
		      (unsigned long long)end);
	}
}

uint64_t paging_init(void)
{
	struct pgtable pt;
	uint64_t text_start = (uint64_t)__image_start;
	uint64_t text_end = (uint64_t)__text_end;
	/* The 2 MiB spans holding the text get 4 KiB pages. */
	uint64_t fine_end = (text_end + SPAN_2M - 1) & ~(SPAN_2M - 1);

	CHECK(text_start == EMU_SVSM_BASE && text_end > text_start &&
	      text_end <= EMU_SVSM_END);
	CHECK(pt_init(&pt, &heap_ops, 0));
	/* Low memory: the trampoline page is written once, then run by
	 * APs; the rest of it is data. */
	map(&pt, 0, EMU_TRAMPOLINE, PT_MAP_WRITE);
	map(&pt, EMU_TRAMPOLINE, EMU_TRAMPOLINE + PAGE,
	    PT_MAP_WRITE | PT_MAP_EXEC);
	map(&pt, EMU_TRAMPOLINE + PAGE, text_start, PT_MAP_WRITE);
	map(&pt, text_start, text_end, PT_MAP_EXEC);
	map(&pt, text_end, fine_end, PT_MAP_WRITE);
	map(&pt, fine_end, EMU_RAM_LIMIT, PT_MAP_WRITE | PT_MAP_LARGE);
	map(&pt, EMU_RAM_LIMIT, GIB4,
	    PT_MAP_WRITE | PT_MAP_LARGE | PT_MAP_UNCACHED); /* MMIO */
	write_cr0(read_cr0() | CR0_WP);
	write_cr3(pt.root);
	return pt.root;
}
