/* SPDX-License-Identifier: MIT */
/* SVSM_CORE_REMAP_CA (58019 6.1) as Linux uses it and misuses of it. */
#include "abi/svsm_caa.h"

#include "../framework/test.h"
#include "guest.h"

#define BOOT_CA 0x200000ull
#define PERCPU_CA 0x201000ull

TEST(remap_ca, linux_sequence)
{
	struct sim_machine *m = tm_default(1);
	uint64_t fw_ca = sim_initial_caa_gpa(m, 0);
	uint8_t hdr[8];

	g_pvalidate_range(m, 0, BOOT_CA, 0x2000, true);
	/* Early boot: firmware CA -> the kernel's boot_svsm_ca_page. */
	ASSERT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), BOOT_CA, 0, 0, NULL),
		  SVSM_SUCCESS);
	EXPECT_EQ(sim_current_caa_gpa(m, 0), BOOT_CA);
	ASSERT_EQ(sim_mem_read(m, fw_ca, hdr, 1), SIM_OK);
	EXPECT_EQ(hdr[0], 0); /* old CA: call_pending cleared */
	ASSERT_EQ(sim_mem_read(m, BOOT_CA, hdr, 8), SIM_OK);
	EXPECT_EQ(hdr[0] | hdr[1] | hdr[7], 0);
	/* sev_es_init_vc_handling(): the BSP moves to its per-CPU CA. */
	ASSERT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), PERCPU_CA, 0, 0, NULL),
		  SVSM_SUCCESS);
	EXPECT_EQ(sim_current_caa_gpa(m, 0), PERCPU_CA);
	/* Calls now run on the new CA; the old one is plain memory again. */
	EXPECT_EQ(
		g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, NULL),
		SVSM_SUCCESS);
	g_pvalidate_range(m, 0, BOOT_CA, 0x1000, false);
	/* Remapping to the current CA changes nothing. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), PERCPU_CA, 0, 0, NULL),
		  SVSM_SUCCESS);
	check_invariants(m);
}

TEST(remap_ca, bad_addresses)
{
	struct sim_machine *m = tm_default(2);
	uint64_t svsm = sim_svsm_base(m);
	uint64_t top = sim_guest_mem_size(m);

	g_pvalidate_range(m, 0, BOOT_CA, 0x2000, true);
	EXPECT_EQ(
		g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), BOOT_CA + 8, 0, 0, NULL),
		SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), svsm, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), svsm + 0x3FF000, 0, 0,
			 NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), top, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), 0xFFFFFFFFFFFFF000ull,
			 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	/* Not validated: the SVSM cannot use it, so it refuses it. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), 0x300000, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	/* Its own VMSA, and another vCPU's CA. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), sim_vmsa_gpa(m, 0), 0,
			 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	ASSERT_EQ(g_create_vcpu(m, 0, 1, 0x400000, 0x401000), SVSM_SUCCESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), 0x401000, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), 0x400000, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	/* After all that, the vCPU still works on its original CA. */
	EXPECT_EQ(sim_current_caa_gpa(m, 0), sim_initial_caa_gpa(m, 0));
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), BOOT_CA, 0, 0, NULL),
		  SVSM_SUCCESS);
	check_invariants(m);
}
