/* SPDX-License-Identifier: MIT */
#include "npt.h"

#include "svsm/check.h"
#include "svsm/guest_config.h"
#include "svsm/memmap.h"
#include "svsm/std.h"

#include "emu_rmp.h"

#define PTE_P (1ull << 0)
#define PTE_RW (1ull << 1)
#define PTE_US (1ull << 2) /* NPT walks are user accesses: always set */
#define PTE_NX (1ull << 63)
#define PTE_TABLE (PTE_P | PTE_RW | PTE_US)
#define PAGE 4096ull
#define SPAN_2M 0x200000ull

static uint64_t *pml4;
static uint64_t *ptes; /* one entry per 4 KiB page below npt_top */
static uint64_t npt_top;

uint64_t npt_storage_pages(uint64_t ram_top)
{
	/* PML4, one PDPT, four PDs, then the leaf tables. */
	return 6 + ALIGN_UP(ram_top, SPAN_2M) / SPAN_2M;
}

void npt_init(void *storage, uint64_t ram_top)
{
	uint64_t *pdpt;
	uint64_t *pd;
	uint64_t i;

	CHECK(ram_top <= 4ull * 1024 * 1024 * 1024);
	npt_top = ALIGN_UP(ram_top, SPAN_2M);
	memset(storage, 0, npt_storage_pages(ram_top) * PAGE);
	pml4 = storage;
	pdpt = (uint64_t *)((uint8_t *)storage + PAGE);
	pd = (uint64_t *)((uint8_t *)storage + 2 * PAGE);
	ptes = (uint64_t *)((uint8_t *)storage + 6 * PAGE);
	pml4[0] = (uint64_t)pdpt | PTE_TABLE;
	for (i = 0; i < 4; i++) {
		pdpt[i] = ((uint64_t)pd + i * PAGE) | PTE_TABLE;
	}
	for (i = 0; i < npt_top / SPAN_2M; i++) {
		pd[i] = ((uint64_t)ptes + i * PAGE) | PTE_TABLE;
	}
}

uint64_t npt_root_pa(void)
{
	return (uint64_t)pml4;
}

static uint64_t npt_entry_for(uint64_t gpa)
{
	uint64_t pte = gpa | PTE_P | PTE_US;
	unsigned access;

	if (!memmap_is_guest_ram(gpa_init(gpa), PAGE)) {
		return 0;
	}
	access = rmp_vmpl_access(&emu_rmp, svsm_guest_vmpl(), gpa);
	if ((access & RMP_ACCESS_SHARED) != 0) {
		return pte | PTE_RW | PTE_NX; /* shared: data only */
	}
	/* No read, no mapping (the NPT cannot express write-only). */
	if ((access & RMP_PERM_READ) == 0) {
		return 0;
	}
	if ((access & RMP_PERM_WRITE) != 0) {
		pte |= PTE_RW;
	}
	if ((access & (RMP_PERM_EXEC_USER | RMP_PERM_EXEC_SUPER)) == 0) {
		pte |= PTE_NX;
	}
	return pte;
}

void npt_sync(uint64_t gpa, uint64_t len)
{
	uint64_t page;

	if (ptes == NULL) {
		return; /* before npt_init: nothing is mapped yet */
	}
	for (page = gpa & ~(PAGE - 1); page < gpa + len && page < npt_top;
	     page += PAGE) {
		__atomic_store_n(&ptes[page / PAGE], npt_entry_for(page),
				 __ATOMIC_RELEASE);
	}
}
