/* SPDX-License-Identifier: MIT */
/*
 * The guest's physical memory, as the host's loader lays it out: RAM
 * from GPA 0, and a window of memory for every range an IGVM image puts
 * pages in or requires (IGVM_VHT_REQUIRED_MEMORY) beyond that RAM, such
 * as OVMF's volume ending at 4 GiB or an SVSM region high above RAM.
 * QEMU's IGVM loader makes such ranges RAM regions of their own; the
 * guest's memory map (e820, the IGVM memory map) lists only the RAM.
 * As q35 with max-ram-below-4g, RAM beyond that limit lies from 4 GiB
 * (where OVMF leaves it unaccepted and Linux accepts it lazily).
 */
#ifndef MACHINE_GUEST_MEM_H
#define MACHINE_GUEST_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "model/snpmodel.h"

#define GUEST_MEM_WINDOWS (RMP_MAX_BANKS - 2u)
#define GUEST_MEM_HIGH 0x100000000ull /* RAM above the limit: from 4 GiB */

struct guest_mem_plan {
	uint64_t ram;	   /* RAM: [0, ram) */
	uint64_t ram_high; /* RAM: [GUEST_MEM_HIGH, + ram_high) */
	struct rmp_bank window[GUEST_MEM_WINDOWS]; /* .index unused */
	unsigned windows;
};

/**
 * Plan the guest's memory for the IGVM image @img (@size bytes, checked
 * by the reader) in @total bytes of host memory (2 MiB multiple): the
 * windows the image needs above @total, at 2 MiB granularity, and RAM in
 * what is left, at most @max_low (2 MiB multiple) of it from 0 and the
 * rest from 4 GiB. NULL on success, else why the image cannot be loaded.
 */
const char *guest_mem_plan(const uint8_t *img, size_t size, uint64_t total,
			   uint64_t max_low, struct guest_mem_plan *plan);

#endif /* MACHINE_GUEST_MEM_H */
