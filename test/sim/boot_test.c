/* SPDX-License-Identifier: MIT */
/*
 * What the guest finds at boot, checked as Linux's svsm_setup_ca() does
 * (arch/x86/boot/startup/sev-shared.c; the secrets page is 58019 Table 1).
 */
#include <string.h>

#include "../framework/test.h"
#include "guest.h"

TEST(boot, secrets_page_describes_the_svsm)
{
	struct sim_machine *m = tm_default(1);
	struct snp_secrets_page s;
	static const uint8_t zero[32];

	ASSERT_EQ(sim_mem_read(m, sim_secrets_gpa(m), &s, sizeof(s)), SIM_OK);
	EXPECT_EQ(s.svsm_base, sim_svsm_base(m));
	EXPECT_EQ(s.svsm_size, sim_svsm_size(m));
	EXPECT_NE(s.svsm_size, 0);	  /* else GHCB_TERM_NO_SVSM */
	EXPECT_EQ(s.svsm_caa & 0xFFF, 0); /* else GHCB_TERM_SVSM_CAA */
	EXPECT_EQ(s.svsm_caa, sim_initial_caa_gpa(m, 0));
	EXPECT_EQ(s.svsm_guest_vmpl, 1); /* else GHCB_TERM_SVSM_VMPL0 */
	EXPECT_EQ(s.svsm_max_version, 1);
	EXPECT_EQ(s.version, 3);
	/* VMPCK0 is the SVSM's; the guest keeps VMPCK1..3. */
	EXPECT_EQ(memcmp(s.vmpck[0], zero, 32), 0);
	EXPECT_NE(memcmp(s.vmpck[1], zero, 32), 0);
	EXPECT_NE(memcmp(s.vmpck[3], zero, 32), 0);
}

TEST(boot, vmpl2_guest_loses_vmpck0_and_1)
{
	struct sim_config cfg;
	struct sim_machine *m;
	struct snp_secrets_page s;
	static const uint8_t zero[32];

	sim_config_default(&cfg);
	cfg.guest_vmpl = 2;
	m = tm_create(&cfg);
	ASSERT_EQ(sim_mem_read(m, sim_secrets_gpa(m), &s, sizeof(s)), SIM_OK);
	EXPECT_EQ(s.svsm_guest_vmpl, 2);
	EXPECT_EQ(memcmp(s.vmpck[0], zero, 32), 0);
	EXPECT_EQ(memcmp(s.vmpck[1], zero, 32), 0);
	EXPECT_NE(memcmp(s.vmpck[2], zero, 32), 0);
	EXPECT_EQ(
		g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, NULL),
		SVSM_SUCCESS);
}

TEST(boot, guest_is_not_vmpl0)
{
	struct sim_machine *m = tm_default(1);
	uint32_t eax = 0;

	/* Linux's probe: RMPADJUST of its own page for VMPL1 must fail. */
	ASSERT_EQ(sim_guest_rmpadjust(m, sim_secrets_gpa(m), false,
				      1 | RMPADJUST_READ, &eax),
		  SIM_OK);
	EXPECT_EQ(eax, SNP_RET_FAIL_PERMISSION);
	/* PVALIDATE is the SVSM's instruction. */
	EXPECT_EQ(sim_guest_pvalidate(m, 0x100000, false, true, &eax),
		  SIM_GUEST_FAULT);
}

TEST(boot, svsm_memory_is_closed_to_the_guest)
{
	struct sim_machine *m = tm_default(2);
	uint64_t gpa;

	for (gpa = sim_svsm_base(m); gpa < sim_svsm_base(m) + sim_svsm_size(m);
	     gpa += 0x1000) {
		ASSERT_FALSE(g_can_read(m, gpa));
		ASSERT_FALSE(g_can_write(m, gpa));
		ASSERT_EQ(sim_mem_exec(m, gpa), SIM_GUEST_FAULT);
	}
	/* The boot VMSA is SVSM memory too. */
	EXPECT_TRUE(sim_vmsa_gpa(m, 0) >= sim_svsm_base(m));
	EXPECT_FALSE(g_can_read(m, sim_vmsa_gpa(m, 0)));
	/* The CA and the secrets page are the guest's. */
	EXPECT_TRUE(g_can_write(m, sim_initial_caa_gpa(m, 0)));
	EXPECT_TRUE(g_can_write(m, sim_secrets_gpa(m)));
	/* Unvalidated RAM faults (#VC) until it is validated. */
	EXPECT_FALSE(g_can_read(m, 0x100000));
	check_invariants(m);
}

TEST(boot, bad_configurations_are_refused)
{
	struct sim_config cfg;
	struct sim_machine *m;

	sim_config_default(&cfg);
	cfg.guest_vmpl = 0;
	EXPECT_TRUE(sim_create(&cfg) == NULL);
	sim_config_default(&cfg);
	cfg.sev_features = SEV_FEAT_SNP_ACTIVE | SEV_FEAT_VMSA_REG_PROT;
	EXPECT_TRUE(sim_create(&cfg) == NULL);
	sim_config_default(&cfg);
	cfg.guest_caa_gpa = cfg.svsm_base; /* the CA inside the SVSM */
	EXPECT_TRUE(sim_create(&cfg) == NULL);
	sim_config_default(&cfg);
	m = sim_create(&cfg);
	ASSERT_TRUE(m != NULL);
	EXPECT_TRUE(sim_create(&cfg) == NULL); /* one machine at a time */
	sim_destroy(m);
}
