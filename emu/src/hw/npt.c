/* SPDX-License-Identifier: MIT */
#include "npt.h"

#include "machine/layout.h"
#include "machine/machine.h"

#define PTE_P (1ull << 0)
#define PTE_RW (1ull << 1)
#define PTE_US (1ull << 2) /* nested walks are user accesses */
#define PTE_NX (1ull << 63)
#define PTE_TABLE (PTE_P | PTE_RW | PTE_US)
#define SLOT_PRIVATE (1u << (MACHINE_C_BIT - 48u)) /* PML5 index: C set */

/* One alias: PML4 -> PDPTs -> PDs -> 4 KiB leaves over every bank of
 * guest memory, one leaf per RMP entry, in the RMP's order. */
struct view {
	uint64_t *pml4;
	uint64_t *leaves; /* one entry per RMP entry */
};

static struct view shared_view;
static struct view private_view[MACHINE_VMPLS];
static uint64_t *pml5[MACHINE_VMPLS];
static uint64_t *pml5_unpaged[MACHINE_VMPLS]; /* private in both slots */

/* The table @parent[@idx] points to, made on first use. */
static uint64_t *next_table(uint64_t *parent, unsigned idx)
{
	if ((parent[idx] & PTE_P) == 0) {
		parent[idx] = (uint64_t)mm_alloc_pages(1) | PTE_TABLE;
	}
	return (uint64_t *)(parent[idx] & ~(PAGE - 1) & ~PTE_NX);
}

static void view_build(const struct rmp *r, struct view *v)
{
	unsigned b;

	v->pml4 = mm_alloc_pages(1);
	v->leaves = mm_alloc_pages(r->page_count / 512);
	for (b = 0; b < r->banks; b++) {
		const struct rmp_bank *bank = &r->bank[b];
		uint64_t off;

		for (off = 0; off < bank->pages; off += 512) {
			uint64_t gpa = bank->gpa + off * PAGE;
			uint64_t *pdpt = next_table(v->pml4, (gpa >> 39) & 511);
			uint64_t *pd = next_table(pdpt, (gpa >> 30) & 511);

			/* 512 leaves: one page, aligned (banks hold whole
			 * 2 MiB, so every index here is a multiple of 512). */
			pd[(gpa >> 21) & 511] =
				(uint64_t)&v->leaves[bank->index + off] |
				PTE_TABLE;
		}
	}
}

void npt_init(const struct rmp *r)
{
	unsigned vmpl, b;

	MCHECK(r->page_count % 512 == 0 && shared_view.leaves == NULL);
	view_build(r, &shared_view);
	for (vmpl = 0; vmpl < MACHINE_VMPLS; vmpl++) {
		view_build(r, &private_view[vmpl]);
		pml5[vmpl] = mm_alloc_pages(1);
		pml5[vmpl][0] = (uint64_t)shared_view.pml4 | PTE_TABLE;
		pml5[vmpl][SLOT_PRIVATE] =
			(uint64_t)private_view[vmpl].pml4 | PTE_TABLE;
		pml5_unpaged[vmpl] = mm_alloc_pages(1);
		pml5_unpaged[vmpl][0] = pml5[vmpl][SLOT_PRIVATE];
		pml5_unpaged[vmpl][SLOT_PRIVATE] = pml5[vmpl][SLOT_PRIVATE];
	}
	for (b = 0; b < r->banks; b++) {
		npt_sync(r, r->bank[b].gpa, r->bank[b].pages * PAGE);
	}
}

bool npt_private_alias(const struct rmp *r, unsigned vmpl, uint64_t gpa,
		       unsigned perm)
{
	uint64_t g = gpa & ~MACHINE_C_MASK & ~(PAGE - 1), index;
	unsigned access;

	if (vmpl >= MACHINE_VMPLS || !rmp_index(r, g, &index)) {
		return false;
	}
	access = rmp_vmpl_access(r, vmpl, g);
	if ((access & RMP_ACCESS_SHARED) != 0 || (perm & ~access) != 0) {
		return false;
	}
	__atomic_store_n(&shared_view.leaves[index],
			 (MACHINE_GUEST_BASE + index * PAGE) | PTE_P | PTE_US |
				 ((perm & (RMP_PERM_EXEC_USER |
					   RMP_PERM_EXEC_SUPER)) == 0
					  ? PTE_NX
					  : 0) |
				 ((access & RMP_PERM_WRITE) != 0 ? PTE_RW : 0),
			 __ATOMIC_RELEASE);
	return true;
}

uint64_t npt_root(unsigned vmpl, bool paged)
{
	return (uint64_t)(paged ? pml5[vmpl] : pml5_unpaged[vmpl]);
}

static uint64_t private_entry(const struct rmp *r, unsigned vmpl, uint64_t gpa,
			      uint64_t hpa)
{
	unsigned access = rmp_vmpl_access(r, vmpl, gpa);
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

void npt_sync(const struct rmp *r, uint64_t gpa, uint64_t len)
{
	uint64_t page, first = gpa / PAGE;
	uint64_t last = (gpa + len + PAGE - 1) / PAGE;
	unsigned vmpl;

	MCHECK(shared_view.leaves != NULL); /* rmp_setup() built the views */
	for (page = first; page < last; page++) {
		uint64_t g = page * PAGE, index, hpa;

		if (!rmp_index(r, g, &index)) {
			continue; /* no bank: never mapped */
		}
		hpa = MACHINE_GUEST_BASE + index * PAGE;
		uint64_t shared =
			(rmp_vmpl_access(r, 0, g) & RMP_ACCESS_SHARED) != 0
				? hpa | PTE_P | PTE_RW | PTE_US | PTE_NX
				: 0;

		__atomic_store_n(&shared_view.leaves[index], shared,
				 __ATOMIC_RELEASE);
		for (vmpl = 0; vmpl < MACHINE_VMPLS; vmpl++) {
			__atomic_store_n(&private_view[vmpl].leaves[index],
					 private_entry(r, vmpl, g, hpa),
					 __ATOMIC_RELEASE);
		}
	}
}
