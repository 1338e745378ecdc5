/* SPDX-License-Identifier: MIT */
/*
 * Randomized property test: thousands of random core calls, valid and
 * invalid, from several vCPUs. After every call: the SVSM has not crashed
 * or terminated, the result is a code the spec defines for that call, no
 * SVSM-region page is accessible at a guest VMPL, and no VMSA page is
 * guest-writable (check_invariants()).
 */
#include <stdio.h>

#include "abi/svsm_caa.h"
#include "abi/svsm_core.h"

#include "../framework/test.h"
#include "guest.h"

#define VCPUS 4u
#define CALLS 4000u

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* An address drawn from the places attacks aim at, or anywhere. */
static uint64_t pick_gpa(struct sim_machine *m)
{
	uint64_t svsm = sim_svsm_base(m);
	uint64_t size = sim_guest_mem_size(m);

	switch (rnd() % 10) {
	case 0:
		return svsm + (rnd() % (sim_svsm_size(m) / 4096)) * 4096;
	case 1:
		return sim_current_caa_gpa(m, (unsigned)(rnd() % VCPUS));
	case 2:
		return sim_vmsa_gpa(m, (unsigned)(rnd() % VCPUS));
	case 3:
		return size + (rnd() % 16) * 4096;
	case 4:
		return rnd();
	case 5:
		return (rnd() % size) | (rnd() % 4096);
	default:
		/* A small pool of pages, so calls interact. */
		return 0x2000000ull + (rnd() % 64) * 4096;
	}
}

static bool result_is_known(uint32_t r)
{
	return r == SVSM_SUCCESS ||
	       (r >= SVSM_ERR_INCOMPLETE && r <= SVSM_ERR_BUSY) ||
	       (r >= SVSM_ERR_PROTOCOL_BASE &&
		r <= SVSM_PVALIDATE_FAIL_UNKNOWN) ||
	       (r & 0xC0000000u) == SVSM_RESULT_NEED_MEMORY_BASE;
}

static void random_list(struct sim_machine *m, uint64_t list, bool deposit)
{
	uint64_t e[16];
	unsigned n = 1 + (unsigned)(rnd() % 16);
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t flags = rnd() % 16;

		if (rnd() % 8 == 0) {
			flags |= rnd() & 0xFF0; /* reserved bits */
		}
		e[i] = (pick_gpa(m) & ~0xFFFull) |
		       (deposit ? (flags & 0x3) : flags);
	}
	(void)sim_mem_write(m, list + 8, e, n * 8u);
	{
		uint16_t hdr[2] = {(uint16_t)(rnd() % 8 == 0 ? rnd() : n),
				   (uint16_t)(rnd() % 8 == 0 ? rnd() : 0)};

		(void)sim_mem_write(m, list, hdr, sizeof(hdr));
	}
}

TEST(property, random_calls_keep_the_invariants)
{
	struct sim_machine *m = tm_default(VCPUS);
	unsigned served = 0;
	unsigned i;

	rng_state = test_seed() | 1;
	/* Some validated memory to play with, and one AP. */
	g_pvalidate_range(m, 0, 0x2000000ull, 32 * 4096ull, true);
	ASSERT_EQ(g_create_vcpu(m, 0, 1, 0x3000000, 0x3001000), SVSM_SUCCESS);
	for (i = 0; i < CALLS; i++) {
		unsigned vcpu = (unsigned)(rnd() % VCPUS);
		uint64_t caa = sim_current_caa_gpa(m, vcpu);
		struct sim_regs r = {0};
		uint32_t call = (uint32_t)(rnd() % 9);
		enum sim_status st;

		r.rax = rnd() % 32 == 0 ? rnd() : CORE(call);
		r.rcx = pick_gpa(m);
		r.rdx = pick_gpa(m);
		/* APIC IDs 1..4 (4 does not exist): vCPU 0 stays alive. */
		r.r8 = 1 + rnd() % VCPUS;
		r.r9 = rnd();
		if (sim_vcpu_has_caa(m, vcpu) && rnd() % 2 == 0 &&
		    (call == SVSM_CORE_PVALIDATE ||
		     call == SVSM_CORE_DEPOSIT_MEM)) {
			r.rcx = caa + SVSM_CAA_OFF_BUFFER;
			random_list(m, r.rcx, call == SVSM_CORE_DEPOSIT_MEM);
		}
		if (call == SVSM_CORE_CREATE_VCPU && rnd() % 2 == 0 &&
		    g_can_write(m, r.rcx & ~0xFFFull)) {
			r.rcx &= ~0xFFFull;
			r.rdx &= ~0xFFFull;
			g_write_ap_vmsa(m, r.rcx, (uint8_t)(rnd() % 3),
					rnd() % 4 == 0 ? rnd() : 1,
					rnd() % 4 == 0 ? 0 : EFER_SVME);
		}
		if (call == SVSM_CORE_CONFIGURE_VTOM) {
			r.rcx |= 1; /* query only: keep the guest runnable */
		}
		st = sim_call(m, vcpu, &r);
		if (st == SIM_TERMINATED) {
			printf("%s", sim_console(m));
		}
		ASSERT_TRUE(st == SIM_OK || st == SIM_NOT_RUNNABLE ||
			    st == SIM_GUEST_FAULT);
		if (st == SIM_OK) {
			served++;
			ASSERT_TRUE(result_is_known((uint32_t)r.rax));
			if (call == SVSM_CORE_CREATE_VCPU &&
			    (uint32_t)r.rax == SVSM_SUCCESS && r.r8 < VCPUS) {
				(void)sim_ap_create(m, (unsigned)r.r8, r.rcx,
						    r.rdx);
			}
		}
		check_invariants(m);
	}
	EXPECT_TRUE(served > CALLS / 4);
	/* The machine still serves an honest call. */
	EXPECT_EQ(
		g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, NULL),
		SVSM_SUCCESS);
}
