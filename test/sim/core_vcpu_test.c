/* SPDX-License-Identifier: MIT */
/*
 * SVSM_CORE_CREATE_VCPU / DELETE_VCPU (58019 6.3, 6.4) as Linux brings APs
 * up (wakeup_cpu_via_vmgexit: CREATE_VCPU, then AP_CREATION; on re-online
 * a new VMSA first, then DELETE_VCPU of the old one).
 */
#include "../framework/test.h"
#include "guest.h"

#define VMSA1 0x400000ull
#define CA1 0x401000ull
#define VMSA2 0x402000ull
#define CA2 0x403000ull

TEST(vcpu, linux_ap_bring_up_and_delete)
{
	struct sim_machine *m = tm_default(4);
	struct sim_rmp_info r;
	uint8_t b = 0;
	unsigned ap;

	for (ap = 1; ap < 4; ap++) {
		uint64_t vmsa = VMSA1 + ap * 0x10000ull;

		ASSERT_EQ(g_create_vcpu(m, 0, ap, vmsa, vmsa + 0x1000),
			  SVSM_SUCCESS);
		ASSERT_TRUE(sim_rmp_query(m, vmsa, &r));
		EXPECT_TRUE(r.vmsa);
		EXPECT_EQ(r.perms[1], 0x1); /* read-only, as COCONUT */
		/* Linux reads sev_features back for AP_CREATION... */
		ASSERT_EQ(sim_mem_read(m, vmsa + 0x3B0, &b, 1), SIM_OK);
		EXPECT_EQ(b, SEV_FEAT_SNP_ACTIVE);
		/* ...but cannot change a byte of it. */
		EXPECT_FALSE(g_can_write(m, vmsa));
		/* The AP runs and calls the SVSM on its own CA. */
		EXPECT_EQ(g_call(m, ap, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0,
				 0, NULL),
			  SVSM_SUCCESS);
	}
	check_invariants(m);
	/* The BSP takes AP 2 down (kexec: AP_DESTROY, then DELETE_VCPU). */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1 + 0x20000ull,
			 0, 0, NULL),
		  SVSM_SUCCESS);
	ASSERT_TRUE(sim_rmp_query(m, VMSA1 + 0x20000ull, &r));
	EXPECT_FALSE(r.vmsa);
	EXPECT_EQ(r.perms[1], 0xF);
	EXPECT_TRUE(g_can_write(m, VMSA1 + 0x20000ull));
	{
		struct sim_regs regs = {.rax = CORE(SVSM_CORE_QUERY_PROTOCOL)};

		EXPECT_EQ(sim_call(m, 2, &regs), SIM_NOT_RUNNABLE);
	}
	/* Its VMSA and CA pages are ordinary memory again. */
	EXPECT_EQ(
		g_create_vcpu(m, 0, 2, VMSA1 + 0x20000ull, VMSA1 + 0x21000ull),
		SVSM_SUCCESS);
	check_invariants(m);
}

TEST(vcpu, reonline_replaces_the_old_vmsa)
{
	struct sim_machine *m = tm_default(2);

	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	/* New VMSA for the same APIC ID while the old one still exists. */
	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA2, CA2), SVSM_SUCCESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_SUCCESS);
	EXPECT_EQ(
		g_call(m, 1, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, NULL),
		SVSM_SUCCESS);
	check_invariants(m);
}

TEST(vcpu, self_delete_never_returns)
{
	struct sim_machine *m = tm_default(2);
	struct sim_regs regs = {.rax = CORE(SVSM_CORE_DELETE_VCPU),
				.rcx = VMSA1};

	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	EXPECT_EQ(sim_call(m, 1, &regs), SIM_NOT_RUNNABLE);
	EXPECT_TRUE(g_can_write(m, VMSA1));
	EXPECT_EQ(
		g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, NULL),
		SVSM_SUCCESS);
}

TEST(vcpu, running_vmsa_is_in_use)
{
	struct sim_machine *m = tm_default(2);

	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	ASSERT_EQ(sim_vcpu_set_running(m, 1, true), SIM_OK);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_ERR_FAIL_INUSE);
	ASSERT_EQ(sim_vcpu_set_running(m, 1, false), SIM_OK);
	/* FAIL_INUSE left it whole: it still runs, then deletes. */
	EXPECT_EQ(
		g_call(m, 1, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, NULL),
		SVSM_SUCCESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_SUCCESS);
}

