/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer targets: a small machine per input, and a crash
 * (abort) whenever a security invariant breaks. */
#ifndef TEST_FUZZ_HARNESS_H
#define TEST_FUZZ_HARNESS_H

#include <stdio.h>
#include <stdlib.h>

#include "abi/svsm_call.h"

#include "csvsm_sim.h"

#define FUZZ_MEM (4ull << 20)

/* A small machine; @vtpm: with a manufactured TPM (costly: make once). */
static inline struct sim_machine *fuzz_machine_with(unsigned vcpus, bool vtpm)
{
	struct sim_config cfg;
	struct sim_machine *m;

	sim_config_default(&cfg);
	cfg.vtpm = vtpm;
	cfg.guest_mem_size = FUZZ_MEM;
	cfg.svsm_base = 2ull << 20;
	cfg.svsm_size = 1ull << 20;
	cfg.guest_secrets_gpa = 0x300000;
	cfg.guest_caa_gpa = 0x301000;
	cfg.vcpu_count = vcpus;
	cfg.abort_on_panic = true;
	m = sim_create(&cfg);
	if (m == NULL) {
		abort();
	}
	return m;
}

static inline struct sim_machine *fuzz_machine(unsigned vcpus)
{
	return fuzz_machine_with(vcpus, false);
}

/* The guest validates @pages 4 KiB pages from @gpa (PVALIDATE via its
 * CA), as its own memory for request blocks and buffers. */
static inline void fuzz_validate(struct sim_machine *m, uint64_t gpa,
				 unsigned pages)
{
	uint64_t caa = sim_current_caa_gpa(m, 0);
	uint64_t hdr = pages;
	uint64_t e[16];
	struct sim_regs r = {.rax = SVSM_CALL(0, 1), .rcx = caa + 8};
	unsigned i;

	if (pages > 16) {
		abort();
	}
	for (i = 0; i < pages; i++) {
		e[i] = (gpa + i * 0x1000ull) | 4; /* 4 KiB, validate */
	}
	if (sim_mem_write(m, caa + 8, &hdr, 8) != SIM_OK ||
	    sim_mem_write(m, caa + 16, e, pages * 8ull) != SIM_OK ||
	    sim_call(m, 0, &r) != SIM_OK || r.rax != 0) {
		abort();
	}
}

static inline void fuzz_check(const struct sim_machine *m)
{
	char why[128];

	if (!sim_check_invariants(m, why, sizeof(why))) {
		fprintf(stderr, "invariant broken: %s\n%s", why,
			sim_console(m));
		abort();
	}
}

static inline int fuzz_result_is_known(unsigned r)
{
	return r == 0 || (r >= 0x80000000u && r <= 0x80000007u) ||
	       (r >= 0x80001000u && r <= 0x80001011u) ||
	       (r & 0xC0000000u) == 0x40000000u;
}

#endif /* TEST_FUZZ_HARNESS_H */
