/* SPDX-License-Identifier: MIT */
/*
 * snp_acpi_load (src/plat/snp/snp_acpi.c) in the simulator, whose
 * hypervisor model has no fw_cfg: every IN answers SIM_GHCB_IN_VALUE, so
 * the signature is not "QEMU". The SVSM must say so, return no RSDP and
 * leave the region zeroed, not with the bytes that were there; its fw_cfg
 * access is plain port I/O through the GHCB (the select on port 0x510).
 * QEMU's real fw_cfg is exercised on the emulated machine (docs/acpi.md).
 */
#include <string.h>

#include "abi/ghcb.h"

#include "../../src/plat/snp/snp_acpi.h"
#include "../framework/test.h"
#include "guest.h"

#define REGION_GPA 0x3100000ull
#define REGION_SIZE 0x3000ull

static uint64_t rsdp = 1;

static void load(void *arg)
{
	(void)arg;
	rsdp = snp_acpi_load(REGION_GPA, REGION_SIZE);
}

TEST(snp_acpi, no_fw_cfg_gives_no_rsdp_and_a_zeroed_region)
{
	struct sim_config cfg;
	struct sim_machine *m;
	struct sim_ghcb_stats s;
	static uint8_t buf[REGION_SIZE];
	uint32_t set = 0, code = 0;
	size_t i;

	sim_config_default(&cfg);
	cfg.snp_ghcb = true;
	cfg.log_level = 5;
	m = tm_create(&cfg);
	g_pvalidate_range(m, 0, REGION_GPA, REGION_SIZE, true);
	memset(buf, 0xEE, sizeof(buf));
	ASSERT_EQ(sim_mem_write(m, REGION_GPA, buf, sizeof(buf)), SIM_OK);
	ASSERT_TRUE(sim_snp_run(m, load, NULL, &set, &code));
	EXPECT_EQ(rsdp, 0);
	EXPECT_TRUE(strstr(sim_console(m), "no fw_cfg") != NULL);
	sim_ghcb_get_stats(m, &s);
	EXPECT_EQ(s.last_out_port, 0x510);
	EXPECT_EQ(s.last_out_value, 0); /* FW_CFG_SIGNATURE */
	ASSERT_EQ(sim_mem_read(m, REGION_GPA, buf, sizeof(buf)), SIM_OK);
	for (i = 0; i < sizeof(buf); i++) {
		ASSERT_EQ(buf[i], 0);
	}
}
