/* SPDX-License-Identifier: MIT */
/*
 * #HV under Restricted Injection on the snp platform (src/plat/snp/
 * snp_hv.c): the SVSM registers a doorbell page at boot, shrugs off a
 * spurious #HV, and terminates for any event it is signalled, because it
 * asks for none. Truths: the doorbell's pending-events layout (Linux's
 * struct hvdb) and the GHCB NAE for its registration.
 */
#include <string.h>

#include "svsm/terminate.h"

#include "abi/ghcb.h"

#include "../../src/plat/snp/ghcb.h"
#include "../../src/plat/snp/snp_hv.h"
#include "../framework/test.h"
#include "guest.h"

static struct sim_machine *snp_machine(void)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	tm_need_snp();
	cfg.snp_ghcb = true;
	return tm_create(&cfg);
}

TEST(snp_hv, doorbell_registered_and_spurious_hv_ignored)
{
	struct sim_machine *m = snp_machine();
	struct sim_ghcb_stats s;
	struct sim_rmp_info i;
	struct sim_regs r;

	sim_ghcb_get_stats(m, &s);
	ASSERT_TRUE(s.doorbell_gpa != 0);
	EXPECT_TRUE(s.doorbell_gpa >= sim_svsm_base(m) &&
		    s.doorbell_gpa < sim_svsm_base(m) + sim_svsm_size(m));
	ASSERT_TRUE(sim_rmp_query(m, s.doorbell_gpa, &i));
	EXPECT_FALSE(i.assigned); /* shared: the hypervisor writes it */
	EXPECT_TRUE(sim_ghcb_inject_hv(m, 0));
	EXPECT_TRUE(sim_ghcb_inject_hv(m, HVDB_NO_FURTHER_SIGNAL));
	EXPECT_FALSE(sim_terminated(m, NULL, NULL));
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull << 32 | 1,
			 0, 0, &r),
		  SVSM_SUCCESS);
}

static void expect_event_terminates(uint16_t events)
{
	struct sim_machine *m = snp_machine();
	uint32_t set = 0, code = 0;

	EXPECT_FALSE(sim_ghcb_inject_hv(m, events));
	EXPECT_TRUE(sim_terminated(m, &set, &code));
	EXPECT_EQ(set, TERM_SET_CSVSM);
	EXPECT_EQ(code, TERM_CSVSM_UNEXPECTED_EVENT);
}

TEST(snp_hv, injected_interrupt_terminates)
{
	expect_event_terminates(0x20);
}

TEST(snp_hv, injected_nmi_terminates)
{
	expect_event_terminates(HVDB_NMI);
}

TEST(snp_hv, injected_machine_check_terminates)
{
	expect_event_terminates(HVDB_MC);
}

static struct ghcb_cpu cpu;

static void register_elsewhere(void *arg)
{
	(void)arg;
	(void)ghcb_msr_negotiate();
	(void)ghcb_msr_hv_features();
	ghcb_cpu_init(&cpu, gpa_init(0x3000000));
	ghcb_msr_psc(gpa_init(0x3001000), false);
	snp_hv_doorbell_register(&cpu, gpa_init(0x3001000));
}

TEST(snp_hv, doorbell_set_elsewhere_terminates)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint32_t set = 0, code = 0;

	sim_config_default(&cfg);
	cfg.snp_ghcb = false; /* the client on its own GHCB page */
	m = tm_create(&cfg);
	sim_ghcb_set_behaviour(m, SIM_GHCB_DOORBELL_ELSEWHERE);
	EXPECT_FALSE(sim_snp_run(m, register_elsewhere, NULL, &set, &code));
	EXPECT_EQ(set, TERM_SET_CSVSM);
	EXPECT_EQ(code, TERM_CSVSM_GHCB_RESPONSE);
}
