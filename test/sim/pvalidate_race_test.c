/* SPDX-License-Identifier: MIT */
/*
 * PVALIDATE leaves no half-done page (58019 6.2; T04): a page is handed
 * to the guest validated and zeroed, or not validated at all. A host CPU
 * racing the SVSM (SIM_HV_SHARE_AFTER_VALIDATE) PSMASHes a range right
 * after VMPL0 validated it and takes one 4 KiB page back, so zeroing
 * fails; the rest of the range must not stay validated with no guest
 * rights, where the guest could neither use nor validate it again.
 */
#include "../framework/test.h"
#include "guest.h"

#define RAM 0x2000000ull /* 32 MiB: 2 MiB aligned, above the SVSM region */

static unsigned validated_pages(struct sim_machine *m, uint64_t gpa,
				unsigned pages)
{
	struct sim_rmp_info r;
	unsigned n = 0;
	unsigned i;

	for (i = 0; i < pages; i++) {
		ASSERT_TRUE(sim_rmp_query(m, gpa + i * 0x1000ull, &r));
		n += r.validated ? 1u : 0u;
	}
	return n;
}

TEST(pvalidate_race, a_2m_range_that_cannot_be_zeroed_is_invalidated)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint64_t e = pv_entry(RAM, true, true, false);
	struct sim_rmp_info r;
	uint16_t next = 7;

	sim_config_default(&cfg);
	cfg.rmp_2m = true;
	m = tm_create(&cfg);
	sim_hv_set_behaviour(m, SIM_HV_SHARE_AFTER_VALIDATE);
	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, &next), SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(next, 0); /* the entry failed as a whole */
	EXPECT_EQ(validated_pages(m, RAM, 512), 0);
	ASSERT_TRUE(sim_rmp_query(m, RAM + 0x1FF000, &r));
	EXPECT_FALSE(r.assigned); /* the page the host took */
	/* The guest can validate what is still private, page by page. */
	sim_hv_set_behaviour(m, SIM_HV_HONEST);
	g_pvalidate_range(m, 0, RAM, 0x1FF000, true);
	EXPECT_TRUE(g_can_write(m, RAM + 0x1FE000));
	check_invariants(m);
}

TEST(pvalidate_race, a_4k_page_that_cannot_be_zeroed_is_not_handed_over)
{
	struct sim_machine *m = tm_default(1);
	uint64_t e[2] = {pv_entry(RAM, false, true, false),
			 pv_entry(RAM + 0x1000, false, true, false)};
	uint16_t next = 7;

	sim_hv_set_behaviour(m, SIM_HV_SHARE_AFTER_VALIDATE);
	EXPECT_EQ(g_pvalidate(m, 0, e, 2, &next), SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(next, 0);
	EXPECT_EQ(validated_pages(m, RAM, 2), 0);
	EXPECT_FALSE(g_can_read(m, RAM));
	check_invariants(m);
}

TEST(pvalidate_race, a_2m_range_whose_grant_fails_is_invalidated)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint64_t e = pv_entry(RAM, true, true, false);
	uint16_t next = 7;

	sim_config_default(&cfg);
	cfg.rmp_2m = true;
	m = tm_create(&cfg);
	/* Validated and zeroed, then split before the grant: the 2 MiB
	 * RMPADJUST meets 4 KiB entries (APM RMPADJUST: SIZEMISMATCH). */
	sim_hv_set_behaviour(m, SIM_HV_SHARE_BEFORE_GRANT);
	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, &next),
		  SVSM_PVALIDATE_FAIL_SIZEMISMATCH);
	EXPECT_EQ(next, 0);
	EXPECT_EQ(validated_pages(m, RAM, 512), 0);
	/* Linux's answer to SIZEMISMATCH (svsm_pval_pages): the range as
	 * 4 KiB pages, ignore_cf clear. Each works, none is "unchanged". */
	sim_hv_set_behaviour(m, SIM_HV_HONEST);
	g_pvalidate_range(m, 0, RAM, 0x1FF000, true);
	EXPECT_TRUE(g_can_write(m, RAM + 0x1FE000));
	check_invariants(m);
}
