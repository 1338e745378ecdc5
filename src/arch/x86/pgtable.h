/* SPDX-License-Identifier: MIT */
/*
 * x86-64 four-level page tables, built by the firmware at boot (snp) and
 * by hosted tests, which is why table memory is reached through an
 * allocator and an accessor rather than by address.
 *
 * Invariants: every table lives in memory the allocator hands out; every
 * entry written carries @enc_mask (the SNP C-bit: the tables and what
 * they map are private unless a leaf is explicitly made shared); a range
 * is mapped with 2 MiB pages where it is 2 MiB aligned and the caller
 * allows it, with 4 KiB pages otherwise; mapping over a present entry is
 * refused, never silently replaced.
 */
#ifndef X86_PGTABLE_H
#define X86_PGTABLE_H

#include <stdbool.h>
#include <stdint.h>

#define PTE_P (1ull << 0)
#define PTE_RW (1ull << 1)
#define PTE_PWT (1ull << 3)
#define PTE_PCD (1ull << 4)
#define PTE_PS (1ull << 7)
#define PTE_NX (1ull << 63)
#define PTE_ADDR_MASK 0x000FFFFFFFFFF000ull

struct pt_ops {
	/** A zeroed page for a table: its physical address, 0 if none. */
	uint64_t (*alloc)(void *ctx);
	/** The table page at physical address @pa, for reading and writing. */
	uint64_t *(*table)(void *ctx, uint64_t pa);
	void *ctx;
};

struct pgtable {
	const struct pt_ops *ops;
	uint64_t root;	   /* the PML4's physical address: CR3 */
	uint64_t enc_mask; /* set in every entry (the C-bit), or 0 */
};

/* What a range is mapped with. */
#define PT_MAP_WRITE (1u << 0)
#define PT_MAP_EXEC (1u << 1)
#define PT_MAP_LARGE (1u << 2)	  /* 2 MiB pages where aligned */
#define PT_MAP_SHARED (1u << 3)	  /* the leaf without enc_mask */
#define PT_MAP_UNCACHED (1u << 4) /* PCD | PWT: device memory */

/** A new, empty set of tables; false if no memory. */
bool pt_init(struct pgtable *pt, const struct pt_ops *ops, uint64_t enc_mask);

/**
 * Map [@va, @va + @len) to [@pa, ...) with @flags (PT_MAP_*). All three
 * 4 KiB aligned, @va canonical lower half, no overflow. False (with the
 * range partly mapped) if out of memory, misaligned or already mapped.
 */
bool pt_map(struct pgtable *pt, uint64_t va, uint64_t pa, uint64_t len,
	    unsigned flags);

/**
 * The 4 KiB leaf entry that maps @va, for the caller to change (and then
 * flush); NULL if @va is unmapped or mapped by a 2 MiB page.
 */
uint64_t *pt_leaf_4k(const struct pgtable *pt, uint64_t va);

/**
 * Walk the tables as the CPU would: true if @va is mapped, with *@pa its
 * physical address and *@pte the leaf entry (for its attributes).
 */
bool pt_translate(const struct pgtable *pt, uint64_t va, uint64_t *pa,
		  uint64_t *pte);

#endif /* X86_PGTABLE_H */
