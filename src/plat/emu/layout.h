/* SPDX-License-Identifier: MIT */
/*
 * Physical layout of the emu machine (QEMU q35, RAM from 0). Shared by the
 * firmware and the test guest, which is linked at EMU_GUEST_LOAD.
 *
 *   0 .. 2 MiB        low memory: AP start-up trampoline; never guest RAM
 *   2 MiB .. 32 MiB   the SVSM region: image, software RMP, NPT, heap
 *   32 MiB .. 34 MiB  the guest's launch region: measured and validated
 *                     at launch with VMPL1 access (image, page tables,
 *                     secrets page, first Calling Area)
 *   34 MiB .. top     guest RAM, assigned to the guest, not validated
 */
#ifndef EMU_LAYOUT_H
#define EMU_LAYOUT_H

#define EMU_TRAMPOLINE 0x7000
#define EMU_SVSM_BASE 0x200000
#define EMU_SVSM_END 0x2000000
#define EMU_GUEST_LOAD 0x2000000
#define EMU_GUEST_LAUNCH_END 0x2200000
/* Inside the launch region, above the guest image (at most 1 MiB). */
#define EMU_GUEST_PT 0x2100000	    /* 6 pages: PML4, PDPT, 4 PDs */
#define EMU_GUEST_SECRETS 0x21FE000 /* the guest's copy of the secrets */
#define EMU_GUEST_CAA 0x21FF000	    /* the boot vCPU's first CA */
#define EMU_GUEST_IMAGE_MAX 0x100000
/* RAM above 4 GiB is not used: the SVSM maps only the low 4 GiB. */
#define EMU_RAM_LIMIT 0xE0000000ull

/* isa-debug-exit (iobase 0xf4): QEMU exits with (value << 1) | 1. */
#define EMU_EXIT_PORT 0xF4
#define EMU_EXIT_GUEST_PASS 0x10 /* status 33 */
#define EMU_EXIT_GUEST_FAIL 0x11 /* status 35 */
#define EMU_EXIT_GUEST_TERM 0x12 /* status 37: the guest asked to stop */
#define EMU_EXIT_SVSM_TERM 0x7E	 /* status 253: the SVSM terminated */
#define EMU_EXIT_SVSM_PANIC 0x7F /* status 255 */

#endif /* EMU_LAYOUT_H */
