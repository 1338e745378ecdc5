/* SPDX-License-Identifier: MIT */
/*
 * Which platform answers svsm/plat.h in this link: the sim platform's
 * plat_sim.c. Linked only into libcsvsm_sim.a; its twin, which says
 * true, is snp_linked.c.
 */
#include "sim_harness.h"

bool sim_platform_snp(void)
{
	return false;
}
