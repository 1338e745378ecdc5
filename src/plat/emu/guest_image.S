/* SPDX-License-Identifier: MIT */
/* The guest the SVSM launches at VMPL1: a flat image linked at
 * EMU_GUEST_LOAD, built in the tree (EMU_GUEST_BIN is its path). */
	.section .rodata
	.balign 4096
	.global emu_guest_image, emu_guest_image_end
emu_guest_image:
	.incbin EMU_GUEST_BIN
emu_guest_image_end:

	.section .note.GNU-stack, "", @progbits
