/* SPDX-License-Identifier: MIT */
/*
 * The call protocol itself (58019 section 5) against a hostile hypervisor
 * model: spurious entries, double entries, refused run-VMPL requests, and a
 * guest that puts a reserved value in call_pending.
 */
#include "abi/svsm_caa.h"

#include "../framework/test.h"
#include "guest.h"

#define RAM 0x2000000ull

TEST(request, registers_are_preserved_and_answered)
{
	struct sim_machine *m = tm_default(1);
	uint64_t e = pv_entry(RAM, false, true, false);
	uint64_t list = sim_initial_caa_gpa(m, 0) + SVSM_CAA_OFF_BUFFER;
	struct sim_regs r = {.rax = CORE(SVSM_CORE_PVALIDATE),
			     .rcx = list,
			     .rdx = 0x1111,
			     .r8 = 0x2222,
			     .r9 = 0x3333};
	uint8_t pending = 0xFF;

	g_write_list(m, list, 1, 0, &e, 1);
	ASSERT_EQ(sim_call(m, 0, &r), SIM_OK);
	EXPECT_EQ(r.rax, SVSM_SUCCESS); /* zero-extended */
	EXPECT_EQ(r.rcx, list);
	EXPECT_EQ(r.rdx, 0x1111);
	EXPECT_EQ(r.r8, 0x2222);
	EXPECT_EQ(r.r9, 0x3333);
	ASSERT_EQ(sim_mem_read(m, sim_initial_caa_gpa(m, 0), &pending, 1),
		  SIM_OK);
	EXPECT_EQ(pending, 0);
}

TEST(request, reserved_call_pending_is_invalid_format)
{
	struct sim_machine *m = tm_default(1);
	uint64_t caa = sim_initial_caa_gpa(m, 0);
	struct sim_regs r = {.rax = CORE(SVSM_CORE_QUERY_PROTOCOL), .rcx = 1};
	uint8_t pending = 0xFF;

	/* 58019 Table 4: a reserved value in SVSM_CALL_PENDING. */
	ASSERT_EQ(sim_call_pending(m, 0, &r, 2), SIM_OK);
	EXPECT_EQ(r.rax, SVSM_ERR_INVALID_FORMAT);
	EXPECT_EQ(r.rcx, 1); /* not dispatched: no QUERY answer */
	ASSERT_EQ(sim_mem_read(m, caa, &pending, 1), SIM_OK);
	EXPECT_EQ(pending, 0);
	ASSERT_EQ(sim_call_pending(m, 0, &r, 0xFF), SIM_OK);
	EXPECT_EQ(r.rax, SVSM_ERR_INVALID_FORMAT);
	/* The next proper call is served. */
	EXPECT_EQ(
		g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, NULL),
		SVSM_SUCCESS);
}

TEST(request, refused_run_vmpl_leaves_state_alone)
{
	struct sim_machine *m = tm_default(1);
	uint64_t e = pv_entry(RAM, false, true, false);
	uint64_t list = sim_initial_caa_gpa(m, 0) + SVSM_CAA_OFF_BUFFER;
	struct sim_regs r = {.rax = CORE(SVSM_CORE_PVALIDATE), .rcx = list};

	g_write_list(m, list, 1, 0, &e, 1);
	sim_hv_set_behaviour(m, SIM_HV_REFUSE_RUN_VMPL);
	/* Linux sees call_pending still set: -EINVAL, nothing done. */
	EXPECT_EQ(sim_call(m, 0, &r), SIM_NOT_SERVED);
	EXPECT_FALSE(g_can_read(m, RAM));
	EXPECT_EQ(g_read_next(m, list), 0);
	sim_hv_set_behaviour(m, SIM_HV_HONEST);
	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_SUCCESS);
}

static void run_with(enum sim_hv_behaviour b, uint64_t *declined)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint64_t e = pv_entry(RAM, false, true, false);
	struct sim_stats st;
	uint16_t next = 0;

	sim_config_default(&cfg);
	cfg.vcpu_count = 2;
	m = sim_create(&cfg);
	ASSERT_TRUE(m != NULL);
	sim_hv_set_behaviour(m, b);
	/* Served exactly once: a second run of this entry would report
	 * 0x80001010, and a second CREATE_VCPU would fail. */
	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, &next), SVSM_SUCCESS);
	EXPECT_EQ(next, 1);
	EXPECT_EQ(g_create_vcpu(m, 0, 1, 0x400000, 0x401000), SVSM_SUCCESS);
	EXPECT_EQ(
		g_call(m, 1, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, NULL),
		SVSM_SUCCESS);
	sim_get_stats(m, &st);
	*declined = st.entries_declined;
	check_invariants(m);
	sim_destroy(m);
}

TEST(request, spurious_and_double_entries_change_nothing)
{
	uint64_t honest = 0;
	uint64_t spurious = 0;
	uint64_t twice = 0;

	run_with(SIM_HV_HONEST, &honest);
	run_with(SIM_HV_SPURIOUS_ENTRY, &spurious);
	run_with(SIM_HV_DOUBLE_ENTRY, &twice);
	EXPECT_EQ(honest, 0);
	EXPECT_TRUE(spurious >= 8); /* two per call, every one ignored */
	EXPECT_TRUE(twice >= 4);
}

TEST(request, caa_made_unusable_is_not_served)
{
	struct sim_machine *m = tm_default(1);
	uint64_t caa = 0x300000;

	g_pvalidate_range(m, 0, caa, 0x1000, true);
	ASSERT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), caa, 0, 0, NULL),
		  SVSM_SUCCESS);
	/* The guest cannot invalidate a live CA through the SVSM... */
	{
		uint64_t e = pv_entry(caa, false, false, false);

		EXPECT_EQ(g_pvalidate(m, 0, &e, 1, NULL),
			  SVSM_ERR_INVALID_ADDRESS);
	}
	/* ...and if the hypervisor takes the page away, the call is not
	 * served (the guest's own write to it faults first). */
	ASSERT_EQ(sim_hv_page_state(m, caa, false, false), SIM_OK);
	{
		struct sim_regs r = {.rax = CORE(SVSM_CORE_QUERY_PROTOCOL)};

		EXPECT_EQ(sim_call(m, 0, &r), SIM_GUEST_FAULT);
	}
	EXPECT_FALSE(sim_terminated(m, NULL, NULL));
}
