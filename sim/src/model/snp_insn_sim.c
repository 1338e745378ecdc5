/* SPDX-License-Identifier: MIT */
/*
 * The CPU's half of the snp platform's seam (snp_hw.h) in the simulator,
 * linked with the snp platform's code into both libraries and run where
 * the snp platform runs (libcsvsm_sim_snp.a, whose plat_snp.c answers
 * svsm/plat.h; snp_linked.c says so): PVALIDATE and RMPADJUST on the RMP
 * model at VMPL0, and private accesses to guest memory that fail, as the
 * fault-tolerant copies of hw/insn.S do on a #VC, when the page is not
 * validated or not the guest's. The hypervisor's half is ghcb_hv.c.
 */
#include <string.h>

#include "svsm/check.h"

#include "../../../src/plat/snp/snp_hw.h"
#include "sim_machine.h"

static struct sim_machine *cpu(void)
{
	return sim_live();
}

enum snp_ret snp_hw_pvalidate(gpa_t gpa, bool size_2m, bool validate,
			      bool *unchanged)
{
	struct sim_machine *m = cpu();

	m->stats.snp_pvalidates++;
	return sim_cpu_pvalidate(m, gpa_val(gpa), size_2m, validate, unchanged);
}

enum snp_ret snp_hw_rmpadjust(gpa_t gpa, bool size_2m, uint64_t attrs)
{
	return sim_cpu_rmpadjust(cpu(), gpa_val(gpa), size_2m, attrs);
}

/* The range is RAM (the identity map covers nothing else) and every page
 * of it validated and the guest's (else #VC or #NPF: the copy fails). */
static uint8_t *guest(struct sim_machine *m, gpa_t gpa, size_t len)
{
	uint64_t g = gpa_val(gpa);

	if (g >= m->cfg.guest_mem_size || len > m->cfg.guest_mem_size - g ||
	    !sim_cpu_can_access(m, g, len)) {
		return NULL;
	}
	return m->mem + g;
}

bool snp_hw_guest_read(gpa_t gpa, void *dst, size_t len)
{
	const uint8_t *p = guest(cpu(), gpa, len);

	if (p == NULL) {
		return false;
	}
	memcpy(dst, p, len);
	return true;
}

bool snp_hw_guest_write(gpa_t gpa, const void *src, size_t len)
{
	uint8_t *p = guest(cpu(), gpa, len);

	if (p == NULL) {
		return false;
	}
	memcpy(p, src, len);
	return true;
}

bool snp_hw_guest_zero(gpa_t gpa, size_t len)
{
	uint8_t *p = guest(cpu(), gpa, len);

	if (p == NULL) {
		return false;
	}
	memset(p, 0, len);
	return true;
}

bool snp_hw_guest_xchg8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	uint8_t *p = guest(cpu(), gpa, 1);

	if (p == NULL) {
		return false;
	}
	*old = __atomic_exchange_n(p, val, __ATOMIC_SEQ_CST);
	return true;
}

void *snp_hw_map_private(gpa_t gpa, size_t len)
{
	struct sim_machine *m = cpu();

	/* Callers own the range: anything else is an SVSM bug. */
	CHECK(gpa_val(gpa) < m->cfg.guest_mem_size &&
	      len <= m->cfg.guest_mem_size - gpa_val(gpa));
	return m->mem + gpa_val(gpa);
}

void snp_hw_flush_tlb(void)
{
	cpu()->stats.tlb_flushes++;
}

void snp_hw_library_call(void)
{
	sim_cpu_library_call(sim_current());
}
