/* SPDX-License-Identifier: MIT */
/*
 * The simulated CPU at VMPL0, for whichever platform is linked (the sim
 * platform's seam in sim_hw.c, or the snp platform's in snp_insn_sim.c):
 * PVALIDATE and RMPADJUST on the RMP model, with the hypervisor's races
 * around them; the RMP check every private access to guest memory makes;
 * the point where another CPU's calls run while this one is in the
 * libraries. And the CPU's random numbers and clock, which on both
 * firmware platforms are src/arch/x86/rng_clock.c's (RDRAND, the TSC).
 */
#include <sys/random.h>
#include <time.h>

#include "svsm/check.h"
#include "svsm/owner_lock.h"
#include "svsm/plat.h"

#include "sim_machine.h"

enum snp_ret sim_cpu_pvalidate(struct sim_machine *m, uint64_t gpa,
			       bool size_2m, bool validate, bool *unchanged)
{
	enum snp_ret rc;

	sim_bench_model_begin(m);
	rc = rmp_guest_pvalidate(&m->rmp, 0, gpa, size_2m ? PAGE_2M : PAGE_4K,
				 validate, unchanged);
	sim_hv_after_pvalidate(m, gpa, size_2m, validate, rc, *unchanged);
	sim_bench_model_end(m);
	return rc;
}

enum snp_ret sim_cpu_rmpadjust(struct sim_machine *m, uint64_t gpa,
			       bool size_2m, uint64_t attrs)
{
	const struct rmp_entry *e;
	bool was_vmsa;
	enum snp_ret rc;

	sim_bench_model_begin(m);
	e = rmp_lookup(&m->rmp, gpa);
	was_vmsa = e != NULL && (e->flags & RMP_F_VMSA) != 0;
	sim_hv_before_rmpadjust(m, gpa, size_2m, attrs);
	rc = rmp_guest_rmpadjust(&m->rmp, 0, gpa, size_2m ? PAGE_2M : PAGE_4K,
				 attrs);
	sim_hv_after_rmpadjust(m, gpa, was_vmsa);
	sim_bench_model_end(m);
	return rc;
}

/* VMPL0 may access any validated guest-owned page. */
bool sim_cpu_can_access(struct sim_machine *m, uint64_t gpa, size_t len)
{
	bool ok;

	sim_bench_model_begin(m);
	ok = rmp_range_accessible(&m->rmp, 0, gpa, len, RMP_PERM_READ);
	sim_bench_model_end(m);
	return ok;
}

void sim_during_next_library_call(struct sim_machine *m,
				  void (*fn)(struct sim_machine *, void *),
				  void *arg)
{
	m->lib_hook = fn;
	m->lib_hook_arg = arg;
}

void sim_cpu_library_call(struct sim_machine *m)
{
	if (m != NULL && m->lib_hook != NULL && !owner_lock_held()) {
		void (*fn)(struct sim_machine *, void *) = m->lib_hook;

		m->lib_hook = NULL;
		fn(m, m->lib_hook_arg);
	}
}

/* RDRAND's stand-in: the host's generator. */
bool plat_entropy(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len > 0) {
		ssize_t n = getrandom(p, len, 0);

		if (n <= 0) {
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* The host's monotonic clock plus every simulated wait so far. */
uint64_t plat_clock_ns(void)
{
	struct sim_machine *m = sim_current();
	struct timespec ts;

	CHECK(clock_gettime(CLOCK_MONOTONIC, &ts) == 0);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec +
	       (m != NULL ? m->clock_waited_ns : 0);
}

/* Simulated: the clock jumps, nothing sleeps (tests stay fast and their
 * timeouts deterministic). */
void plat_delay_ns(uint64_t ns)
{
	struct sim_machine *m = sim_live();

	m->clock_waited_ns += ns / 100 * m->clock_rate_pct;
	m->stats.delays++;
}
