/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's own application processors on snp. For each AP the boot CPU
 * takes from the heap its struct snp_cpu, its GHCB and #HV doorbell pages
 * (still private: the AP shares and registers them itself, as only it
 * can register its GHCB) and a VMPL0 VMSA (svsm/svsm_vmsa.h) on the
 * SVSM's page tables. The VMSA is marked a VMSA with RMPADJUST (so no
 * lower VMPL can touch it and the hypervisor can run it) and the
 * hypervisor is asked to create the vCPU (NAE 0x8000_0013). The AP's
 * entry code (hw/entry.S) finds its struct snp_cpu through RDI.
 */
#include "svsm/check.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/page_state.h"
#include "svsm/std.h"
#include "svsm/svsm_vmsa.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "snp_hw.h"
#include "snp_main.h"

#define CPU_ORDER 1u /* struct snp_cpu: two pages (a GHCB reply copy) */

_Static_assert(sizeof(struct snp_cpu) <= (4096u << CPU_ORDER), "CPU_ORDER");

/* 2^@order zeroed heap pages for AP @i (its struct snp_cpu, VMSA, GHCB
 * and doorbell pages); no memory terminates. */
static void *snp_ap_page(unsigned order, unsigned i)
{
	void *p = page_alloc(order);

	if (p == NULL) {
		SNP_TERMINATE_HV(TERM_CSVSM_NO_MEMORY,
				 "snp: no memory for AP %u", i);
	}
	memset(p, 0, (size_t)4096 << order);
	return p;
}

void snp_start_aps(struct ghcb_cpu *g, const uint32_t *apic_ids, unsigned count,
		   uint64_t entry_rip, uint64_t cr3)
{
	unsigned i;

	for (i = 1; i < count; i++) {
		struct snp_cpu *c = snp_ap_page(CPU_ORDER, i);
		struct snp_vmsa *v = snp_ap_page(0, i);
		struct svsm_vmsa_regs regs = {.rip = entry_rip, .cr3 = cr3};
		gpa_t gpa;

		c->index = i;
		c->apic_id = apic_ids[i];
		c->ghcb_gpa = page_to_gpa(snp_ap_page(0, i));
		c->doorbell_gpa = page_to_gpa(snp_ap_page(0, i));
		svsm_vmsa_init(v, &regs);
		snp_hw_ap_prepare(c, v);
		gpa = page_to_gpa(v);
		/* SVSM heap memory, validated and VMPL0-only: setting the
		 * VMSA bit cannot fail unless an invariant broke. */
		CHECK(page_make_vmsa(gpa, 0) == SNP_RET_SUCCESS);
		ghcb_ap_create(g, apic_ids[i], gpa, 0, SVSM_VMSA_SEV_FEATURES);
	}
}
