/* SPDX-License-Identifier: MIT */
/* QUERY_PROTOCOL, CONFIGURE_VTOM and dispatch (58019 6.7, 6.8, Table 4). */
#include "../framework/test.h"
#include "guest.h"

TEST(query, protocol_versions)
{
	struct sim_machine *m = tm_default(1);
	struct sim_regs r;

	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, &r),
		  SVSM_SUCCESS);
	EXPECT_EQ(r.rcx, (1ull << 32) | 1ull); /* core: versions 1..1 */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 0, 0, 0, &r), 0);
	EXPECT_EQ(r.rcx, 0);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), 2, 0, 0, &r), 0);
	EXPECT_EQ(r.rcx, 0);
	/* Attestation: the PSP's VMPCK0 is there, versions 1..1. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), (1ull << 32) | 1,
			 0, 0, &r),
		  0);
	EXPECT_EQ(r.rcx, (1ull << 32) | 1ull);
	/* Not offered: vTPM (this machine has none), APIC, unknown. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL), (2ull << 32) | 1,
			 0, 0, &r),
		  0);
	EXPECT_EQ(r.rcx, 0);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_QUERY_PROTOCOL),
			 (0xFFFFFFFFull << 32) | 1, 0, 0, &r),
		  0);
	EXPECT_EQ(r.rcx, 0);
}

TEST(query, unknown_protocols_and_calls)
{
	struct sim_machine *m = tm_default(1);
	const uint32_t protocols[] = {2, 3, 4, 99, 0x80000000u, 0xFFFFFFFFu};
	unsigned i;

	for (i = 0; i < sizeof(protocols) / sizeof(protocols[0]); i++) {
		EXPECT_EQ(
			g_call(m, 0, SVSM_CALL(protocols[i], 0), 0, 0, 0, NULL),
			SVSM_ERR_UNSUPPORTED_PROTOCOL);
	}
	EXPECT_EQ(g_call(m, 0, CORE(8), 0, 0, 0, NULL),
		  SVSM_ERR_UNSUPPORTED_CALL);
	EXPECT_EQ(g_call(m, 0, CORE(0xFFFFFFFFu), 0, 0, 0, NULL),
		  SVSM_ERR_UNSUPPORTED_CALL);
}

TEST(query, configure_vtom)
{
	struct sim_machine *m = tm_default(1);
	static struct snp_vmsa v;
	struct sim_regs r;
	uint64_t min;

	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_CONFIGURE_VTOM), 1, 0, 0, &r),
		  SVSM_SUCCESS);
	EXPECT_EQ(r.rcx & 2, 2);	     /* supported */
	EXPECT_EQ((r.rcx >> 12) & 0xFF, 21); /* 2 MiB alignment */
	min = r.rdx;
	EXPECT_TRUE(min >= sim_svsm_base(m) + sim_svsm_size(m));
	EXPECT_TRUE(r.r8 > min);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_CONFIGURE_VTOM), min | 0x20, 0, 0,
			 NULL),
		  SVSM_ERR_INVALID_PARAMETER); /* reserved bit 5 */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_CONFIGURE_VTOM),
			 (min + 0x1000) | 2, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS); /* not 2 MiB aligned */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_CONFIGURE_VTOM),
			 (min - 0x200000) | 2, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS); /* below the SVSM's top */
	{
		struct sim_regs in = {.rax = CORE(SVSM_CORE_CONFIGURE_VTOM),
				      .rcx = min | 2 | 4 | 8 | 0x10,
				      .rdx = 0x9000,
				      .r8 = 0x1234,
				      .r9 = 0x8000};

		ASSERT_EQ(sim_call(m, 0, &in), SIM_OK);
		EXPECT_EQ((uint32_t)in.rax, SVSM_SUCCESS);
	}
	ASSERT_EQ(sim_vmsa_read(m, 0, &v), SIM_OK);
	EXPECT_EQ(v.virtual_tom, min);
	EXPECT_TRUE(v.sev_features & SEV_FEAT_VTOM);
	EXPECT_EQ(v.cr3, 0x9000);
	EXPECT_EQ(v.rip, 0x1234);
	EXPECT_EQ(v.rsp, 0x8000);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_CONFIGURE_VTOM), 0, 0, 0, NULL),
		  SVSM_SUCCESS); /* disable */
	ASSERT_EQ(sim_vmsa_read(m, 0, &v), SIM_OK);
	EXPECT_FALSE(v.sev_features & SEV_FEAT_VTOM);
}

TEST(query, configure_vtom_needs_one_vcpu)
{
	struct sim_machine *m = tm_default(2);

	ASSERT_EQ(g_create_vcpu(m, 0, 1, 0x400000, 0x401000), SVSM_SUCCESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_CONFIGURE_VTOM), 0, 0, 0, NULL),
		  SVSM_ERR_INVALID_REQUEST);
}
