/* SPDX-License-Identifier: MIT */
/*
 * Who owns lent pages (svsm/deposit.h): one bit per guest page, set while
 * deposited. The pages themselves, and the heap's use of them, are the
 * lent pool's (src/mem/lent.c), which this calls down to.
 */
#include "svsm/deposit.h"

#include "svsm/check.h"
#include "svsm/lent.h"
#include "svsm/mem.h"
#include "svsm/overflow.h"
#include "svsm/spinlock.h"
#include "svsm/std.h"

/* One bit per guest 4 KiB page below ram_top: set while deposited. */
static uint64_t *owned_bits;
static uint64_t owned_pages;
static uint64_t deposited_pages;
static struct spinlock deposit_lock;

void deposit_reset(void)
{
	lent_reset();
	owned_bits = NULL;
	owned_pages = 0;
	deposited_pages = 0;
	spin_init(&deposit_lock);
}

enum svsm_err deposit_init(uint64_t ram_top)
{
	uint64_t bytes;
	unsigned order = 0;

	deposit_reset();
	owned_pages = ram_top / SNP_PAGE_SIZE;
	bytes = ALIGN_UP(ALIGN_UP(owned_pages, 64u) / 8u, SNP_PAGE_SIZE);
	while (((uint64_t)BUDDY_PAGE_SIZE << order) < bytes) {
		order++;
	}
	owned_bits = page_alloc(order);
	return owned_bits != NULL ? SVSM_OK : SVSM_E_NOMEM;
}

static bool bit_test(uint64_t pfn)
{
	return (owned_bits[pfn / 64] >> (pfn % 64)) & 1u;
}

static void bits_assign(uint64_t pfn, uint64_t count, bool set)
{
	uint64_t i;

	for (i = pfn; i < pfn + count; i++) {
		if (set) {
			owned_bits[i / 64] |= 1ull << (i % 64);
		} else {
			owned_bits[i / 64] &= ~(1ull << (i % 64));
		}
	}
}

bool deposit_overlaps(gpa_t gpa, uint64_t len)
{
	uint64_t first = gpa_val(gpa) / SNP_PAGE_SIZE;
	uint64_t end;
	uint64_t last;
	uint64_t pfn;

	if (deposited_pages == 0 || len == 0 ||
	    !add_ok_u64(gpa_val(gpa), len - 1, &end)) {
		return false;
	}
	last = end / SNP_PAGE_SIZE;
	for (pfn = first; pfn <= last && pfn < owned_pages; pfn++) {
		if (bit_test(pfn)) {
			return true;
		}
	}
	return false;
}

enum svsm_err deposit_add(gpa_t gpa, enum page_size size)
{
	uint64_t count = page_size_bytes(size) / SNP_PAGE_SIZE;
	uint64_t pfn = pfn_val(gpa_to_pfn(gpa));
	enum svsm_err err;

	CHECK(pfn + count <= owned_pages);
	err = lent_add(gpa, size);
	if (err != SVSM_OK) {
		return err;
	}
	spin_lock(&deposit_lock);
	bits_assign(pfn, count, true);
	deposited_pages += count;
	spin_unlock(&deposit_lock);
	return SVSM_OK;
}

bool deposit_take_free(gpa_t *gpa, enum page_size *size)
{
	uint64_t count;

	if (!lent_take_free(gpa, size)) {
		return false;
	}
	count = page_size_bytes(*size) / SNP_PAGE_SIZE;
	spin_lock(&deposit_lock);
	bits_assign(pfn_val(gpa_to_pfn(*gpa)), count, false);
	deposited_pages -= count;
	spin_unlock(&deposit_lock);
	return true;
}

bool deposit_has_free(void)
{
	return lent_has_free();
}
