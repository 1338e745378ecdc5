/* SPDX-License-Identifier: MIT */
#include "npt.h"

#include "layout.h"
#include "machine.h"
#include "rmp.h"

#define PTE_P (1ull << 0)
#define PTE_RW (1ull << 1)
#define PTE_US (1ull << 2) /* nested walks are user accesses */
#define PTE_NX (1ull << 63)
#define PTE_TABLE (PTE_P | PTE_RW | PTE_US)
#define SPAN_2M 0x200000ull
#define SPAN_1G 0x40000000ull
#define SLOT_PRIVATE (1u << (MACHINE_C_BIT - 48u)) /* PML5 index: C set */

/* One alias: PML4 -> one PDPT -> PDs -> 4 KiB leaves over guest RAM. */
struct view {
	uint64_t *pml4;
	uint64_t *leaves; /* one entry per guest page */
};

static struct view shared_view;
static struct view private_view[MACHINE_VMPLS];
static uint64_t *pml5[MACHINE_VMPLS];
static uint64_t *pml5_unpaged[MACHINE_VMPLS]; /* private in both slots */
static uint64_t npt_pages;		      /* guest pages covered */

static void view_build(struct view *v, uint64_t ram)
{
	uint64_t pds = (ram + SPAN_1G - 1) / SPAN_1G;
	uint64_t leaf_tables = (ram + SPAN_2M - 1) / SPAN_2M;
	uint64_t *pdpt, *pd;
	uint64_t i;

	MCHECK(pds <= 512);
	v->pml4 = mm_alloc_pages(1);
	pdpt = mm_alloc_pages(1);
	pd = mm_alloc_pages(pds);
	v->leaves = mm_alloc_pages(leaf_tables);
	v->pml4[0] = (uint64_t)pdpt | PTE_TABLE;
	for (i = 0; i < pds; i++) {
		pdpt[i] = ((uint64_t)pd + i * PAGE) | PTE_TABLE;
	}
	for (i = 0; i < leaf_tables; i++) {
		pd[i] = ((uint64_t)v->leaves + i * PAGE) | PTE_TABLE;
	}
}

void npt_init(uint64_t ram)
{
	unsigned vmpl;

	npt_pages = ram / PAGE;
	view_build(&shared_view, ram);
	for (vmpl = 0; vmpl < MACHINE_VMPLS; vmpl++) {
		view_build(&private_view[vmpl], ram);
		pml5[vmpl] = mm_alloc_pages(1);
		pml5[vmpl][0] = (uint64_t)shared_view.pml4 | PTE_TABLE;
		pml5[vmpl][SLOT_PRIVATE] =
			(uint64_t)private_view[vmpl].pml4 | PTE_TABLE;
		pml5_unpaged[vmpl] = mm_alloc_pages(1);
		pml5_unpaged[vmpl][0] = pml5[vmpl][SLOT_PRIVATE];
		pml5_unpaged[vmpl][SLOT_PRIVATE] = pml5[vmpl][SLOT_PRIVATE];
	}
	rmp_lock();
	npt_sync(0, ram);
	rmp_unlock();
}

uint64_t npt_root(unsigned vmpl, bool paged)
{
	return (uint64_t)(paged ? pml5[vmpl] : pml5_unpaged[vmpl]);
}

static uint64_t private_entry(unsigned vmpl, uint64_t gpa, uint64_t hpa)
{
	unsigned access = rmp_vmpl_access(&machine_rmp, vmpl, gpa);
	uint64_t pte = hpa | PTE_P | PTE_US;

	if ((access & RMP_ACCESS_SHARED) != 0 ||
	    (access & RMP_PERM_READ) == 0) {
		return 0; /* the NPT cannot express write-only either */
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
	uint64_t page, first = gpa / PAGE;
	uint64_t last = (gpa + len + PAGE - 1) / PAGE;
	unsigned vmpl;

	if (shared_view.leaves == NULL) {
		return; /* before npt_init: nothing is mapped yet */
	}
	for (page = first; page < last && page < npt_pages; page++) {
		uint64_t g = page * PAGE;
		uint64_t hpa = MACHINE_GUEST_BASE + g;
		uint64_t shared =
			(rmp_vmpl_access(&machine_rmp, 0, g) &
			 RMP_ACCESS_SHARED) != 0
				? hpa | PTE_P | PTE_RW | PTE_US | PTE_NX
				: 0;

		__atomic_store_n(&shared_view.leaves[page], shared,
				 __ATOMIC_RELEASE);
		for (vmpl = 0; vmpl < MACHINE_VMPLS; vmpl++) {
			__atomic_store_n(&private_view[vmpl].leaves[page],
					 private_entry(vmpl, g, hpa),
					 __ATOMIC_RELEASE);
		}
	}
}
