/* SPDX-License-Identifier: MIT */
/*
 * The snp platform's boot and request loop in the simulator
 * (src/plat/snp/snp_main.c): what the hypervisor model saw of the boot
 * (GHCB inside the SVSM region, shared; one VMPL0 VMSA per AP, each a
 * VMSA in the RMP; the console on COM1) and that every served call ends
 * in run-VMPL. Truths: the GHCB NAE layouts (spec notes 7.3) and the RMP
 * model's view.
 */
#include <string.h>

#include "abi/ghcb.h"

#include "../framework/test.h"
#include "guest.h"

static struct sim_machine *snp_machine(unsigned vcpus)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	tm_need_snp();
	cfg.snp_ghcb = true;
	cfg.vcpu_count = vcpus;
	cfg.log_level = 5; /* the boot's notices reach the console */
	return tm_create(&cfg);
}

TEST(snp_boot, ghcb_aps_console_and_run_vmpl)
{
	struct sim_machine *m = snp_machine(4);
	struct sim_ghcb_stats s, after;
	struct sim_rmp_info i;
	struct sim_regs r;

	sim_ghcb_get_stats(m, &s);
	EXPECT_TRUE(s.registered_gpa >= sim_svsm_base(m) &&
		    s.registered_gpa < sim_svsm_base(m) + sim_svsm_size(m));
	ASSERT_TRUE(sim_rmp_query(m, s.registered_gpa, &i));
	EXPECT_FALSE(i.assigned);
	/* Three APs, each a VMPL0 VMSA in SVSM memory, APIC IDs 1..3; then
	 * the guest's boot VMSA, at VMPL1 (exit_info_1 [19:16]) on the
	 * boot CPU's APIC ID 0, the VMSA svsm_init() built. */
	EXPECT_EQ(s.ap_created, 4);
	EXPECT_TRUE(s.ap_vmsa_ok);
	EXPECT_EQ(s.ap_apic_id, 0);
	EXPECT_EQ(s.ap_info1 & 0xFFFFFFFFull,
		  SVM_VMGEXIT_AP_CREATE | (1ull << 16));
	EXPECT_EQ(s.ap_vmsa_gpa, sim_vmsa_gpa(m, 0));
	/* The boot log reached COM1 through the GHCB. */
	EXPECT_TRUE(s.console_bytes > 0);
	EXPECT_TRUE(strstr(sim_console(m), "on snp") != NULL);
	/* Every CPU's boot ended in run-VMPL; so does every served call. */
	EXPECT_EQ(s.run_vmpl, 4);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull << 32 | 1,
			 0, 0, &r),
		  SVSM_SUCCESS);
	EXPECT_EQ(r.rcx, (1ull << 32) | 1);
	sim_ghcb_get_stats(m, &after);
	EXPECT_EQ(after.run_vmpl, 5);
}

/* Each AP came online on its own: a GHCB and a doorbell page of its
 * own, from the SVSM's heap, shared (hypervisor-owned in the RMP), and a
 * call on an AP's vCPU goes through that AP's GHCB, not the boot CPU's. */
TEST(snp_boot, every_cpu_has_its_own_ghcb)
{
	struct sim_machine *m = snp_machine(3);
	uint64_t ghcb[3], bell[3];
	unsigned runs[3], runs_after[3];
	struct sim_ghcb_stats s;
	struct sim_rmp_info i;
	unsigned c, d;

	for (c = 0; c < 3; c++) {
		sim_ghcb_cpu(m, c, &ghcb[c], &bell[c], &runs[c]);
		EXPECT_EQ(runs[c], 1); /* its boot ended in run-VMPL */
		EXPECT_TRUE(ghcb[c] >= sim_svsm_base(m) &&
			    ghcb[c] < sim_svsm_base(m) + sim_svsm_size(m));
		EXPECT_TRUE(bell[c] >= sim_svsm_base(m) &&
			    bell[c] < sim_svsm_base(m) + sim_svsm_size(m));
		ASSERT_TRUE(sim_rmp_query(m, ghcb[c], &i));
		EXPECT_FALSE(i.assigned);
		ASSERT_TRUE(sim_rmp_query(m, bell[c], &i));
		EXPECT_FALSE(i.assigned);
		for (d = 0; d < c; d++) {
			EXPECT_NE(ghcb[c], ghcb[d]);
			EXPECT_NE(bell[c], bell[d]);
			EXPECT_NE(ghcb[c], bell[d]);
		}
	}
	/* The guest starts its vCPU 1; that vCPU's calls enter AP 1. */
	ASSERT_EQ(g_create_vcpu(m, 0, 1, 0x400000, 0x401000), SVSM_SUCCESS);
	sim_ghcb_get_stats(m, &s);
	EXPECT_EQ(s.registered_gpa, ghcb[0]); /* the model is back on CPU 0 */
	ASSERT_EQ(g_call(m, 1, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull << 32 | 1,
			 0, 0, NULL),
		  SVSM_SUCCESS);
	for (c = 0; c < 3; c++) {
		sim_ghcb_cpu(m, c, &ghcb[c], &bell[c], &runs_after[c]);
	}
	/* CPU 0 served the PVALIDATE and CREATE_VCPU, CPU 1 the call on
	 * vCPU 1, CPU 2 nothing. */
	EXPECT_EQ(runs_after[0], runs[0] + 2);
	EXPECT_EQ(runs_after[1], runs[1] + 1);
	EXPECT_EQ(runs_after[2], runs[2]);
	check_invariants(m);
}
