/* SPDX-License-Identifier: MIT */
/*
 * The seam's per-CPU operations on hardware (snp_hw.h): which struct
 * snp_cpu the calling CPU is, through its FS block (fw_cpu.h), and what
 * an AP's entry code needs before any C runs. It calls nothing of the
 * platform above the seam: its pages come from the heap directly.
 */
#include "svsm/mem.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "../snp_hw.h"
#include "fw_cpu.h"

#define PAGE SNP_PAGE_SIZE

/* 2^@order zeroed heap pages for AP @i; no memory terminates. */
static void *ap_pages(unsigned order, unsigned i)
{
	void *p = page_alloc(order);

	if (p == NULL) {
		SNP_TERMINATE_HV(TERM_CSVSM_NO_MEMORY,
				 "snp: no memory for AP %u", i);
	}
	memset(p, 0, (size_t)PAGE << order);
	return p;
}

struct snp_cpu *snp_hw_this_cpu(void)
{
	return snp_fs_block()->cpu;
}

void snp_hw_set_cpu(struct snp_cpu *c)
{
	snp_fs_block()->cpu = c;
}

void snp_hw_ap_prepare(struct snp_cpu *c, struct snp_vmsa *v)
{
	struct snp_fw_cpu *fw = ap_pages(0, c->index);
	unsigned i;

	_Static_assert(sizeof(*fw) <= PAGE, "one page");
	fw->fs.cpu = c;
	for (i = 0; i < X86_IST_COUNT; i++) {
		fw->ist_tops[i] =
			(uint8_t *)ap_pages(SNP_FW_IST_ORDER, c->index) +
			(PAGE << SNP_FW_IST_ORDER);
	}
	v->rsp = (uint64_t)ap_pages(SNP_FW_STACK_ORDER, c->index) +
		 (PAGE << SNP_FW_STACK_ORDER);
	v->rdi = (uint64_t)fw;
}
