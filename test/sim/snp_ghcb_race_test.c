/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor rewriting the shared GHCB while the SVSM reads it: a
 * second thread keeps flipping bytes of the GHCB page (valid bitmap,
 * exit_info fields, the PSC buffer) while the client converts pages.
 * The client reads each reply once, from its own copy, so every outcome
 * must be one it could have got from some single reply: the conversion
 * completed and the pages are private and validated, or the VM ended
 * with a GHCB or PSC reason. Nothing may crash or read out of bounds.
 */
#include <pthread.h>
#include <string.h>

#include "svsm/terminate.h"

#include "abi/ghcb.h"

#include "../../src/plat/snp/ghcb.h"
#include "../framework/test.h"
#include "guest.h"

#define GHCB_GPA 0x3000000ull
#define PAGES_GPA 0x3100000ull
#define PAGES 16u

static struct ghcb_cpu cpu;
static volatile uint8_t *shared_ghcb;
static volatile bool stop, running;

static void *flipper(void *arg)
{
	uint64_t x = 0x9E3779B97F4A7C15ull;

	(void)arg;
	running = true;
	while (!stop) {
		unsigned spin;

		/* Now and then, so some rounds finish and some do not. */
		for (spin = 0; spin < 2000 && !stop; spin++) {
			__builtin_ia32_pause();
		}
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* Bytes the reply is made of: 0x390-0x3FF and the buffer. */
		if (x & 1) {
			shared_ghcb[0x390 + (x >> 8) % 0x70] ^=
				(uint8_t)(1u << ((x >> 4) & 7));
		} else {
			shared_ghcb[0x800 + (x >> 8) % 0x210] ^=
				(uint8_t)(1u << ((x >> 4) & 7));
		}
	}
	return NULL;
}

static void boot(void *arg)
{
	(void)arg;
	(void)ghcb_msr_negotiate();
	(void)ghcb_msr_hv_features();
	ghcb_cpu_init(&cpu, gpa_init(GHCB_GPA));
	snp_make_shared(&cpu, gpa_init(PAGES_GPA), PAGES);
}

/* Many round trips, so the flipper's writes meet replies in flight. */
static void convert(void *arg)
{
	unsigned i;

	(void)arg;
	for (i = 0; i < 200; i++) {
		snp_make_private(&cpu, gpa_init(PAGES_GPA), PAGES);
		snp_make_shared(&cpu, gpa_init(PAGES_GPA), PAGES);
	}
	snp_make_private(&cpu, gpa_init(PAGES_GPA), PAGES);
}

TEST(snp_ghcb_race, rewritten_replies_are_read_once)
{
	unsigned round, completed = 0, ended = 0;

	for (round = 0; round < 10; round++) {
		struct sim_config cfg;
		struct sim_machine *m;
		pthread_t t;
		uint32_t set = 0, code = 0;
		bool ok;
		unsigned i;

		sim_config_default(&cfg);
		cfg.snp_ghcb = false;
		m = sim_create(&cfg);
		ASSERT_TRUE(m != NULL);
		ASSERT_TRUE(sim_snp_run(m, boot, NULL, NULL, NULL));
		shared_ghcb = cpu.page;
		stop = false;
		running = false;
		ASSERT_EQ(pthread_create(&t, NULL, flipper, NULL), 0);
		while (!running) {
			__builtin_ia32_pause();
		}
		ok = sim_snp_run(m, convert, NULL, &set, &code);
		stop = true;
		pthread_join(t, NULL);
		if (ok) {
			completed++;
			for (i = 0; i < PAGES; i++) {
				struct sim_rmp_info r;

				ASSERT_TRUE(sim_rmp_query(
					m, PAGES_GPA + i * 0x1000ull, &r));
				EXPECT_TRUE(r.assigned && r.validated);
			}
		} else {
			ended++;
			EXPECT_EQ(set, TERM_SET_CSVSM);
			EXPECT_TRUE(code == TERM_CSVSM_GHCB_RESPONSE ||
				    code == TERM_CSVSM_PSC_FAILED);
		}
		sim_destroy(m);
	}
	EXPECT_EQ(completed + ended, 10);
}
