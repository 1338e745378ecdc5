/* SPDX-License-Identifier: MIT */
/*
 * The SNP model against the instruction rules of AMD APM vol. 3 (PVALIDATE,
 * RMPADJUST) and their use by Linux (arch/x86/include/asm/sev.h) and
 * COCONUT-SVSM (kernel/src/sev/utils.rs).
 */
#include "abi/snp.h"

#include "model/snpmodel.h"

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

/*
 * 2 MiB RMP entries. AMD APM vol. 3, PVALIDATE and RMPADJUST: a 4 KiB
 * operation on a page whose RMP entry is 2 MiB does not return an EAX
 * result; it raises #NPF with the SIZEM bit (error code bit 35, KVM's
 * PFERR_GUEST_SIZEM_MASK). KVM's sev_handle_rmp_fault() (Linux
 * arch/x86/kvm/svm/sev.c) PSMASHes the entry and resumes the guest, and
 * the instruction re-executes. FAIL_SIZEMISMATCH (6) is for a 2 MiB
 * operation over 4 KiB entries. PSMASH (APM vol. 3) makes 512 4 KiB
 * entries with the 2 MiB entry's state.
 */
static bool page_validated(uint64_t gpa)
{
	return (rmp_lookup(&rmp, gpa)->flags & RMP_F_VALIDATED) != 0;
}

static bool page_2m(uint64_t gpa)
{
	return (rmp_lookup(&rmp, gpa)->flags & RMP_F_SIZE_2M) != 0;
}

/* A 2 MiB entry at @gpa, validated by a 2 MiB PVALIDATE. */
static void validated_2m(uint64_t gpa)
{
	bool unchanged;

	fresh();
	ASSERT_EQ(rmp_hv_assign(&rmp, gpa, true), SNP_RET_SUCCESS);
	ASSERT_EQ(rmp_pvalidate(&rmp, 0, gpa, RMP_PG_SIZE_2M, true, &unchanged),
		  SNP_RET_SUCCESS);
}

/* APM vol. 3 PVALIDATE (#NPF on a larger RMP entry); KVM
 * sev_handle_rmp_fault() PSMASH; the re-executed PVALIDATE succeeds. */
TEST(rmp_model, pvalidate_4k_on_2m_entry_faults_then_smash_succeeds)
{
	bool unchanged;
	uint64_t gpa;

	validated_2m(0x200000);
	/* The instruction: a fault for the hypervisor, nothing changed. */
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x203000, RMP_PG_SIZE_4K, false,
				&unchanged),
		  RMP_NPF_SIZEM);
	EXPECT_NE(RMP_NPF_SIZEM, SNP_RET_FAIL_SIZEMISMATCH);
	EXPECT_TRUE(page_validated(0x203000));
	EXPECT_TRUE(page_2m(0x203000));
	/* The hypervisor's part, then the re-execution. */
	ASSERT_EQ(rmp_hv_npf_sizem(&rmp, 0x203000), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x203000, RMP_PG_SIZE_4K, false,
				&unchanged),
		  SNP_RET_SUCCESS);
	EXPECT_FALSE(unchanged);
	for (gpa = 0x200000; gpa < 0x400000; gpa += SNP_PAGE_SIZE) {
		EXPECT_FALSE(page_2m(gpa));
		EXPECT_EQ(page_validated(gpa), gpa != 0x203000);
	}
	/* Both together, as the guest sees it: one call, success. */
	validated_2m(0x200000);
	EXPECT_EQ(rmp_guest_pvalidate(&rmp, 0, 0x3FF000, RMP_PG_SIZE_4K, false,
				      &unchanged),
		  SNP_RET_SUCCESS);
	EXPECT_FALSE(page_validated(0x3FF000));
	EXPECT_TRUE(page_validated(0x3FE000));
	EXPECT_TRUE(page_validated(0x200000));
}

/* APM vol. 3 RMPADJUST (#NPF on a larger RMP entry); KVM
 * sev_handle_rmp_fault(). The VMSA bit (a VMSA is one 4 KiB page) works
 * after the smash, and the neighbours keep their permissions. */
