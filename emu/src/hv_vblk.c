/* SPDX-License-Identifier: MIT */
#include "hv_vblk.h"

#include "host_blk.h"

void hv_vblk_init(void)
{
	(void)host_blk_init();
}
