/* SPDX-License-Identifier: MIT */
#include "pgtable.h"

#include <stddef.h>

#include "abi/snp.h"

#define PAGE SNP_PAGE_SIZE
#define SPAN_2M 0x200000ull
#define LOWER_HALF_END (1ull << 47)
#define TABLE_FLAGS (PTE_P | PTE_RW) /* leaves restrict, tables do not */

/* The address in entry @e: the C-bit sits among the address bits. */
static uint64_t entry_addr(const struct pgtable *pt, uint64_t e)
{
	return e & PTE_ADDR_MASK & ~pt->enc_mask;
}

static unsigned index_at(uint64_t va, unsigned level)
{
	return (unsigned)(va >> (12 + 9 * level)) & 511u;
}

/* The next-level table under entry @e, made if absent and @make; NULL
 * if absent (or a large page, or no memory). */
static uint64_t *next_table(struct pgtable *pt, uint64_t *e, bool make)
{
	uint64_t pa;

	if ((*e & PTE_P) == 0) {
		if (!make) {
			return NULL;
		}
		pa = pt->ops->alloc(pt->ops->ctx);
		if (pa == 0 || (pa & ~PTE_ADDR_MASK) != 0 ||
		    (pa & pt->enc_mask) != 0) {
			return NULL;
		}
		*e = pa | pt->enc_mask | TABLE_FLAGS;
	} else if ((*e & PTE_PS) != 0) {
		return NULL;
	}
	return pt->ops->table(pt->ops->ctx, entry_addr(pt, *e));
}

bool pt_init(struct pgtable *pt, const struct pt_ops *ops, uint64_t enc_mask)
{
	pt->ops = ops;
	pt->enc_mask = enc_mask;
	pt->root = ops->alloc(ops->ctx);
	return pt->root != 0 && (pt->root & ~PTE_ADDR_MASK) == 0 &&
	       (pt->root & enc_mask) == 0;
}

static uint64_t leaf_bits(const struct pgtable *pt, unsigned flags)
{
	uint64_t bits = PTE_P;

	if ((flags & PT_MAP_WRITE) != 0) {
		bits |= PTE_RW;
	}
	if ((flags & PT_MAP_EXEC) == 0) {
		bits |= PTE_NX;
	}
	if ((flags & PT_MAP_SHARED) == 0) {
		bits |= pt->enc_mask;
	}
	if ((flags & PT_MAP_UNCACHED) != 0) {
		bits |= PTE_PCD | PTE_PWT;
	}
	return bits;
}

/* One leaf at @va: a 2 MiB page if @large, else 4 KiB. */
static bool map_one(struct pgtable *pt, uint64_t va, uint64_t pa, bool large,
		    uint64_t bits)
{
	uint64_t *t = pt->ops->table(pt->ops->ctx, pt->root);
	unsigned level;

	for (level = 3; level > (large ? 1u : 0u); level--) {
		t = next_table(pt, &t[index_at(va, level)], true);
		if (t == NULL) {
			return false;
		}
	}
	if ((t[index_at(va, level)] & PTE_P) != 0) {
		return false;
	}
	t[index_at(va, level)] = pa | bits | (large ? PTE_PS : 0);
	return true;
}

bool pt_map(struct pgtable *pt, uint64_t va, uint64_t pa, uint64_t len,
	    unsigned flags)
{
	uint64_t bits = leaf_bits(pt, flags);
	uint64_t done = 0;

	if (((va | pa | len) & (PAGE - 1)) != 0 || va + len < va ||
	    va + len > LOWER_HALF_END || pa + len < pa ||
	    ((pa + len - 1) & ~PTE_ADDR_MASK & ~(PAGE - 1)) != 0 ||
	    ((pa + len - 1) & pt->enc_mask) != 0) {
		return false;
	}
	while (done < len) {
		uint64_t v = va + done, p = pa + done;
		bool large = (flags & PT_MAP_LARGE) != 0 &&
			     ((v | p) & (SPAN_2M - 1)) == 0 &&
			     len - done >= SPAN_2M;

		if (!map_one(pt, v, p, large, bits)) {
			return false;
		}
		done += large ? SPAN_2M : PAGE;
	}
	return true;
}

static uint64_t *walk(const struct pgtable *pt, uint64_t va, unsigned *level)
{
	uint64_t *t = pt->ops->table(pt->ops->ctx, pt->root);
	unsigned l;

	if (va >= LOWER_HALF_END) {
		return NULL;
	}
	for (l = 3;; l--) {
		uint64_t *e = &t[index_at(va, l)];

		if ((*e & PTE_P) == 0) {
			return NULL;
		}
		if (l == 0 || ((*e & PTE_PS) != 0 && l == 1)) {
			*level = l;
			return e;
		}
		if ((*e & PTE_PS) != 0) {
			return NULL; /* 1 GiB pages: never made here */
		}
		t = pt->ops->table(pt->ops->ctx, entry_addr(pt, *e));
	}
}

uint64_t *pt_leaf_4k(const struct pgtable *pt, uint64_t va)
{
	unsigned level = 0;
	uint64_t *e = walk(pt, va, &level);

	return e != NULL && level == 0 ? e : NULL;
}

bool pt_translate(const struct pgtable *pt, uint64_t va, uint64_t *pa,
		  uint64_t *pte)
{
	unsigned level = 0;
	uint64_t *e = walk(pt, va, &level);
	uint64_t span = level == 0 ? PAGE : SPAN_2M;

	if (e == NULL) {
		return false;
	}
	*pte = *e;
	*pa = (entry_addr(pt, *e) & ~(span - 1)) | (va & (span - 1));
	return true;
}
