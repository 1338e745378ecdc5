/* SPDX-License-Identifier: MIT */
/*
 * The guest's own page tables, walked in software: QEMU provides no
 * next-RIP and no decode assists, so the SVSM reads instruction bytes at
 * the guest's RIP (a virtual address), and RMPADJUST takes a virtual
 * address in RAX. Threat T12: the tables are guest memory, so every entry is
 * read through guestmem (guest-owned, validated pages only) and a table
 * pointing into the SVSM region yields a failed walk, not SVSM bytes.
 */
#ifndef EMU_GUEST_WALK_H
#define EMU_GUEST_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/snp.h"

/** Translate @va with the paging state in @vmsa (4-level long mode). */
bool guest_va_to_gpa(const struct snp_vmsa *vmsa, uint64_t va, uint64_t *gpa);
/** Copy @len (at most 15) instruction bytes at @va. */
bool guest_fetch(const struct snp_vmsa *vmsa, uint64_t va, uint8_t *buf,
		 size_t len);

#endif /* EMU_GUEST_WALK_H */
