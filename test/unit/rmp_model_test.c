/* SPDX-License-Identifier: MIT */
/*
 * The SNP model against the instruction rules of AMD APM vol. 3 (PVALIDATE,
 * RMPADJUST) and the facts in shared/spec/svsm-interfaces.md section 8.
 */
#include "svsm/snpmodel.h"

#include "abi/snp.h"

#include "../framework/test.h"

#define PAGES 2048u /* 8 MiB */

static struct rmp_entry entries[PAGES];
static struct rmp rmp;

static void fresh(void)
{
	rmp_init(&rmp, entries, PAGES);
}

TEST(rmp_model, pvalidate_sets_and_reports_unchanged)
{
	bool unchanged = true;

	fresh();
	ASSERT_EQ(rmp_hv_assign(&rmp, 0x3000, false), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x3000, 0, true, &unchanged), 0);
	EXPECT_FALSE(unchanged);
	EXPECT_TRUE(rmp_lookup(&rmp, 0x3000)->flags & RMP_F_VALIDATED);
	/* CF=1, EAX=0: already validated. */
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x3000, 0, true, &unchanged), 0);
	EXPECT_TRUE(unchanged);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x3000, 0, false, &unchanged), 0);
	EXPECT_FALSE(unchanged);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x3000, 0, false, &unchanged), 0);
	EXPECT_TRUE(unchanged);
}

TEST(rmp_model, pvalidate_failures)
{
	bool unchanged;

	fresh();
	/* Hypervisor-owned page, misaligned 2M, bad size, out of range. */
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x5000, 0, true, &unchanged),
		  SNP_RET_FAIL_INPUT);
	ASSERT_EQ(rmp_hv_assign(&rmp, 0x200000, true), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x201000, 1, true, &unchanged),
		  SNP_RET_FAIL_INPUT);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x200000, 2, true, &unchanged),
		  SNP_RET_FAIL_INPUT);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, PAGES * 4096ull, 0, true, &unchanged),
		  SNP_RET_FAIL_INPUT);
	/* A 4K request on a 2M entry is #NPF(SIZEM), not an EAX result;
	 * a 2M request on 4K entries is FAIL_SIZEMISMATCH (the 2M cases
	 * are below: rmp_model.pvalidate_4k_on_2m_entry_faults...). */
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x201000, 0, true, &unchanged),
		  RMP_NPF_SIZEM);
	ASSERT_EQ(rmp_hv_assign(&rmp, 0x400000, false), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x400000, 1, true, &unchanged),
		  SNP_RET_FAIL_SIZEMISMATCH);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x200000, 1, true, &unchanged), 0);
	EXPECT_TRUE(rmp_lookup(&rmp, 0x3FF000)->flags & RMP_F_VALIDATED);
	/* Only VMPL0 may PVALIDATE. */
	EXPECT_TRUE(rmp_pvalidate_faults_at(1));
	EXPECT_FALSE(rmp_pvalidate_faults_at(0));
	/* PSMASH keeps state and makes 4K entries. */
	ASSERT_EQ(rmp_hv_psmash(&rmp, 0x200000), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x201000, 0, false, &unchanged), 0);
	EXPECT_FALSE(unchanged);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x200000, 1, true, &unchanged),
		  SNP_RET_FAIL_SIZEMISMATCH);
}

TEST(rmp_model, rmpadjust_vmpl_rules)
{
	fresh();
	ASSERT_EQ(rmp_launch_page(&rmp, 0x1000), SNP_RET_SUCCESS);
	/* Target must be numerically higher than the caller. */
	EXPECT_EQ(rmp_rmpadjust(&rmp, 1, 0x1000, 0, 1 | RMPADJUST_RWX),
		  SNP_RET_FAIL_PERMISSION);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x1000, 0, 0 | RMPADJUST_READ),
		  SNP_RET_FAIL_PERMISSION);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x1000, 0, 4), SNP_RET_FAIL_INPUT);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x1000, 0, 1 | (1ull << 20)),
		  SNP_RET_FAIL_INPUT);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x1000, 0,
				1 | RMPADJUST_READ | RMPADJUST_WRITE),
		  SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_lookup(&rmp, 0x1000)->perms[1], 3);
	/* VMPL1 may pass on at most what it has. */
	EXPECT_EQ(rmp_rmpadjust(&rmp, 1, 0x1000, 0, 2 | RMPADJUST_RWX),
		  SNP_RET_FAIL_PERMISSION);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 1, 0x1000, 0, 2 | RMPADJUST_READ),
		  SNP_RET_SUCCESS);
	/* The VMSA bit is ignored below VMPL0. */
	EXPECT_EQ(rmp_rmpadjust(&rmp, 1, 0x1000, 0,
				2 | RMPADJUST_READ | RMPADJUST_VMSA),
		  SNP_RET_SUCCESS);
	EXPECT_FALSE(rmp_lookup(&rmp, 0x1000)->flags & RMP_F_VMSA);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x1000, 0,
				1 | RMPADJUST_READ | RMPADJUST_VMSA),
		  SNP_RET_SUCCESS);
	EXPECT_TRUE(rmp_lookup(&rmp, 0x1000)->flags & RMP_F_VMSA);
	/* A running VMSA keeps its VMSA bit. */
	rmp_vmsa_set_in_use(&rmp, 0x1000, true);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x1000, 0, 1), SNP_RET_FAIL_INUSE);
	rmp_vmsa_set_in_use(&rmp, 0x1000, false);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x1000, 0, 1), SNP_RET_SUCCESS);
	EXPECT_FALSE(rmp_lookup(&rmp, 0x1000)->flags & RMP_F_VMSA);
}

