/* SPDX-License-Identifier: MIT */
/*
 * Opaque address types. A guest-physical address is never a plain integer in
 * logic code: conversions go through these helpers only, so a GPA cannot be
 * dereferenced or confused with an SVSM virtual address by accident.
 */
#ifndef SVSM_ADDR_H
#define SVSM_ADDR_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/snp.h"

/** A guest-physical address. */
typedef struct {
	uint64_t gpa;
} gpa_t;

/** A guest page frame number (GPA >> 12). */
typedef struct {
	uint64_t pfn;
} pfn_t;

static inline gpa_t gpa_init(uint64_t v)
{
	return (gpa_t){.gpa = v};
}

static inline uint64_t gpa_val(gpa_t a)
{
	return a.gpa;
}

/* Callers must have range-checked the sum (see overflow.h). */
static inline gpa_t gpa_add(gpa_t a, uint64_t off)
{
	return gpa_init(a.gpa + off);
}

static inline bool gpa_is_aligned(gpa_t a, uint64_t align)
{
	return (a.gpa & (align - 1)) == 0;
}

static inline uint64_t gpa_page_offset(gpa_t a)
{
	return a.gpa & (SNP_PAGE_SIZE - 1);
}

static inline gpa_t gpa_page_base(gpa_t a)
{
	return gpa_init(a.gpa & ~(SNP_PAGE_SIZE - 1));
}

static inline bool gpa_eq(gpa_t a, gpa_t b)
{
	return a.gpa == b.gpa;
}

static inline pfn_t gpa_to_pfn(gpa_t a)
{
	return (pfn_t){.pfn = a.gpa >> 12};
}

static inline gpa_t pfn_to_gpa(pfn_t p)
{
	return gpa_init(p.pfn << 12);
}

static inline uint64_t pfn_val(pfn_t p)
{
	return p.pfn;
}

/** Page sizes as the RMP instructions encode them. */
enum page_size {
	PAGE_4K = RMP_PG_SIZE_4K,
	PAGE_2M = RMP_PG_SIZE_2M,
};

static inline uint64_t page_size_bytes(enum page_size s)
{
	return s == PAGE_2M ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;
}

#endif /* SVSM_ADDR_H */
