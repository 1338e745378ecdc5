/* SPDX-License-Identifier: MIT */
/*
 * snp_acpi_load (src/plat/snp/linux/snp_acpi.c) in the simulator, whose
 * hypervisor model has no fw_cfg: every IN answers SIM_GHCB_IN_VALUE, so
 * the signature is not "QEMU". The SVSM must say so, return no RSDP and
 * leave the region zeroed, not with the bytes that were there; its fw_cfg
 * access is plain port I/O through the GHCB (the select on port 0x510),
 * then string input, which the KVM model serves as KVM does.
 * String input's reply is read as the hypervisor's: only from the copy of
 * the shared buffer, a refusal (result 2) is no termination but any other
 * non-zero result is. QEMU's real fw_cfg is exercised on the emulated
 * machine (docs/acpi.md).
 */
#include <string.h>

#include "svsm/terminate.h"

#include "abi/fw_cfg.h"
#include "abi/ghcb.h"

#include "../../src/plat/snp/ghcb.h"
#include "../../src/plat/snp/linux/snp_acpi.h"
#include "../../src/plat/snp/snp_boot.h"
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
	tm_need_snp();
	cfg.snp_ghcb = true;
	cfg.log_level = 5;
	m = tm_create(&cfg);
	g_pvalidate_range(m, 0, REGION_GPA, REGION_SIZE, true);
	memset(buf, 0xEE, sizeof(buf));
	ASSERT_EQ(sim_mem_write(m, REGION_GPA, buf, sizeof(buf)), SIM_OK);
	ASSERT_TRUE(sim_snp_run(m, load, NULL, &set, &code));
	EXPECT_EQ(rsdp, 0);
	EXPECT_TRUE(strstr(sim_console(m), "no fw_cfg") != NULL);
	EXPECT_TRUE(strstr(sim_console(m), "refuses string input") == NULL);
	sim_ghcb_get_stats(m, &s);
	EXPECT_EQ(s.last_out_port, FW_CFG_PORT_SEL);
	EXPECT_EQ(s.last_out_value, FW_CFG_SIGNATURE);
	ASSERT_EQ(sim_mem_read(m, REGION_GPA, buf, sizeof(buf)), SIM_OK);
	for (i = 0; i < sizeof(buf); i++) {
		ASSERT_EQ(buf[i], 0);
	}
}

/* --- ghcb_io_ins8 against replies the test writes (SIM_GHCB_FUZZ) --- */

#define GHCB_GPA 0x3000000ull

static struct ghcb_cpu cpu;
static uint8_t got[GHCB_SHARED_BUFFER_SIZE];
static bool ins_ok;

static void client_boot(void *arg)
{
	struct sim_machine *m = arg;

	(void)snp_check_sev_status();
	snp_check_vmpl0(gpa_init(sim_svsm_base(m) + 0x10000));
	(void)ghcb_msr_negotiate();
	(void)ghcb_msr_hv_features();
	ghcb_cpu_init(&cpu, gpa_init(GHCB_GPA));
}

static void ins(void *arg)
{
	(void)arg;
	memset(got, 0x5A, sizeof(got));
	ins_ok = ghcb_io_ins8(&cpu, FW_CFG_PORT_DATA, got, sizeof(got));
}

/* The KVM model serves `rep insb`: every byte is its IN's value. */
TEST(snp_acpi, string_input_served_by_the_kvm_model)
{
	struct sim_config cfg;
	struct sim_machine *m;
	struct sim_ghcb_stats before, after;
	unsigned i;

	sim_config_default(&cfg);
	tm_need_snp();
	cfg.snp_ghcb = false; /* the test's own GHCB at GHCB_GPA */
	m = tm_create(&cfg);
	ASSERT_TRUE(sim_snp_run(m, client_boot, m, NULL, NULL));
	sim_ghcb_get_stats(m, &before);
	ASSERT_TRUE(sim_snp_run(m, ins, NULL, NULL, NULL));
	sim_ghcb_get_stats(m, &after);
	EXPECT_TRUE(ins_ok);
	EXPECT_EQ(after.nae_calls, before.nae_calls + 1); /* one exit */
	for (i = 0; i < sizeof(got); i++) {
		ASSERT_EQ(got[i], (uint8_t)SIM_GHCB_IN_VALUE);
	}
}

/* Reply with result @result and a shared buffer of 0, 1, 2, ... */
static bool ins_with_reply(uint64_t result, uint32_t *set, uint32_t *code)
{
	static uint8_t page[4096];
	struct sim_config cfg;
	struct sim_machine *m;
	unsigned i;

	sim_config_default(&cfg);
	cfg.snp_ghcb = false; /* the test drives its own GHCB */
	m = tm_create(&cfg);
	ASSERT_TRUE(sim_snp_run(m, client_boot, m, NULL, NULL));
	memset(page, 0, sizeof(page));
	memcpy(page + GHCB_OFF_SW_EXIT_INFO_1, &result, 8);
	ghcb_page_set_valid(page, GHCB_OFF_SW_EXIT_INFO_1);
	ghcb_page_set_valid(page, GHCB_OFF_SW_EXIT_INFO_2);
	for (i = 0; i < GHCB_SHARED_BUFFER_SIZE; i++) {
		page[GHCB_OFF_SHARED_BUFFER + i] = (uint8_t)i;
	}
	sim_ghcb_fuzz_reply(m, page, sizeof(page), GHCB_GPA);
	return sim_snp_run(m, ins, NULL, set, code);
}

TEST(snp_acpi, string_input_reads_the_shared_buffer_copy)
{
	unsigned i;

	ASSERT_TRUE(ins_with_reply(GHCB_RESULT_OK, NULL, NULL));
	EXPECT_TRUE(ins_ok);
	for (i = 0; i < sizeof(got); i++) {
		ASSERT_EQ(got[i], (uint8_t)i);
	}
}

TEST(snp_acpi, string_input_refused_is_no_termination)
{
	ASSERT_TRUE(ins_with_reply(GHCB_RESULT_MALFORMED, NULL, NULL));
	EXPECT_FALSE(ins_ok);
	EXPECT_EQ(got[0], 0x5A); /* untouched */
}

TEST(snp_acpi, string_input_exception_result_terminates)
{
	uint32_t set = 0, code = 0;

	ins_ok = false;
	EXPECT_FALSE(ins_with_reply(GHCB_RESULT_EXCEPTION, &set, &code));
	EXPECT_EQ(set, TERM_SET_CSVSM);
	EXPECT_EQ(code, TERM_CSVSM_GHCB_RESPONSE);
	EXPECT_FALSE(ins_ok);
}