TEST(rmp_model, access_checks)
{
	fresh();
	EXPECT_EQ(rmp_check_access(&rmp, 0, 0x1000, RMP_PERM_READ),
		  RMP_FAULT_NPF);
	EXPECT_EQ(rmp_check_shared_access(&rmp, 0x1000), RMP_ACCESS_OK);
	ASSERT_EQ(rmp_hv_assign(&rmp, 0x1000, false), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_check_shared_access(&rmp, 0x1000), RMP_FAULT_NPF);
	EXPECT_EQ(rmp_check_access(&rmp, 0, 0x1000, RMP_PERM_READ),
		  RMP_FAULT_NOT_VALIDATED);
	ASSERT_EQ(rmp_launch_page(&rmp, 0x1000), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_check_access(&rmp, 0, 0x1000, RMP_PERM_WRITE),
		  RMP_ACCESS_OK);
	EXPECT_EQ(rmp_check_access(&rmp, 1, 0x1000, RMP_PERM_READ),
		  RMP_FAULT_NPF);
	ASSERT_EQ(rmp_rmpadjust(&rmp, 0, 0x1000, 0, 1 | RMPADJUST_RWX), 0);
	EXPECT_EQ(rmp_check_access(&rmp, 1, 0x1000,
				   RMP_PERM_WRITE | RMP_PERM_EXEC_SUPER),
		  RMP_ACCESS_OK);
	EXPECT_EQ(rmp_check_access(&rmp, 2, 0x1000, RMP_PERM_READ),
		  RMP_FAULT_NPF);
	/* Even with write permission, a VMSA page is not guest-writable. */
	ASSERT_EQ(rmp_rmpadjust(&rmp, 0, 0x1000, 0,
				1 | RMPADJUST_RWX | RMPADJUST_VMSA),
		  0);
	EXPECT_EQ(rmp_check_access(&rmp, 1, 0x1000, RMP_PERM_WRITE),
		  RMP_FAULT_NPF);
	EXPECT_EQ(rmp_check_access(&rmp, 1, 0x1000, RMP_PERM_READ),
		  RMP_ACCESS_OK);
	EXPECT_EQ(rmp_check_access(&rmp, 0, 0x1000, RMP_PERM_WRITE),
		  RMP_ACCESS_OK);
}

/*
 * rmp_vmpl_access() is what emu maps into the guest's nested page tables:
 * it must allow exactly what the access checks allow, for every VMPL and
 * every reachable RMP state (assigned or not, validated or not, VMSA, all
 * 16 permission sets).
 */
TEST(rmp_model, vmpl_access_mask_equals_access_checks)
{
	static const unsigned perm_bits[] = {RMP_PERM_READ, RMP_PERM_WRITE,
					     RMP_PERM_EXEC_USER,
					     RMP_PERM_EXEC_SUPER};
	unsigned state;
	unsigned vmpl;
	unsigned i;

	for (state = 0; state < 4 * 2 * 16; state++) {
		uint64_t gpa = 0x5000;
		unsigned kind = state % 4; /* shared, assigned, valid, VMSA */
		unsigned perms = (state / 8) % 16;
		struct rmp_entry *e;

		fresh();
		if (kind != 0) {
			ASSERT_EQ(rmp_hv_assign(&rmp, gpa, false),
				  SNP_RET_SUCCESS);
		}
		if (kind >= 2) {
			ASSERT_EQ(rmp_launch_page(&rmp, gpa), SNP_RET_SUCCESS);
		}
		e = &entries[gpa / SNP_PAGE_SIZE];
		if (kind == 3) {
			e->flags |= RMP_F_VMSA;
		}
		for (vmpl = 1; vmpl < SNP_VMPL_COUNT; vmpl++) {
			e->perms[vmpl] = (uint8_t)perms;
		}
		if ((state / 4) % 2 == 1) {
			e->perms[2] = 0; /* VMPLs differ */
		}
		for (vmpl = 0; vmpl < SNP_VMPL_COUNT; vmpl++) {
			unsigned mask = rmp_vmpl_access(&rmp, vmpl, gpa);

			EXPECT_EQ((mask & RMP_ACCESS_SHARED) != 0,
				  rmp_check_shared_access(&rmp, gpa) ==
					  RMP_ACCESS_OK);
			for (i = 0; i < 4; i++) {
				bool ok = rmp_check_access(&rmp, vmpl, gpa,
							   perm_bits[i]) ==
					  RMP_ACCESS_OK;

				EXPECT_EQ((mask & perm_bits[i]) != 0, ok);
			}
		}
	}
}
