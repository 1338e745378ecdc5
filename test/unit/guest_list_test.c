/* SPDX-License-Identifier: MIT */
/* List header rules of 58019 section 6.2 (Table 6), on the pure checker. */
#include "svsm/guest_list.h"

#include "../framework/test.h"

TEST(guest_list, header_rules)
{
	EXPECT_EQ(guest_list_check(0, 1, 0), SVSM_OK);
	EXPECT_EQ(guest_list_check(8, 510, 509), SVSM_OK); /* Linux: CAA+8 */
	EXPECT_EQ(guest_list_check(0, 511, 0), SVSM_OK);   /* a full page */
	EXPECT_EQ(guest_list_check(0, 512, 0), SVSM_E_INVAL);
	EXPECT_EQ(guest_list_check(8, 511, 0), SVSM_E_INVAL); /* crosses */
	EXPECT_EQ(guest_list_check(4080, 1, 0), SVSM_OK);
	EXPECT_EQ(guest_list_check(4088, 1, 0), SVSM_E_INVAL);
	EXPECT_EQ(guest_list_check(4, 1, 0), SVSM_E_INVAL); /* unaligned */
	EXPECT_EQ(guest_list_check(0, 0, 0), SVSM_E_INVAL); /* no entries */
	EXPECT_EQ(guest_list_check(0, 5, 5), SVSM_E_INVAL); /* next == n */
	EXPECT_EQ(guest_list_check(0, 5, 0xFFFF), SVSM_E_INVAL);
	EXPECT_EQ(guest_list_check(0, 0xFFFF, 0), SVSM_E_INVAL);
}
