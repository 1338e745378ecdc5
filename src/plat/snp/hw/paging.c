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
#include "abi/snp.h"

#include "../ghcb.h"
#include "../snp_hw.h"
#include "../svsm_pt.h"
#include "arch.h"
#include "fw_cpu.h"

#define PAGE SNP_PAGE_SIZE
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

uint64_t snp_fw_paging_init(unsigned cbit, const struct csvsm_boot_params *p,
			    const struct mem_range *ram, unsigned n)
{
	struct snp_pt_layout l = {.text = (uint64_t)__image_start,
				  .text_end = (uint64_t)__text_end,
				  .region_base = p->svsm_base,
				  .region_end = p->svsm_base + p->svsm_size,
				  .ram = ram,
				  .ram_count = n};
	const char *why = pt_init(&svsm_pt, &pool_ops, 1ull << cbit)
				  ? snp_pt_build(&svsm_pt, &l)
				  : "no page for the PML4";

	if (why != NULL) {
		SNP_TERMINATE_HV(TERM_CSVSM_NO_MEMORY,
				 "snp: page tables (pool of %u pages): %s",
				 POOL_PAGES, why);
	}
	region_base = l.region_base;
	region_end = l.region_end;
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
