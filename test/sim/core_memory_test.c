/* SPDX-License-Identifier: MIT */
/* SVSM_CORE_DEPOSIT_MEM and SVSM_CORE_WITHDRAW_MEM (58019 6.5, 6.6). */
#include <string.h>

#include "abi/svsm_caa.h"
#include "abi/svsm_core.h"

#include "../framework/test.h"
#include "guest.h"

#define POOL 0x2000000ull
#define OUT 0x3000000ull

static uint64_t dep_entry(uint64_t gpa, bool size_2m)
{
	return gpa | (size_2m ? 1u : 0u);
}

static uint32_t deposit(struct sim_machine *m, const uint64_t *e, unsigned n,
			uint16_t *next)
{
	uint64_t list = sim_current_caa_gpa(m, 0) + SVSM_CAA_OFF_BUFFER;

	g_write_list(m, list, (uint16_t)n, 0, e, n);
	return g_call(m, 0, CORE(SVSM_CORE_DEPOSIT_MEM), list, 0, 0, NULL) |
	       (next != NULL ? (*next = g_read_next(m, list), 0u) : 0u);
}

static uint16_t withdraw(struct sim_machine *m, uint64_t out, uint64_t *gpas)
{
	uint16_t count = 0xFFFF;

	ASSERT_EQ(g_call(m, 0, CORE(SVSM_CORE_WITHDRAW_MEM), out, 0, 0, NULL),
		  SVSM_SUCCESS);
	ASSERT_EQ(sim_mem_read(m, out, &count, 2), SIM_OK);
	if (count > 0) {
		ASSERT_EQ(sim_mem_read(m, out + 8, gpas, count * 8u), SIM_OK);
	}
	return count;
}

static uint8_t mem_available(struct sim_machine *m)
{
	uint8_t b = 0xFF;

	ASSERT_EQ(sim_mem_read(m, sim_current_caa_gpa(m, 0) + 1, &b, 1),
		  SIM_OK);
	return b;
}

TEST(memory, deposit_then_withdraw_4k)
{
	struct sim_machine *m = tm_default(1);
	static uint64_t e[20];
	static uint64_t got[511];
	static uint8_t page[4096];
	uint16_t next = 0;
	unsigned i;
	uint16_t n;

	g_pvalidate_range(m, 0, POOL, 20 * 0x1000ull, true);
	g_pvalidate_range(m, 0, OUT, 0x1000, true);
	for (i = 0; i < 20; i++) {
		memset(page, 0x77, sizeof(page));
		ASSERT_EQ(sim_mem_write(m, POOL + i * 0x1000ull, page, 4096),
			  SIM_OK);
		e[i] = dep_entry(POOL + i * 0x1000ull, false);
	}
	ASSERT_EQ(deposit(m, e, 20, &next), SVSM_SUCCESS);
	EXPECT_EQ(next, 20);
	for (i = 0; i < 20; i++) {
		/* SVSM memory now: closed to every guest VMPL. */
		ASSERT_FALSE(g_can_read(m, POOL + i * 0x1000ull));
	}
	/* Deposited pages are SVSM-owned: no call may name them. */
	{
		uint64_t pv = pv_entry(POOL, false, false, false);

		EXPECT_EQ(g_pvalidate(m, 0, &pv, 1, NULL),
			  SVSM_ERR_INVALID_ADDRESS);
		EXPECT_EQ(deposit(m, e, 1, NULL), SVSM_ERR_INVALID_ADDRESS);
		EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_REMAP_CA), POOL, 0, 0,
				 NULL),
			  SVSM_ERR_INVALID_ADDRESS);
		EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_WITHDRAW_MEM), POOL, 0, 0,
				 NULL),
			  SVSM_ERR_INVALID_ADDRESS);
	}
	/* Room for 5: five come back, and mem_available says more wait. */
	n = withdraw(m, OUT + 0x1000 - 8 - 5 * 8, got);
	EXPECT_EQ(n, 5);
	EXPECT_EQ(mem_available(m), 1);
	n += withdraw(m, OUT, got + 5);
	EXPECT_EQ(n, 20);
	EXPECT_EQ(mem_available(m), 0);
	EXPECT_EQ(withdraw(m, OUT, got + 20), 0);
	for (i = 0; i < 20; i++) {
		size_t b;

		ASSERT_EQ(got[i] & 0xFFF, 0);
		ASSERT_EQ(sim_mem_read(m, got[i], page, 4096), SIM_OK);
		for (b = 0; b < 4096; b++) {
			ASSERT_EQ(page[b], 0); /* zeroed before return */
		}
		ASSERT_TRUE(g_can_write(m, got[i]));
	}
	check_invariants(m);
}

TEST(memory, deposit_2m)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint64_t e = dep_entry(POOL, true);
	uint64_t got[4] = {0};

	sim_config_default(&cfg);
	cfg.rmp_2m = true;
	m = tm_create(&cfg);
	EXPECT_EQ(g_linux_pval_2m(m, 0, POOL, 1, true), 0);
	EXPECT_EQ(g_linux_pval_2m(m, 0, OUT, 1, true), 0);
	ASSERT_EQ(deposit(m, &e, 1, NULL), SVSM_SUCCESS);
	EXPECT_FALSE(g_can_read(m, POOL + 0x1FF000));
	EXPECT_EQ(withdraw(m, OUT, got), 1);
	EXPECT_EQ(got[0], POOL | WITHDRAW_ENTRY_SIZE_2M);
	EXPECT_TRUE(g_can_write(m, POOL + 0x1FF000));
}

