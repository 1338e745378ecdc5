/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's own page tables, replacing the boot tables once the heap
 * exists. W^X (threat T13): the image's code is read-only and executable,
 * everything else (its data, the heap, all guest RAM, MMIO) is not executable,
 * so an SVSM bug that jumps into guest memory faults instead of running guest
 * bytes. Low memory keeps execute for the AP trampoline. Identity-mapped.
 */
#ifndef EMU_PAGING_H
#define EMU_PAGING_H

#include <stdint.h>

/** Build the tables, switch this CPU to them; returns their CR3. */
uint64_t paging_init(void);

#endif /* EMU_PAGING_H */
