/* SPDX-License-Identifier: MIT */
/*
 * Which platform answers svsm/plat.h in this link: the snp platform's
 * own plat_snp.c. Linked only into libcsvsm_sim_snp.a; its twin, which
 * says false, is sim_linked.c.
 */
#include "sim_harness.h"

bool sim_platform_snp(void)
{
	return true;
}
