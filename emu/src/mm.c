/* SPDX-License-Identifier: MIT */
/*
 * The machine's memory: a bump allocator over its heap (what it sets up
 * once: VMCBs, stacks, the RMP, nested tables, the IGVM file), and the
 * host view of the guest's RAM.
 */
#include "svsm/std.h"

#include "layout.h"
#include "machine.h"
#include "rmp.h"

static uint64_t heap_next, heap_end;
uint64_t guest_ram_size;
uint64_t guest_ram_high;
static struct mlock mm_lock;

void mm_init(uint64_t base, uint64_t end)
{
	heap_next = ALIGN_UP(base, PAGE);
	heap_end = end;
}

void *mm_alloc_pages(uint64_t count)
{
	uint64_t p;

	mlock_take(&mm_lock);
	if (count > (heap_end - heap_next) / PAGE) {
		machine_panic("out of machine memory (%llu pages wanted)",
			      (unsigned long long)count);
	}
	p = heap_next;
	heap_next += count * PAGE;
	mlock_drop(&mm_lock);
	memset((void *)p, 0, count * PAGE);
	return (void *)p;
}

void *guest_ptr(uint64_t gpa, uint64_t len)
{
	uint64_t index;

	gpa &= ~MACHINE_C_MASK;
	if (!rmp_backed(&machine_rmp, gpa, len) ||
	    !rmp_index(&machine_rmp, gpa, &index)) {
		return NULL;
	}
	/* A bank's pages are consecutive in the RMP and in host memory. */
	return (void *)(MACHINE_GUEST_BASE + index * PAGE + gpa % PAGE);
}
