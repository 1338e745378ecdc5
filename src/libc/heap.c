/* SPDX-License-Identifier: MIT */
/*
 * malloc() and friends for the linked libraries, on the SVSM's own
 * allocators (svsm/mem.h): blocks up to SLAB_MAX_SIZE from the slab
 * caches, larger ones as 2^order pages from the buddy zone. Everything is
 * SVSM-private memory and comes back zeroed.
 *
 * Each block starts with a 16-byte header (so the caller's pointer stays
 * 16-byte aligned, as the SysV ABI promises malloc's callers) holding the
 * requested size and a magic. free() and realloc() check the magic and
 * clear it: a double free or a pointer malloc() never returned is a broken
 * invariant of the linked code, and panics rather than corrupting the heap.
 */
#include <stddef.h>
#include <stdint.h>

#include "svsm/mem.h"
#include "svsm/slab.h"

#include "libc_internal.h"

void *malloc(size_t n);
void *calloc(size_t count, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);

#define HEAP_MAGIC 0x6373766d68656170ull /* "csvmheap" */
#define HEAP_FREED 0x6672656564626c6bull /* "freedblk" */
/* Larger requests than any buddy block are refused. */
#define HEAP_MAX ((size_t)BUDDY_PAGE_SIZE << BUDDY_MAX_ORDER)

struct heap_header {
	uint64_t size; /* the caller's size */
	uint64_t magic;
};

_Static_assert(sizeof(struct heap_header) == 16, "keeps 16-byte alignment");

static unsigned order_for(size_t bytes)
{
	unsigned order = 0;

	while (((size_t)BUDDY_PAGE_SIZE << order) < bytes) {
		order++;
	}
	return order;
}

void *malloc(size_t n)
{
	struct heap_header *h;
	size_t bytes;

	if (n == 0) {
		n = 1; /* a unique pointer, as glibc gives */
	}
	if (n > HEAP_MAX - sizeof(*h)) {
		libc_set_errno(LIBC_ENOMEM);
		return NULL;
	}
	bytes = n + sizeof(*h);
	h = bytes <= SLAB_MAX_SIZE ? obj_alloc(bytes)
				   : page_alloc(order_for(bytes));
	if (h == NULL) {
		libc_set_errno(LIBC_ENOMEM);
		return NULL;
	}
	if (((uintptr_t)h & 15u) != 0) {
		libc_hook_fatal("malloc",
				"allocator returned a misaligned block");
	}
	h->size = n;
	h->magic = HEAP_MAGIC;
	return h + 1;
}

static struct heap_header *header_of(void *p, const char *who)
{
	struct heap_header *h = (struct heap_header *)p - 1;

	if (((uintptr_t)p & 15u) != 0 || h->magic != HEAP_MAGIC) {
		libc_hook_fatal(who,
				h->magic == HEAP_FREED
					? "block freed twice"
					: "pointer malloc() did not return");
	}
	return h;
}

void free(void *p)
{
	struct heap_header *h;
	size_t bytes;

	if (p == NULL) {
		return;
	}
	h = header_of(p, "free");
	bytes = h->size + sizeof(*h);
	h->magic = HEAP_FREED;
	if (bytes <= SLAB_MAX_SIZE) {
		obj_free(h);
	} else {
		page_free(h);
	}
}

void *calloc(size_t count, size_t size)
{
	size_t n;

	if (__builtin_mul_overflow(count, size, &n)) {
		libc_set_errno(LIBC_ENOMEM);
		return NULL;
	}
	return malloc(n); /* the SVSM's allocators hand out zeroed memory */
}

void *realloc(void *p, size_t n)
{
	struct heap_header *h;
	void *q;

	if (p == NULL) {
		return malloc(n);
	}
	h = header_of(p, "realloc");
	if (n <= h->size && n != 0) {
		return p; /* shrinking keeps the block (and its size field) */
	}
	q = malloc(n);
	if (q == NULL) {
		return NULL; /* C: the old block stays valid */
	}
	__builtin_memcpy(q, p, h->size < n ? h->size : n);
	free(p);
	return q;
}
