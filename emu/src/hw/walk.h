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

/*
 * An instruction's own access to its operand, checked as the CPU checks
 * one (APM vol. 2, 5.6): present at every level; a user access (CPL 3)
 * needs U/S at every level; a write needs R/W at every level at CPL 3,
 * and at CPL 0 with CR0.WP; a supervisor access to a user page faults
 * with CR4.SMAP unless RFLAGS.AC. The walk sets each entry's accessed
 * bit and a written page's dirty bit, as the CPU does. Every page is
 * checked before a byte moves: a fault writes nothing.
 */
#define GW_WRITE 1u

enum gw_result {
	GW_OK,
	GW_PF,	    /* the guest's tables refuse: #PF, as *f says */
	GW_REFUSED, /* the RMP or the machine refuses: no guest fault */
};

struct gw_fault {
	uint64_t addr;	/* CR2 */
	uint32_t error; /* the #PF error code */
};

/** Read @len bytes at @va into @buf; with GW_WRITE in @how, checked as
 * the write of an instruction that reads its operand first. */
enum gw_result gw_operand_read(const struct snp_vmsa *v, unsigned vmpl,
			       uint64_t va, void *buf, size_t len, unsigned how,
			       struct gw_fault *f);
/** Write @len bytes of @buf at @va. */
enum gw_result gw_operand_write(const struct snp_vmsa *v, unsigned vmpl,
				uint64_t va, const void *buf, size_t len,
				struct gw_fault *f);

#endif /* MACHINE_WALK_H */
