/* SPDX-License-Identifier: MIT */
/*
 * The machine's memory: a bump allocator over its heap (what it sets up
 * once: VMCBs, stacks, the RMP, nested tables, the IGVM file). The host
 * view of the guest's RAM is the RMP's (guest_ptr(), hw/rmp.c).
 */
#include "svsm/std.h"

#include "layout.h"
#include "machine.h"

static uint64_t heap_next, heap_end;
uint64_t guest_ram_size;
uint64_t guest_ram_high;
static struct spinlock mm_lock;

void mm_init(uint64_t base, uint64_t end)
{
	heap_next = ALIGN_UP(base, PAGE);
	heap_end = end;
}

void *mm_alloc_pages(uint64_t count)
{
	uint64_t p;

	spin_lock(&mm_lock);
	if (count > (heap_end - heap_next) / PAGE) {
		machine_panic("out of machine memory (%llu pages wanted)",
			      (unsigned long long)count);
	}
	p = heap_next;
	heap_next += count * PAGE;
	spin_unlock(&mm_lock);
	memset((void *)p, 0, count * PAGE);
	return (void *)p;
}
