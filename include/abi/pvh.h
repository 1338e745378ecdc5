/* SPDX-License-Identifier: MIT */
/*
 * The PVH boot ABI (Xen's public arch-x86/hvm/start_info.h, version 1):
 * what a PVH loader (QEMU's -kernel for a PVH ELF note) hands the kernel
 * in EBX, the physical address of a struct pvh_start_info, and its memory
 * map. The emulated machine boots so.
 */
#ifndef ABI_PVH_H
#define ABI_PVH_H

#include <stdint.h>

#define PVH_START_MAGIC 0x336EC578u /* XEN_HVM_START_MAGIC_VALUE */
#define PVH_MEMMAP_RAM 1u	    /* an entry's type: E820's RAM */

struct pvh_start_info {
	uint32_t magic, version, flags, nr_modules;
	uint64_t modlist_paddr, cmdline_paddr, rsdp_paddr;
	uint64_t memmap_paddr; /* version 1: struct pvh_memmap_entry[] */
	uint32_t memmap_entries, reserved;
};
_Static_assert(sizeof(struct pvh_start_info) == 56, "start_info.h");

struct pvh_memmap_entry {
	uint64_t addr, size;
	uint32_t type, reserved;
};
_Static_assert(sizeof(struct pvh_memmap_entry) == 24, "start_info.h");

#endif /* ABI_PVH_H */