TEST(rmp_model, rmpadjust_4k_on_2m_entry_faults_then_smash_succeeds)
{
	uint64_t attrs = 1 | RMPADJUST_RWX;
	uint64_t vmsa = 1 | RMPADJUST_READ | RMPADJUST_VMSA;
	uint64_t gpa;

	validated_2m(0x200000);
	ASSERT_EQ(rmp_rmpadjust(&rmp, 0, 0x200000, RMP_PG_SIZE_2M, attrs),
		  SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x210000, RMP_PG_SIZE_4K, vmsa),
		  RMP_NPF_SIZEM);
	EXPECT_EQ(rmp_lookup(&rmp, 0x210000)->flags & RMP_F_VMSA, 0);
	ASSERT_EQ(rmp_hv_npf_sizem(&rmp, 0x210000), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x210000, RMP_PG_SIZE_4K, vmsa),
		  SNP_RET_SUCCESS);
	for (gpa = 0x200000; gpa < 0x400000; gpa += SNP_PAGE_SIZE) {
		const struct rmp_entry *e = rmp_lookup(&rmp, gpa);

		EXPECT_TRUE(e->flags & RMP_F_VALIDATED);
		EXPECT_EQ((e->flags & RMP_F_VMSA) != 0, gpa == 0x210000);
		EXPECT_EQ(e->perms[1],
			  gpa == 0x210000 ? RMP_PERM_READ : RMP_PERM_ALL);
	}
	/* The guest's view, for a VMSA in 2 MiB-validated memory. */
	validated_2m(0x400000);
	EXPECT_EQ(rmp_guest_rmpadjust(&rmp, 0, 0x5FF000, RMP_PG_SIZE_4K, vmsa),
		  SNP_RET_SUCCESS);
	EXPECT_TRUE(rmp_lookup(&rmp, 0x5FF000)->flags & RMP_F_VMSA);
	EXPECT_EQ(rmp_check_access(&rmp, 1, 0x5FF000, RMP_PERM_READ),
		  RMP_ACCESS_OK);
	EXPECT_EQ(rmp_check_access(&rmp, 1, 0x5FF000, RMP_PERM_WRITE),
		  RMP_FAULT_NPF);
	EXPECT_TRUE(page_validated(0x400000));
}

/* APM vol. 3 PVALIDATE: FAIL_SIZEMISMATCH when the instruction's page
 * size (2 MiB) is larger than the RMP entries' (4 KiB). */
TEST(rmp_model, pvalidate_2m_over_4k_entries_is_sizemismatch)
{
	bool unchanged;
	uint64_t gpa;

	fresh();
	for (gpa = 0x200000; gpa < 0x400000; gpa += SNP_PAGE_SIZE) {
		ASSERT_EQ(rmp_hv_assign(&rmp, gpa, false), SNP_RET_SUCCESS);
	}
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x200000, RMP_PG_SIZE_2M, true,
				&unchanged),
		  SNP_RET_FAIL_SIZEMISMATCH);
	EXPECT_EQ(rmp_guest_pvalidate(&rmp, 0, 0x200000, RMP_PG_SIZE_2M, true,
				      &unchanged),
		  SNP_RET_FAIL_SIZEMISMATCH);
	EXPECT_EQ(rmp_rmpadjust(&rmp, 0, 0x200000, RMP_PG_SIZE_2M,
				1 | RMPADJUST_RWX),
		  SNP_RET_FAIL_SIZEMISMATCH);
	EXPECT_FALSE(page_validated(0x200000));
	/* A smashed 2 MiB entry is 4 KiB entries too: one 4K PVALIDATE
	 * inside it, then 2 MiB over the range mismatches. */
	validated_2m(0x200000);
	ASSERT_EQ(rmp_guest_pvalidate(&rmp, 0, 0x380000, RMP_PG_SIZE_4K, false,
				      &unchanged),
		  SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x200000, RMP_PG_SIZE_2M, false,
				&unchanged),
		  SNP_RET_FAIL_SIZEMISMATCH);
}

