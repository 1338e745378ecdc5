/* SPDX-License-Identifier: MIT */
#include "svsm/deposit.h"

#include "svsm/check.h"
#include "svsm/mem.h"
#include "svsm/overflow.h"
#include "svsm/plat.h"
#include "svsm/spinlock.h"
#include "svsm/std.h"

struct deposit_block {
	gpa_t gpa;
	enum page_size size;
	void *va; /* non-NULL while the heap uses the page */
	struct deposit_block *next;
};

/*
 * Records for the first deposits live in the SVSM image, not the heap: the
 * guest deposits exactly when the heap is exhausted (the SVSM asked with
 * 0x4000_0000 + N), and those pages then feed the heap for what follows.
 */
#define DEPOSIT_RESERVE 64u
static struct deposit_block reserve[DEPOSIT_RESERVE];
static struct deposit_block *reserve_free;

/* One bit per guest 4 KiB page below ram_top: set while deposited. */
static uint64_t *owned_bits;
static uint64_t owned_pages;
static struct deposit_block *blocks;
static uint64_t deposited_pages;
static struct spinlock deposit_lock;

void deposit_reset(void)
{
	unsigned i;

	reserve_free = NULL;
	for (i = 0; i < DEPOSIT_RESERVE; i++) {
		reserve[i].next = reserve_free;
		reserve_free = &reserve[i];
	}
	owned_bits = NULL;
	owned_pages = 0;
	blocks = NULL;
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

static bool record_is_reserved(const struct deposit_block *b)
{
	return b >= &reserve[0] && b < &reserve[DEPOSIT_RESERVE];
}

/* A record from the reserve, else from the heap (never under the lock). */
static struct deposit_block *record_alloc(void)
{
	struct deposit_block *b;

	spin_lock(&deposit_lock);
	b = reserve_free;
	if (b != NULL) {
		reserve_free = b->next;
	}
	spin_unlock(&deposit_lock);
	if (b == NULL) {
		b = obj_alloc(sizeof(*b));
	}
	if (b != NULL) {
		memset(b, 0, sizeof(*b));
	}
	return b;
}

static void record_free(struct deposit_block *b)
{
	if (b == NULL) {
		return;
	}
	if (!record_is_reserved(b)) {
		obj_free(b);
		return;
	}
	spin_lock(&deposit_lock);
	b->next = reserve_free;
	reserve_free = b;
	spin_unlock(&deposit_lock);
}

enum svsm_err deposit_add(gpa_t gpa, enum page_size size)
{
	struct deposit_block *b = record_alloc();
	uint64_t count = page_size_bytes(size) / SNP_PAGE_SIZE;
	uint64_t pfn = pfn_val(gpa_to_pfn(gpa));

	if (b == NULL) {
		return SVSM_E_NOMEM;
	}
	CHECK(pfn + count <= owned_pages);
	b->gpa = gpa;
	b->size = size;
	spin_lock(&deposit_lock);
	bits_assign(pfn, count, true);
	b->next = blocks;
	blocks = b;
	deposited_pages += count;
	spin_unlock(&deposit_lock);
	return SVSM_OK;
}

bool deposit_take_free(gpa_t *gpa, enum page_size *size)
{
	struct deposit_block **pp;
	struct deposit_block *b = NULL;
	bool found;

	spin_lock(&deposit_lock);
	for (pp = &blocks; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->va == NULL) {
			b = *pp;
			*pp = b->next;
			break;
		}
	}
	if (b != NULL) {
		uint64_t count = page_size_bytes(b->size) / SNP_PAGE_SIZE;

		bits_assign(pfn_val(gpa_to_pfn(b->gpa)), count, false);
		deposited_pages -= count;
		*gpa = b->gpa;
		*size = b->size;
	}
	spin_unlock(&deposit_lock);
	found = b != NULL;
	record_free(b);
	return found;
}

bool deposit_has_free(void)
{
	struct deposit_block *b;
	bool found = false;

	spin_lock(&deposit_lock);
	for (b = blocks; b != NULL && !found; b = b->next) {
		found = b->va == NULL;
	}
	spin_unlock(&deposit_lock);
	return found;
}

void *deposit_alloc_page(void)
{
	struct deposit_block *b;
	void *va = NULL;

	spin_lock(&deposit_lock);
	for (b = blocks; b != NULL; b = b->next) {
		if (b->va == NULL && b->size == PAGE_4K) {
			b->va = plat_map_private(b->gpa, SNP_PAGE_SIZE);
			va = b->va;
			break;
		}
	}
	spin_unlock(&deposit_lock);
	return va;
}

/* The block the heap holds at @va; the caller holds deposit_lock. Only the
 * SVSM's own pointers come here, so a miss is an SVSM bug. */
static struct deposit_block *deposit_find_va(const void *va)
{
	struct deposit_block *b;

	for (b = blocks; b != NULL && b->va != va; b = b->next) {
	}
	CHECK(b != NULL);
	return b;
}

void deposit_free_page(void *va)
{
	struct deposit_block *b;

	spin_lock(&deposit_lock);
	b = deposit_find_va(va);
	b->va = NULL;
	spin_unlock(&deposit_lock);
	plat_unmap_private(va, SNP_PAGE_SIZE);
}

gpa_t deposit_page_gpa(const void *va)
{
	gpa_t gpa;

	spin_lock(&deposit_lock);
	gpa = deposit_find_va(va)->gpa;
	spin_unlock(&deposit_lock);
	return gpa;
}
