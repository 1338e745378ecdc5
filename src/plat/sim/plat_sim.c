/* SPDX-License-Identifier: MIT */
/*
 * The sim platform (libcsvsm_sim.a): the SVSM runs as ordinary hosted
 * code; "hardware" is the RMP model and guest memory of the live struct
 * sim_machine (sim/src/model/cpu.c). Accesses the SVSM makes at VMPL0 are
 * checked against the RMP as the CPU would, so an SVSM bug that touches
 * an unvalidated page shows as a fault here too. Its console, guest
 * requests and termination need no hypervisor protocol; the snp
 * platform's go through the GHCB (plat_snp.c, libcsvsm_sim_snp.a).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/check.h"
#include "svsm/mem.h"
#include "svsm/plat.h"
#include "svsm/terminate.h"

#include "../../../sim/src/model/sim_machine.h"

static struct sim_machine *machine(void)
{
	struct sim_machine *m = sim_current();

	if (m == NULL) {
		abort(); /* SVSM code ran without a machine: a harness bug */
	}
	return m;
}

enum snp_ret plat_pvalidate(gpa_t gpa, enum page_size size, bool validate,
			    bool *unchanged)
{
	return sim_cpu_pvalidate(machine(), gpa_val(gpa), size == PAGE_2M,
				 validate, unchanged);
}

enum snp_ret plat_rmpadjust(gpa_t gpa, enum page_size size, uint64_t attrs)
{
	return sim_cpu_rmpadjust(machine(), gpa_val(gpa), size == PAGE_2M,
				 attrs);
}

/* The vCPU whose VMPL0 entry runs (nested entries included); the boot
 * CPU outside entries. */
const void *plat_cpu_self(void)
{
	return &machine()->vcpu[machine()->entry_cpu];
}

void plat_flush_guest_tlb(void)
{
	machine()->stats.tlb_flushes++;
}

/* VMPL0 may access any validated guest-owned page. */
static bool vmpl0_can_access(struct sim_machine *m, gpa_t gpa, size_t len)
{
	return sim_cpu_can_access(m, gpa_val(gpa), len);
}

bool plat_guest_read(gpa_t gpa, void *dst, size_t len)
{
	struct sim_machine *m = machine();

	if (!vmpl0_can_access(m, gpa, len)) {
		return false;
	}
	memcpy(dst, m->mem + gpa_val(gpa), len);
	return true;
}

bool plat_guest_write(gpa_t gpa, const void *src, size_t len)
{
	struct sim_machine *m = machine();

	if (!vmpl0_can_access(m, gpa, len)) {
		return false;
	}
	memcpy(m->mem + gpa_val(gpa), src, len);
	return true;
}

bool plat_guest_zero(gpa_t gpa, size_t len)
{
	struct sim_machine *m = machine();

	if (!vmpl0_can_access(m, gpa, len)) {
		return false;
	}
	memset(m->mem + gpa_val(gpa), 0, len);
	return true;
}

bool plat_guest_xchg_u8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	struct sim_machine *m = machine();

	if (!vmpl0_can_access(m, gpa, 1)) {
		return false;
	}
	*old = __atomic_exchange_n(m->mem + gpa_val(gpa), val,
				   __ATOMIC_SEQ_CST);
	return true;
}

void *plat_map_private(gpa_t gpa, size_t len)
{
	struct sim_machine *m = machine();

	/* Callers own the range: anything else is an SVSM bug. */
	CHECK(len != 0 && gpa_val(gpa) < m->cfg.guest_mem_size &&
	      len <= m->cfg.guest_mem_size - gpa_val(gpa));
	return m->mem + gpa_val(gpa);
}

void plat_unmap_private(void *va, size_t len)
{
	(void)va;
	(void)len;
}

/* A hosted process: the compiler and the C library own the SIMD state.
 * The bracket is where the SVSM enters the libraries, so it is where
 * another CPU's calls may run meanwhile, if this one left the ownership
 * lock (sim_during_next_library_call). */
void plat_simd_begin(void)
{
	sim_cpu_library_call(sim_current());
}

void plat_simd_end(void)
{
}

void plat_console_write(const char *s, size_t len)
{
	struct sim_machine *m = machine();
	size_t room = SIM_CONSOLE_SIZE - 1 - m->console_len;
	size_t n = len < room ? len : room;

	memcpy(m->console + m->console_len, s, n);
	m->console_len += n;
	m->console[m->console_len] = '\0';
	if (m->cfg.log_stderr) {
		(void)fwrite(s, 1, len, stderr);
	}
}

uint64_t plat_guest_request(const void *req, void *rsp, void *certs,
			    size_t *certs_len)
{
	struct sim_machine *m = machine();

	return sim_hv_guest_request(m, req, rsp, certs, certs_len);
}

/* The simulated host's devices (sim/src/model/vblk_sim.c): it serves every
 * access, unassigned addresses reading all ones. */
bool plat_mmio_read(gpa_t gpa, unsigned size, uint32_t *val)
{
	uint8_t data[8] = {0};

	CHECK(size == 1 || size == 2 || size == 4);
	sim_hv_mmio(machine(), gpa_val(gpa), size, false, data);
	*val = 0;
	memcpy(val, data, size);
	return true;
}

bool plat_mmio_write(gpa_t gpa, unsigned size, uint32_t val)
{
	uint8_t data[8] = {0};

	CHECK(size == 1 || size == 2 || size == 4);
	memcpy(data, &val, size);
	sim_hv_mmio(machine(), gpa_val(gpa), size, true, data);
	return true;
}

/* As snp does it: rescind validation, then the host makes them shared. */
void *plat_shared_alloc(unsigned order, gpa_t *gpa)
{
	unsigned pages = 1u << order, i;
	void *p;

	CHECK(order >= 1 && order < 16);
	p = page_alloc(order);
	if (p == NULL) {
		return NULL;
	}
	*gpa = page_to_gpa(p);
	for (i = 0; i < pages; i++) {
		bool unchanged = false;

		CHECK(plat_pvalidate(gpa_add(*gpa, (uint64_t)i * SNP_PAGE_SIZE),
				     PAGE_4K, false,
				     &unchanged) == SNP_RET_SUCCESS);
	}
	sim_hv_share(machine(), gpa_val(*gpa), pages);
	memset(p, 0, (size_t)SNP_PAGE_SIZE << order);
	return p;
}

void plat_terminate(uint32_t reason_set, uint32_t reason_code)
{
	struct sim_machine *m = machine();

	m->terminated = true;
	m->term_set = reason_set;
	m->term_code = reason_code;
	if (m->cfg.abort_on_panic && reason_set == TERM_SET_CSVSM &&
	    reason_code == TERM_CSVSM_PANIC) {
		fprintf(stderr, "%s", m->console);
		abort();
	}
	if (m->svsm_jmp == NULL) {
		abort(); /* terminate outside an SVSM entry: a harness bug */
	}
	longjmp(*m->svsm_jmp, 1);
}