/* APM vol. 3 PVALIDATE: the RMP check covers the whole 2 MiB page; a page
 * of it not assigned to the guest is an RMP violation (#NPF; the model's
 * FAIL_INPUT), not a validation of the rest. */
TEST(rmp_model, pvalidate_2m_with_unassigned_page_fails)
{
	bool unchanged;
	uint64_t gpa;

	fresh();
	ASSERT_EQ(rmp_hv_assign(&rmp, 0x200000, true), SNP_RET_SUCCESS);
	entries[0x3FF000 / SNP_PAGE_SIZE].flags = 0; /* the last page */
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x200000, RMP_PG_SIZE_2M, true,
				&unchanged),
		  SNP_RET_FAIL_INPUT);
	/* 4 KiB entries with one hypervisor-owned page: also a failure. */
	fresh();
	for (gpa = 0x200000; gpa < 0x400000; gpa += SNP_PAGE_SIZE) {
		if (gpa != 0x250000) {
			ASSERT_EQ(rmp_hv_assign(&rmp, gpa, false),
				  SNP_RET_SUCCESS);
		}
	}
	EXPECT_NE(rmp_pvalidate(&rmp, 0, 0x200000, RMP_PG_SIZE_2M, true,
				&unchanged),
		  SNP_RET_SUCCESS);
	for (gpa = 0x200000; gpa < 0x400000; gpa += SNP_PAGE_SIZE) {
		EXPECT_FALSE(page_validated(gpa));
	}
}

/* APM vol. 3 PSMASH: 512 4 KiB entries with the 2 MiB entry's state. */
TEST(rmp_model, psmash_keeps_validated_and_perms_on_all_512)
{
	uint64_t gpa;

	validated_2m(0x200000);
	ASSERT_EQ(rmp_rmpadjust(&rmp, 0, 0x200000, RMP_PG_SIZE_2M,
				2 | RMPADJUST_READ | RMPADJUST_WRITE),
		  SNP_RET_SUCCESS);
	ASSERT_EQ(rmp_hv_psmash(&rmp, 0x200000), SNP_RET_SUCCESS);
	for (gpa = 0x200000; gpa < 0x400000; gpa += SNP_PAGE_SIZE) {
		const struct rmp_entry *e = rmp_lookup(&rmp, gpa);

		EXPECT_EQ(e->flags, RMP_F_ASSIGNED | RMP_F_VALIDATED);
		EXPECT_EQ(e->perms[1], 0);
		EXPECT_EQ(e->perms[2], RMP_PERM_READ | RMP_PERM_WRITE);
	}
	/* PSMASH of 4 KiB entries is refused. */
	EXPECT_EQ(rmp_hv_psmash(&rmp, 0x200000), SNP_RET_FAIL_INPUT);
}

/* The hypervisor's page-state change of one 4 KiB page inside a 2 MiB
 * entry: KVM PSMASHes first (sev_gmem_invalidate(), snp_rmptable_psmash()
 * in arch/x86/kvm/svm/sev.c), because RMPUPDATE of a 4 KiB page inside a
 * 2 MiB entry fails (Linux RMPUPDATE_FAIL_OVERLAP). */
TEST(rmp_model, hv_psc_4k_inside_2m_smashes_and_keeps_511_validated)
{
	uint64_t gpa;

	validated_2m(0x200000);
	/* The bare RMPUPDATE is refused and changes nothing. */
	EXPECT_EQ(rmp_hv_unassign(&rmp, 0x234000, false), SNP_RET_FAIL_OVERLAP);
	EXPECT_TRUE(page_2m(0x234000));
	EXPECT_TRUE(page_validated(0x234000));
	ASSERT_EQ(rmp_hv_page_state(&rmp, 0x234000, false, false),
		  SNP_RET_SUCCESS);
	for (gpa = 0x200000; gpa < 0x400000; gpa += SNP_PAGE_SIZE) {
		const struct rmp_entry *e = rmp_lookup(&rmp, gpa);

		EXPECT_FALSE(e->flags & RMP_F_SIZE_2M);
		if (gpa == 0x234000) {
			EXPECT_EQ(e->flags, 0); /* shared */
		} else {
			EXPECT_EQ(e->flags, RMP_F_ASSIGNED | RMP_F_VALIDATED);
		}
	}
	/* Back to private: assigned, not validated; the rest unchanged. */
	ASSERT_EQ(rmp_hv_page_state(&rmp, 0x234000, false, true),
		  SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_lookup(&rmp, 0x234000)->flags, RMP_F_ASSIGNED);
	EXPECT_TRUE(page_validated(0x233000));
	EXPECT_TRUE(page_validated(0x235000));
}