/* Validate @vmsa and @ca, write a VMSA, CREATE_VCPU: the raw result. */
static uint32_t try_create(struct sim_machine *m, uint64_t vmsa, uint64_t ca,
			   uint64_t apic, uint8_t vmpl, uint64_t feat,
			   uint64_t efer)
{
	uint64_t e[2] = {pv_entry(vmsa, false, true, true),
			 pv_entry(ca, false, true, true)};

	(void)g_pvalidate(m, 0, e, 2, NULL);
	if (g_can_write(m, vmsa)) {
		g_write_ap_vmsa(m, vmsa, vmpl, feat, efer);
	}
	return g_call(m, 0, CORE(SVSM_CORE_CREATE_VCPU), vmsa, ca, apic, NULL);
}

TEST(vcpu, create_rejects_bad_input)
{
	struct sim_machine *m = tm_default(2);
	uint64_t snp = SEV_FEAT_SNP_ACTIVE;
	uint64_t svsm = sim_svsm_base(m);
	struct sim_rmp_info r;

	EXPECT_EQ(try_create(m, VMSA1 + 8, CA1, 1, 1, snp, EFER_SVME),
		  SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(try_create(m, VMSA1, CA1 + 0x10, 1, 1, snp, EFER_SVME),
		  SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(try_create(m, VMSA1, VMSA1, 1, 1, snp, EFER_SVME),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(try_create(m, svsm, CA1, 1, 1, snp, EFER_SVME),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(try_create(m, VMSA1, svsm + 0x2000, 1, 1, snp, EFER_SVME),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(try_create(m, sim_vmsa_gpa(m, 0), CA1, 1, 1, snp, EFER_SVME),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(try_create(m, VMSA1, sim_initial_caa_gpa(m, 0), 1, 1, snp,
			     EFER_SVME),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(
		try_create(m, sim_guest_mem_size(m), CA1, 1, 1, snp, EFER_SVME),
		SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(try_create(m, VMSA1, CA1, 7, 1, snp, EFER_SVME),
		  SVSM_ERR_INVALID_PARAMETER); /* no such APIC ID */
	EXPECT_EQ(try_create(m, VMSA1, CA1, 1, 0, snp, EFER_SVME),
		  SVSM_ERR_INVALID_PARAMETER); /* VMPL0 */
	EXPECT_EQ(try_create(m, VMSA1, CA1, 1, 2, snp, EFER_SVME),
		  SVSM_ERR_INVALID_PARAMETER); /* not the guest's VMPL */
	EXPECT_EQ(try_create(m, VMSA1, CA1, 1, 1, snp, 0),
		  SVSM_ERR_INVALID_PARAMETER); /* EFER.SVME clear */
	EXPECT_EQ(try_create(m, VMSA1, CA1, 1, 1, 0, EFER_SVME),
		  SVSM_ERR_INVALID_PARAMETER); /* features differ */
	EXPECT_EQ(try_create(m, VMSA1, CA1, 1, 1, snp | SEV_FEAT_VMSA_REG_PROT,
			     EFER_SVME),
		  SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(try_create(m, VMSA1, CA1, 1, 1,
			     snp | SEV_FEAT_RESTRICTED_INJECTION, EFER_SVME),
		  SVSM_ERR_INVALID_PARAMETER);
	/* After each refusal the guest has its page back, fully. */
	ASSERT_TRUE(sim_rmp_query(m, VMSA1, &r));
	EXPECT_FALSE(r.vmsa);
	EXPECT_EQ(r.perms[1], 0xF);
	/* An unvalidated VMSA page or CA. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_CREATE_VCPU), 0x500000, CA1, 1,
			 NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_CREATE_VCPU), VMSA1, 0x501000, 1,
			 NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	/* A correct one still works, and cannot be created twice, nor can
	 * its CA serve another APIC ID (the same one may share it while it
	 * re-onlines: vcpu_lifetime_test.c). */
	EXPECT_EQ(try_create(m, VMSA1, CA1, 1, 1, snp, EFER_SVME),
		  SVSM_SUCCESS);
	EXPECT_EQ(
		g_call(m, 0, CORE(SVSM_CORE_CREATE_VCPU), VMSA1, CA2, 1, NULL),
		SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(try_create(m, VMSA2, CA1, 0, 1, snp, EFER_SVME),
		  SVSM_ERR_INVALID_ADDRESS);
	check_invariants(m);
}

TEST(vcpu, delete_rejects_bad_input)
{
	struct sim_machine *m = tm_default(2);

	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1 + 8, 0, 0,
			 NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), CA1, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), sim_vmsa_gpa(m, 0),
			 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER); /* the startup vCPU */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU),
			 0xFFFFFFFFFFFFF000ull, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_SUCCESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER); /* twice */
	check_invariants(m);
}
