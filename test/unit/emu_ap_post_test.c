/* SPDX-License-Identifier: MIT */
/*
 * emu's AP Creation posts (emu/src/machine/ap_post.c), against what a
 * multi-VMPL KVM does with AP Creation (GHCB 56421 4.1.9; KVM's per-plane
 * snp_vmsa_gpa): a request per VMPL of the target, each taken at the
 * target's next turn, a later one for the same VMPL superseding. The
 * machine before this had one slot per vCPU: a VMPL1 creation arriving
 * before the target took the SVSM's VMPL0 one overwrote it, and the AP
 * would have run its guest VMSA with no SVSM under it.
 */
#include "../../emu/src/machine/ap_post.c"
#include "../framework/test.h"

TEST(emu_ap_post, both_vmpls_taken)
{
	struct ap_posts p = {0};
	struct ap_post got[AP_POST_VMPLS];

	ASSERT_TRUE(ap_post_put(&p, 0, 0x10000, false));
	ASSERT_TRUE(ap_post_put(&p, 1, 0x20000, false));
	ASSERT_TRUE(ap_post_any(&p));
	EXPECT_EQ(ap_post_take(&p, got), 2u);
	EXPECT_TRUE(got[0].taken);
	EXPECT_EQ(got[0].vmsa, 0x10000ull);
	EXPECT_TRUE(got[1].taken);
	EXPECT_EQ(got[1].vmsa, 0x20000ull);
	EXPECT_FALSE(got[2].taken);
	EXPECT_FALSE(got[3].taken);
	EXPECT_FALSE(ap_post_any(&p));
	EXPECT_EQ(ap_post_take(&p, got), 0u);
	EXPECT_FALSE(got[0].taken);
}

TEST(emu_ap_post, later_request_for_a_vmpl_supersedes)
{
	struct ap_posts p = {0};
	struct ap_post got[AP_POST_VMPLS];

	ASSERT_TRUE(ap_post_put(&p, 1, 0x20000, false));
	ASSERT_TRUE(ap_post_put(&p, 1, 0x30000, false));
	EXPECT_EQ(ap_post_take(&p, got), 1u);
	EXPECT_EQ(got[1].vmsa, 0x30000ull);
	/* A destroy after a create leaves no VMSA; the VMPL0 post stays. */
	ASSERT_TRUE(ap_post_put(&p, 0, 0x10000, false));
	ASSERT_TRUE(ap_post_put(&p, 1, 0x40000, false));
	ASSERT_TRUE(ap_post_put(&p, 1, 0x40000, true));
	EXPECT_EQ(ap_post_take(&p, got), 2u);
	EXPECT_EQ(got[0].vmsa, 0x10000ull);
	EXPECT_FALSE(got[0].destroy);
	EXPECT_TRUE(got[1].destroy);
	EXPECT_EQ(got[1].vmsa, 0ull);
}

TEST(emu_ap_post, vmpl_out_of_range_posts_nothing)
{
	struct ap_posts p = {0};

	EXPECT_FALSE(ap_post_put(&p, AP_POST_VMPLS, 0x10000, false));
	EXPECT_FALSE(ap_post_any(&p));
}