/* Banks (emu's guest memory: RAM, then windows such as OVMF's volume
 * below 4 GiB and an SVSM region at 512 GiB): each a run of entries after
 * the others', every operation on the page's own entry, nothing between
 * them, a 2 MiB entry whole in its bank. */
TEST(rmp_model, banks_map_their_gpas_to_their_own_entries)
{
	const uint64_t fw = 0xFFE00000ull, svsm = 512ull << 30;
	uint64_t index = 0;
	bool unchanged;

	rmp_init(&rmp, entries, 512); /* 2 MiB of RAM from 0 */
	ASSERT_TRUE(rmp_add_bank(&rmp, fw, 512));
	ASSERT_TRUE(rmp_add_bank(&rmp, svsm, 1024));
	EXPECT_EQ(rmp.page_count, 2048u);
	/* Refused: overlapping, unaligned, partial 2 MiB, at 2^52. */
	EXPECT_FALSE(rmp_add_bank(&rmp, fw, 512));
	EXPECT_FALSE(rmp_add_bank(&rmp, 0x40001000ull, 512));
	EXPECT_FALSE(rmp_add_bank(&rmp, 0x40000000ull, 100));
	EXPECT_FALSE(rmp_add_bank(&rmp, 1ull << 52, 512));
	EXPECT_EQ(rmp.banks, 3u);
	ASSERT_TRUE(rmp_index(&rmp, fw + 0x5123, &index));
	EXPECT_EQ(index, 512u + 5u);
	ASSERT_TRUE(rmp_index(&rmp, svsm + 0x200000, &index));
	EXPECT_EQ(index, 1024u + 512u);
	/* Between the banks there is no memory. */
	EXPECT_FALSE(rmp_index(&rmp, 0x200000, &index));
	EXPECT_TRUE(rmp_lookup(&rmp, fw - 4096) == NULL);
	EXPECT_TRUE(rmp_lookup(&rmp, svsm + 1024 * 4096ull) == NULL);
	EXPECT_TRUE(rmp_backed(&rmp, fw, 512 * 4096ull));
	EXPECT_FALSE(rmp_backed(&rmp, fw, 512 * 4096ull + 1));
	EXPECT_FALSE(rmp_backed(&rmp, 0x1FF000, 0x2000)); /* RAM's end */
	/* A 2 MiB assign in the SVSM bank, a 4 KiB validate there: SIZEM
	 * first, as in RAM; the firmware bank's entries stay untouched. */
	EXPECT_EQ(rmp_hv_assign(&rmp, svsm + 0x200000, true), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, svsm + 0x201000, 0, true, &unchanged),
		  RMP_NPF_SIZEM);
	EXPECT_EQ(rmp_hv_psmash(&rmp, svsm + 0x200000), SNP_RET_SUCCESS);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, svsm + 0x201000, 0, true, &unchanged),
		  SNP_RET_SUCCESS);
	EXPECT_TRUE(entries[1024 + 512 + 1].flags & RMP_F_VALIDATED);
	EXPECT_EQ(rmp_lookup(&rmp, fw)->flags, 0u);
	EXPECT_EQ(rmp_pvalidate(&rmp, 0, 0x200000, 0, true, &unchanged),
		  SNP_RET_FAIL_INPUT);
}