TEST(memory, bad_deposits)
{
	struct sim_machine *m = tm_default(1);
	uint64_t svsm = sim_svsm_base(m);
	uint64_t e[2];
	uint16_t next = 0;

	g_pvalidate_range(m, 0, POOL, 0x2000, true);
	e[0] = dep_entry(POOL, false);
	e[1] = POOL + 0x1000 + 0x4; /* reserved bit 2 */
	EXPECT_EQ(deposit(m, e, 2, &next), SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(next, 1);
	e[0] = dep_entry(POOL + 0x1000, false);
	e[1] = (POOL + 0x1000) | 2; /* size 2 */
	EXPECT_EQ(deposit(m, &e[1], 1, &next), SVSM_ERR_INVALID_PARAMETER);
	e[1] = dep_entry(POOL + 0x1000, true); /* 2M not aligned */
	EXPECT_EQ(deposit(m, &e[1], 1, NULL), SVSM_ERR_INVALID_PARAMETER);
	e[1] = dep_entry(svsm, false);
	EXPECT_EQ(deposit(m, &e[1], 1, NULL), SVSM_ERR_INVALID_ADDRESS);
	e[1] = dep_entry(sim_current_caa_gpa(m, 0), false);
	EXPECT_EQ(deposit(m, &e[1], 1, NULL), SVSM_ERR_INVALID_ADDRESS);
	e[1] = dep_entry(0x5000000, false); /* not validated */
	EXPECT_EQ(deposit(m, &e[1], 1, NULL), SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_WITHDRAW_MEM),
			 POOL + 0x1000 + 0xFF8, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER); /* no room for one entry */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_WITHDRAW_MEM), POOL + 0x1004, 0,
			 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_WITHDRAW_MEM), svsm, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	/* The page deposited at the start of this test is still held. */
	EXPECT_FALSE(g_can_read(m, POOL));
	/* Output over a Calling Area's control bytes; its buffer is fine. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_WITHDRAW_MEM),
			 sim_current_caa_gpa(m, 0), 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_WITHDRAW_MEM),
			 sim_current_caa_gpa(m, 0) + 8, 0, 0, NULL),
		  SVSM_SUCCESS);
	EXPECT_TRUE(g_can_read(m, POOL)); /* returned through the CA */
	check_invariants(m);
}

/*
 * When its heap runs out, the SVSM asks for memory with 0x4000_0000 + N
 * (58019 Table 4) instead of failing; after DEPOSIT_MEM the same call
 * succeeds, the heap living on the deposited page, which then cannot be
 * withdrawn while in use.
 */
TEST(memory, out_of_heap_asks_for_a_deposit)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint64_t gpa = 0x4000000ull; /* above OUT */
	uint64_t got[8];
	uint32_t ret = SVSM_SUCCESS;
	unsigned created = 0;

	sim_config_default(&cfg);
	cfg.guest_mem_size = 256ull << 20;
	cfg.svsm_size = 1ull << 20;
	cfg.vcpu_count = 2;
	m = tm_create(&cfg);
	g_pvalidate_range(m, 0, OUT, 0x1000, true);
	/* Each VMSA of APIC 1 costs the SVSM one small record. */
	while (ret == SVSM_SUCCESS && gpa + 0x2000 < cfg.guest_mem_size) {
		uint64_t e[2] = {pv_entry(gpa, false, true, false),
				 pv_entry(gpa + 0x1000, false, true, false)};

		ASSERT_EQ(g_pvalidate(m, 0, e, 2, NULL), SVSM_SUCCESS);
		g_write_ap_vmsa(m, gpa, 1, SEV_FEAT_SNP_ACTIVE, EFER_SVME);
		ret = g_call(m, 0, CORE(SVSM_CORE_CREATE_VCPU), gpa,
			     gpa + 0x1000, 1, NULL);
		if (ret == SVSM_SUCCESS) {
			created++;
			gpa += 0x2000;
		}
	}
	ASSERT_EQ(ret, SVSM_RESULT_NEED_MEMORY(1));
	ASSERT_TRUE(created > 1000);
	/* The refused VMSA page is the guest's again. */
	EXPECT_TRUE(g_can_write(m, gpa));
	{
		uint64_t pool = cfg.guest_mem_size - 0x100000;
		uint64_t d = dep_entry(pool, false);

		g_pvalidate_range(m, 0, pool, 0x1000, true);
		ASSERT_EQ(deposit(m, &d, 1, NULL), SVSM_SUCCESS);
		EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_CREATE_VCPU), gpa,
				 gpa + 0x1000, 1, NULL),
			  SVSM_SUCCESS);

		/* The SVSM is using it: nothing to withdraw. */
		EXPECT_EQ(withdraw(m, OUT, got), 0);
		EXPECT_FALSE(g_can_read(m, pool));
	}
	check_invariants(m);
}
