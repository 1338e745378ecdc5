/* SPDX-License-Identifier: MIT */
/*
 * A Linux guest in memory the hypervisor backs with 2 MiB RMP entries and
 * the guest validated 2 MiB at a time: one page made shared, and a VMSA
 * put there. Each 4 KiB PVALIDATE or RMPADJUST the SVSM makes on such a
 * page raises #NPF with SIZEM on hardware (AMD APM vol. 3, PVALIDATE and
 * RMPADJUST); KVM PSMASHes the entry and the instruction re-executes
 * (Linux arch/x86/kvm/svm/sev.c, sev_handle_rmp_fault()). The guest sees
 * success, never FAIL_SIZEMISMATCH.
 */
#include "../framework/test.h"
#include "guest.h"

#define RAM 0x2000000ull /* 32 MiB: above the SVSM region */
#define SPAN_2M 0x200000ull

/* A machine whose RAM at RAM is two 2 MiB entries, validated 2 MiB at a
 * time through SVSM_CORE_PVALIDATE (no 4 KiB fallback). */
static struct sim_machine *validated_2m(unsigned vcpus)
{
	struct sim_config cfg;
	struct sim_machine *m;
	struct sim_rmp_info r;

	sim_config_default(&cfg);
	cfg.rmp_2m = true;
	cfg.vcpu_count = vcpus;
	m = tm_create(&cfg);
	EXPECT_EQ(g_linux_pval_2m(m, 0, RAM, 2, true), 0);
	ASSERT_TRUE(sim_rmp_query(m, RAM + 0x5000, &r));
	ASSERT_TRUE(r.size_2m);
	ASSERT_TRUE(r.validated);
	return m;
}

/*
 * Linux's set_memory_decrypted() of one page (svsm_pval_4k_page, then the
 * PSC): PVALIDATE(invalidate) of a 4 KiB entry through the SVSM, then the
 * hypervisor's 4 KiB page-state change, which KVM does after a PSMASH
 * (sev_gmem_invalidate(), snp_rmptable_psmash()). APM vol. 3 PVALIDATE:
 * the 4 KiB PVALIDATE on the 2 MiB entry is #NPF(SIZEM), not
 * FAIL_SIZEMISMATCH; KVM's sev_handle_rmp_fault() smashes it.
 */
TEST(rmp_2m, one_page_shared_inside_2m_validated_memory)
{
	struct sim_machine *m = validated_2m(1);
	uint64_t page = RAM + 0x5000;
	uint64_t e = pv_entry(page, false, false, false);
	struct sim_rmp_info r;

	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_SUCCESS);
	ASSERT_TRUE(sim_rmp_query(m, page, &r));
	EXPECT_FALSE(r.size_2m);
	EXPECT_FALSE(r.validated);
	EXPECT_FALSE(g_can_read(m, page));
	ASSERT_EQ(sim_hv_page_state(m, page, false, false), SIM_OK);
	ASSERT_TRUE(sim_rmp_query(m, page, &r));
	EXPECT_FALSE(r.assigned);
	/* The other 511 pages keep their validation and the guest's access. */
	EXPECT_TRUE(g_can_write(m, RAM));
	EXPECT_TRUE(g_can_write(m, page - 0x1000));
	EXPECT_TRUE(g_can_write(m, page + 0x1000));
	EXPECT_TRUE(g_can_write(m, RAM + SPAN_2M - 1));
	ASSERT_TRUE(sim_rmp_query(m, page + 0x1000, &r));
	EXPECT_FALSE(r.size_2m);
	EXPECT_TRUE(r.validated);
	/* The next 2 MiB entry is untouched. */
	ASSERT_TRUE(sim_rmp_query(m, RAM + SPAN_2M, &r));
	EXPECT_TRUE(r.size_2m);
	/* And back (set_memory_encrypted): PSC to private, then validate. */
	ASSERT_EQ(sim_hv_page_state(m, page, false, true), SIM_OK);
	e = pv_entry(page, false, true, false);
	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_SUCCESS);
	EXPECT_TRUE(g_can_write(m, page));
	check_invariants(m);
}

/*
 * Linux's AP bring-up with the VMSA page allocated from 2 MiB-validated
 * memory (wakeup_cpu_via_vmgexit, snp_set_vmsa): CREATE_VCPU's 4 KiB
 * RMPADJUSTs (revoke, then the VMSA bit) on a 2 MiB entry fault with
 * SIZEM on hardware (APM vol. 3 RMPADJUST) and succeed once KVM's
 * sev_handle_rmp_fault() has PSMASHed it.
 */
TEST(rmp_2m, create_vcpu_with_vmsa_inside_2m_validated_memory)
{
	struct sim_machine *m = validated_2m(2);
	uint64_t vmsa = RAM + SPAN_2M + 0x42000;
	uint64_t caa = RAM + 0x3000;
	struct sim_rmp_info r;

	g_write_ap_vmsa(m, vmsa, 1, SEV_FEAT_SNP_ACTIVE, EFER_SVME);
	ASSERT_EQ(g_call(m, 0, CORE(SVSM_CORE_CREATE_VCPU), vmsa, caa, 1, NULL),
		  SVSM_SUCCESS);
	ASSERT_EQ(sim_ap_create(m, 1, vmsa, caa), SIM_OK);
	ASSERT_TRUE(sim_rmp_query(m, vmsa, &r));
	EXPECT_TRUE(r.vmsa);
	EXPECT_FALSE(r.size_2m);
	EXPECT_FALSE(g_can_write(m, vmsa));
	EXPECT_TRUE(g_can_write(m, vmsa + 0x1000));
	EXPECT_TRUE(g_can_write(m, vmsa - 0x1000));
	EXPECT_EQ(
		g_call(m, 1, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0, NULL),
		SVSM_SUCCESS);
	check_invariants(m);
	/* DELETE_VCPU: the page is ordinary 4 KiB memory again. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), vmsa, 0, 0, NULL),
		  SVSM_SUCCESS);
	EXPECT_TRUE(g_can_write(m, vmsa));
	check_invariants(m);
}
