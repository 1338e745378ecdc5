/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's page tables on snp, identity-mapped (VA = GPA, which
 * PVALIDATE and RMPADJUST need for guest pages). W^X (threat T13): only
 * the image's text is executable, and it is read-only. Everything is
 * mapped private (C-bit set) except the pages the SVSM made shared
 * (snp_hw_map_shared), whose leaf loses the C-bit.
 *
 * The tables come from a pool in bss, because they must exist before the
 * heap does (svsm_init() runs on them); the pool bounds the RAM a guest
 * may have (2 MiB pages: one table page per GiB).
 */
#include "svsm/check.h"
#include "svsm/log.h"
#include "svsm/memmap.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/csvsm_boot.h"

#include "../ghcb.h"
#include "../snp_hw.h"
#include "arch.h"
#include "fw_cpu.h"
#include "pgtable.h"

#define PAGE 4096ull
#define POOL_PAGES 96u

extern const uint8_t __image_start[];
extern const uint8_t __text_end[];

static uint8_t pool[POOL_PAGES][PAGE] __attribute__((aligned(4096)));
static unsigned pool_used;
static struct pgtable svsm_pt;
static uint64_t region_base, region_end;

static uint64_t pool_alloc(void *ctx)
{
	(void)ctx;
	if (pool_used == POOL_PAGES) {
		return 0;
	}
	memset(pool[pool_used], 0, PAGE);
	return (uint64_t)pool[pool_used++];
}

static uint64_t *pool_table(void *ctx, uint64_t pa)
{
	(void)ctx;
	return (uint64_t *)pa;
}

static const struct pt_ops pool_ops = {.alloc = pool_alloc,
				       .table = pool_table};

static void no_tables(const char *what)
{
	LOG_ERROR("snp: cannot map %s (page-table pool of %u pages)", what,
		  POOL_PAGES);
	ghcb_msr_terminate(TERM_SET_CSVSM, TERM_CSVSM_NO_MEMORY);
}

static void map_ram(uint64_t base, uint64_t end)
{
	if (end > base && !pt_map(&svsm_pt, base, base, end - base,
				  PT_MAP_WRITE | PT_MAP_LARGE)) {
		no_tables("guest RAM");
	}
}

uint64_t snp_fw_paging_init(unsigned cbit, const struct csvsm_boot_params *p,
			    const struct mem_range *ram, unsigned n)
{
	uint64_t text = (uint64_t)__image_start;
	uint64_t text_end = (uint64_t)__text_end;
	unsigned i;

	region_base = p->svsm_base;
	region_end = p->svsm_base + p->svsm_size;
	/* The image is where the boot parameters say the region is. */
	CHECK(text == region_base && text_end <= region_end);
	if (!pt_init(&svsm_pt, &pool_ops, 1ull << cbit) ||
	    !pt_map(&svsm_pt, text, text, text_end - text, PT_MAP_EXEC) ||
	    !pt_map(&svsm_pt, text_end, text_end, region_end - text_end,
		    PT_MAP_WRITE)) {
		no_tables("the SVSM region");
	}
	for (i = 0; i < n; i++) {
		uint64_t b = gpa_val(ram[i].base), e = b + ram[i].size;

		/* snp_boot_info() checks the region is inside one range. */
		if (b < region_end && region_base < e) {
			map_ram(b, region_base > b ? region_base : b);
			map_ram(region_end < e ? region_end : e, e);
		} else {
			map_ram(b, e);
		}
	}
	/* CR3 carries the C-bit too: the PML4 itself is private. */
	write_cr3(svsm_pt.root | svsm_pt.enc_mask);
	return svsm_pt.root | svsm_pt.enc_mask;
}

void *snp_hw_map_shared(gpa_t gpa)
{
	uint64_t va = gpa_val(gpa);
	uint64_t *pte;

	/* Only the SVSM's own pages are ever made shared: a GHCB, doorbell
	 * or guest-request page, which the caller has just converted. */
	if (va % PAGE != 0 || va < region_base || va >= region_end) {
		return NULL;
	}
	pte = pt_leaf_4k(&svsm_pt, va);
	CHECK(pte != NULL);
	*pte &= ~svsm_pt.enc_mask;
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
	return (void *)va;
}
