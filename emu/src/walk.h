/* SPDX-License-Identifier: MIT */
/*
 * The hardware's own accesses to a vCPU's memory through its page tables:
 * fetching the instruction at RIP (QEMU gives no decode assist), the
 * linear address operand of RMPADJUST and PVALIDATE, and the IDT, TSS and
 * stack of a #VC the machine delivers. Each access is what the CPU would
 * make at the vCPU's VMPL: a page-table entry or data page with the C-bit
 * set is a private access (assigned, validated, that VMPL's rights), one
 * with it clear a shared access (hypervisor-owned pages only). The tables
 * are guest memory, hostile to the machine: a walk that leaves guest RAM
 * or meets a refused page fails, it never reads machine memory.
 */
#ifndef MACHINE_WALK_H
#define MACHINE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/snp.h"

/** @va to a guest physical address, C-bit included. */
bool gw_translate(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
		  uint64_t *gpa);
bool gw_read(const struct snp_vmsa *v, unsigned vmpl, uint64_t va, void *buf,
	     size_t len, bool fetch);
/**
 * The post-mortem's view of @va's walk (postmortem.h): each level's entry
 * as the walk read it, the top level first, into @entry (up to 5); the
 * number read. Reads only; never fails loudly.
 */
unsigned gw_trace(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
		  uint64_t entry[5]);
bool gw_write(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
	      const void *buf, size_t len);

#endif /* MACHINE_WALK_H */
