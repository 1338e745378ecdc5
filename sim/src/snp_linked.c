/* SPDX-License-Identifier: MIT */
/*
 * Which platform answers svsm/plat.h in this link: the snp platform's
 * own plat_snp.c. Linked only into libcsvsm_sim_snp.a; its twin, which
 * says false, is the sim platform's (src/plat/sim/plat_sim.c).
 */
#include "sim_internal.h"

bool sim_platform_snp(void)
{
	return true;
}
