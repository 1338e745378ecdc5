/* SPDX-License-Identifier: MIT */
/*
 * The world-switch benchmark, measured in guest TSC cycles in one run:
 * - bare switch: VMGEXIT "run VMPL0" with call_pending clear, so the SVSM
 *   enters, finds no call and returns (the cost of any SVSM entry);
 * - QUERY_PROTOCOL: a complete SVSM call.
 * Both through the GHCB page (1 exit, Linux's path once it has a GHCB) and
 * through the MSR protocol (3 exits under QEMU, where the GHCB MSR is
 * intercepted; on SNP hardware it lives in the VMSA). Rounds alternate so
 * that drift in QEMU's speed hits both sides alike.
 */
#include "guest.h"

#define ROUNDS 10u
#define PER_ROUND 200u

static uint64_t time_calls(enum call_path path, bool bare)
{
	uint64_t t0 = g_rdtsc();
	unsigned i;

	for (i = 0; i < PER_ROUND; i++) {
		if (bare) {
			svsm_bare_switch(path);
		} else {
			struct svsm_regs r = {.rax = 6, .rcx = 1};

			(void)svsm_call_path(&r, path);
		}
	}
	return g_rdtsc() - t0;
}

static void bench_path(enum call_path path, const char *name)
{
	uint64_t bare = 0;
	uint64_t call = 0;
	uint64_t n = (uint64_t)ROUNDS * PER_ROUND;
	unsigned r;

	for (r = 0; r < ROUNDS; r++) {
		bare += time_calls(path, true);
		call += time_calls(path, false);
	}
	g_print("[bench] %s: bare world switch %llu cycles, QUERY_PROTOCOL "
		"%llu cycles, ratio %llu.%02llu\n",
		name, (unsigned long long)(bare / n),
		(unsigned long long)(call / n),
		(unsigned long long)(call / bare),
		(unsigned long long)(call * 100 / bare % 100));
}

void bench_world_switch(void)
{
	g_section("benchmark: SVSM call against a bare world switch");
	bench_path(PATH_GHCB, "GHCB page");
	bench_path(PATH_MSR, "MSR protocol");
}
