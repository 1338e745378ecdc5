/* SPDX-License-Identifier: MIT */
/*
 * The simulated machine under the sim platform (src/plat/sim/sim_hw.h):
 * the CPU at VMPL0 (cpu.c) on the live machine's RMP and memory, its
 * console, the hypervisor's guest request and the host's devices. An
 * access the SVSM makes at VMPL0 is checked against the RMP as the CPU
 * would, so an SVSM bug that touches an unvalidated page fails here too.
 */
#include "../../../src/plat/sim/sim_hw.h"

#include <stdio.h>
#include <string.h>

#include "svsm/check.h"
#include "svsm/terminate.h"

#include "sim_machine.h"

static struct sim_machine *machine(void)
{
	return sim_live();
}

enum snp_ret sim_hw_pvalidate(gpa_t gpa, bool size_2m, bool validate,
			      bool *unchanged)
{
	return sim_cpu_pvalidate(machine(), gpa_val(gpa), size_2m, validate,
				 unchanged);
}

enum snp_ret sim_hw_rmpadjust(gpa_t gpa, bool size_2m, uint64_t attrs)
{
	return sim_cpu_rmpadjust(machine(), gpa_val(gpa), size_2m, attrs);
}

/* Nested entries included. */
const void *sim_hw_cpu_self(void)
{
	return &machine()->vcpu[machine()->entry_cpu];
}

void sim_hw_flush_tlb(void)
{
	machine()->stats.tlb_flushes++;
}

/* VMPL0 may access any validated guest-owned page. */
static bool vmpl0_can_access(struct sim_machine *m, gpa_t gpa, size_t len)
{
	return sim_cpu_can_access(m, gpa_val(gpa), len);
}

bool sim_hw_guest_read(gpa_t gpa, void *dst, size_t len)
{
	struct sim_machine *m = machine();

	if (!vmpl0_can_access(m, gpa, len)) {
		return false;
	}
	memcpy(dst, m->mem + gpa_val(gpa), len);
	return true;
}

bool sim_hw_guest_write(gpa_t gpa, const void *src, size_t len)
{
	struct sim_machine *m = machine();

	if (!vmpl0_can_access(m, gpa, len)) {
		return false;
	}
	memcpy(m->mem + gpa_val(gpa), src, len);
	return true;
}

bool sim_hw_guest_zero(gpa_t gpa, size_t len)
{
	struct sim_machine *m = machine();

	if (!vmpl0_can_access(m, gpa, len)) {
		return false;
	}
	memset(m->mem + gpa_val(gpa), 0, len);
	return true;
}

bool sim_hw_guest_xchg8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	struct sim_machine *m = machine();

	if (!vmpl0_can_access(m, gpa, 1)) {
		return false;
	}
	*old = __atomic_exchange_n(m->mem + gpa_val(gpa), val,
				   __ATOMIC_SEQ_CST);
	return true;
}

void *sim_hw_map_private(gpa_t gpa, size_t len)
{
	struct sim_machine *m = machine();

	/* Callers own the range: anything else is an SVSM bug. */
	CHECK(len != 0 && gpa_val(gpa) < m->cfg.guest_mem_size &&
	      len <= m->cfg.guest_mem_size - gpa_val(gpa));
	return m->mem + gpa_val(gpa);
}

/* Where another CPU's calls may run meanwhile, if this one left the
 * ownership lock (sim_during_next_library_call). */
void sim_hw_library_call(void)
{
	sim_cpu_library_call(sim_current());
}

void sim_hw_console_write(const char *s, size_t len)
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

uint64_t sim_hw_guest_request(const void *req, void *rsp, void *certs,
			      size_t *certs_len)
{
	return sim_hv_guest_request(machine(), req, rsp, certs, certs_len);
}

/* The simulated host's devices (vblk_sim.c): it serves every access,
 * unassigned addresses reading all ones. */
void sim_hw_mmio(gpa_t gpa, unsigned len, bool write, uint8_t data[8])
{
	sim_hv_mmio(machine(), gpa_val(gpa), len, write, data);
}

void sim_hw_share(gpa_t gpa, unsigned pages)
{
	sim_hv_share(machine(), gpa_val(gpa), pages);
}

/* The harness set the context this returns to (m->svsm_jmp): an SVSM
 * entry or run; there is none only if the harness is wrong. */
void sim_hw_terminate(uint32_t set, uint32_t code)
{
	sim_vm_end(machine(), set, code);
}
