/* SPDX-License-Identifier: MIT */
/*
 * The snp platform's operations for the SVSM's own devices (svsm/plat.h,
 * src/dev/): MMIO through the calling CPU's GHCB (ghcb_mmio.c), and
 * shared pages for their DMA taken from the heap and converted as the
 * GHCB pages are (snp_make_shared: validation rescinded, then the
 * hypervisor's page-state change). One file for hardware and the
 * simulator (libcsvsm_sim_snp.a), as plat_snp.c.
 */
#include "svsm/check.h"
#include "svsm/mem.h"
#include "svsm/plat.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "ghcb.h"
#include "snp_cpu.h"
#include "snp_hw.h"

bool plat_mmio_read(gpa_t gpa, unsigned size, uint32_t *val)
{
	return ghcb_mmio_read(snp_this_ghcb(), gpa, size, val);
}

bool plat_mmio_write(gpa_t gpa, unsigned size, uint32_t val)
{
	return ghcb_mmio_write(snp_this_ghcb(), gpa, size, val);
}

void *plat_shared_alloc(unsigned order, gpa_t *gpa)
{
	unsigned pages = 1u << order, i;
	void *p;
	uint8_t *va;

	/* Order 0 may be a page the guest lent, outside the SVSM region:
	 * only the region is ever mapped shared (snp_hw_map_shared). */
	CHECK(order >= 1 && order < 16);
	p = page_alloc(order);
	if (p == NULL) {
		return NULL;
	}
	*gpa = page_to_gpa(p);
	snp_make_shared(snp_this_ghcb(), *gpa, pages);
	va = snp_hw_map_shared(*gpa);
	for (i = 0; va != NULL && i < pages; i++) {
		/* The region's mapping is linear: each page where the
		 * first one says. */
		if (snp_hw_map_shared(
			    gpa_add(*gpa, (uint64_t)i * SNP_PAGE_SIZE)) !=
		    va + (size_t)i * SNP_PAGE_SIZE) {
			va = NULL;
		}
	}
	if (va == NULL) {
		SNP_TERMINATE_HV(TERM_CSVSM_PSC_FAILED,
				 "snp: device pages at 0x%llx not mappable as"
				 " shared",
				 (unsigned long long)gpa_val(*gpa));
	}
	/* Shared now: whatever the host put there is not the SVSM's. */
	memset(va, 0, (size_t)SNP_PAGE_SIZE << order);
	return va;
}
