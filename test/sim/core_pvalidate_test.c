/* SPDX-License-Identifier: MIT */
/*
 * SVSM_CORE_PVALIDATE (58019 6.2) as Linux drives it (svsm_pval_pages:
 * lists of up to 510 entries in the CA buffer, ignore_cf = 0, the 2 MiB to
 * 4 KiB fallback), and every class of bad input.
 */
#include <string.h>

#include "svsm/plat.h"

#include "abi/svsm_caa.h"

#include "../framework/test.h"
#include "guest.h"

#define RAM 0x2000000ull /* 32 MiB: above the SVSM region */

static uint64_t list_gpa(struct sim_machine *m)
{
	return sim_current_caa_gpa(m, 0) + SVSM_CAA_OFF_BUFFER;
}

TEST(pvalidate, batch_of_510_validates_zeroes_and_grants)
{
	struct sim_machine *m = tm_default(1);
	static uint64_t e[510];
	static uint8_t page[4096];
	static const uint8_t zero[4096];
	uint16_t next = 0;
	unsigned i;

	for (i = 0; i < 510; i++) {
		e[i] = pv_entry(RAM + i * 0x1000ull, false, true, false);
		ASSERT_FALSE(g_can_read(m, RAM + i * 0x1000ull));
	}
	ASSERT_EQ(g_pvalidate(m, 0, e, 510, &next), SVSM_SUCCESS);
	EXPECT_EQ(next, 510);
	for (i = 0; i < 510; i++) {
		struct sim_rmp_info r;

		ASSERT_TRUE(sim_rmp_query(m, RAM + i * 0x1000ull, &r));
		ASSERT_TRUE(r.validated);
		ASSERT_EQ(r.perms[1], 0xF);
		ASSERT_EQ(r.perms[2], 0);
		/* The hypervisor's stale contents are gone. */
		ASSERT_EQ(sim_mem_read(m, RAM + i * 0x1000ull, page, 4096),
			  SIM_OK);
		ASSERT_EQ(memcmp(page, zero, 4096), 0);
	}
	/* Invalidate the lot: no guest access survives. */
	for (i = 0; i < 510; i++) {
		e[i] = pv_entry(RAM + i * 0x1000ull, false, false, false);
	}
	ASSERT_EQ(g_pvalidate(m, 0, e, 510, &next), SVSM_SUCCESS);
	for (i = 0; i < 510; i++) {
		struct sim_rmp_info r;

		ASSERT_TRUE(sim_rmp_query(m, RAM + i * 0x1000ull, &r));
		ASSERT_FALSE(r.validated);
		ASSERT_EQ(r.perms[1], 0);
	}
	check_invariants(m);
}

TEST(pvalidate, double_validate_is_fatal_unless_ignore_cf)
{
	struct sim_machine *m = tm_default(1);
	uint64_t e[3] = {pv_entry(RAM, false, true, false),
			 pv_entry(RAM + 0x1000, false, true, false),
			 pv_entry(RAM + 0x2000, false, true, false)};
	uint16_t next = 0;
	uint8_t mark = 0x5A;

	ASSERT_EQ(g_pvalidate(m, 0, &e[1], 1, &next), SVSM_SUCCESS);
	ASSERT_EQ(sim_mem_write(m, RAM + 0x1000, &mark, 1), SIM_OK);
	/* Entry 1 is already valid: 0x80001010 with next on it. */
	EXPECT_EQ(g_pvalidate(m, 0, e, 3, &next),
		  SVSM_PVALIDATE_FAIL_UNCHANGED);
	EXPECT_EQ(next, 1);
	EXPECT_TRUE(g_can_read(m, RAM));	   /* entry 0 was done */
	EXPECT_FALSE(g_can_read(m, RAM + 0x2000)); /* entry 2 was not */
	e[1] |= 8;				   /* ignore_cf */
	EXPECT_EQ(g_pvalidate(m, 0, &e[1], 2, &next), SVSM_SUCCESS);
	EXPECT_EQ(next, 2);
	/* An unchanged page keeps the guest's data: no zeroing. */
	mark = 0;
	ASSERT_EQ(sim_mem_read(m, RAM + 0x1000, &mark, 1), SIM_OK);
	EXPECT_EQ(mark, 0x5A);
	/* Invalidating twice is the same error. */
	e[0] = pv_entry(RAM, false, false, false);
	EXPECT_EQ(g_pvalidate(m, 0, e, 1, NULL), SVSM_SUCCESS);
	EXPECT_EQ(g_pvalidate(m, 0, e, 1, NULL), SVSM_PVALIDATE_FAIL_UNCHANGED);
}

TEST(pvalidate, linux_2m_fallback_on_4k_rmp)
{
	struct sim_machine *m = tm_default(1);
	uint64_t e = pv_entry(RAM, true, true, false);
	uint16_t next = 0xFF;

	/* The hypervisor backed RAM with 4 KiB RMP entries: a 2 MiB entry
	 * fails with SIZEMISMATCH and `next` stays on it (Linux needs it). */
	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, &next),
		  SVSM_PVALIDATE_FAIL_SIZEMISMATCH);
	EXPECT_EQ(next, 0);
	EXPECT_EQ(g_linux_pval_2m(m, 0, RAM, 4, true), 4);
	EXPECT_TRUE(g_can_write(m, RAM));
	EXPECT_TRUE(g_can_write(m, RAM + 4 * 0x200000ull - 1));
	EXPECT_EQ(g_linux_pval_2m(m, 0, RAM, 4, false), 4);
	EXPECT_FALSE(g_can_read(m, RAM + 0x1000));
	check_invariants(m);
}

TEST(pvalidate, native_2m_pages)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint64_t e[2] = {pv_entry(RAM, true, true, false),
			 pv_entry(RAM + 0x200000, true, true, false)};
	uint64_t small = pv_entry(RAM + 0x1000, false, false, false);
	static uint8_t buf[0x200000];
	uint64_t i;

	sim_config_default(&cfg);
	cfg.rmp_2m = true;
	m = tm_create(&cfg);
	EXPECT_EQ(g_linux_pval_2m(m, 0, RAM, 2, true), 0);
	ASSERT_EQ(sim_mem_read(m, RAM + 0x200000, buf, sizeof(buf)), SIM_OK);
	for (i = 0; i < sizeof(buf); i++) {
		ASSERT_EQ(buf[i], 0);
	}
	/* A 4 KiB entry inside a 2 MiB RMP entry: #NPF(SIZEM) on hardware
	 * (APM vol. 3 PVALIDATE), KVM PSMASHes (sev_handle_rmp_fault())
	 * and the re-executed PVALIDATE succeeds: no FAIL_SIZEMISMATCH. */
	EXPECT_EQ(g_pvalidate(m, 0, &small, 1, NULL), SVSM_SUCCESS);
	EXPECT_FALSE(g_can_read(m, RAM + 0x1000));
	EXPECT_TRUE(g_can_read(m, RAM));
	/* The entries are 4 KiB now: a 2 MiB entry over them mismatches. */
	e[0] = pv_entry(RAM, true, false, false);
	EXPECT_EQ(g_pvalidate(m, 0, e, 1, NULL),
		  SVSM_PVALIDATE_FAIL_SIZEMISMATCH);
	/* The next 2 MiB entry is whole; after PSMASH it takes 4 KiB. */
	e[1] = pv_entry(RAM + 0x200000, true, false, false);
	EXPECT_EQ(g_pvalidate(m, 0, &e[1], 1, NULL), SVSM_SUCCESS);
	ASSERT_EQ(sim_hv_psmash(m, RAM + 0x200000), SIM_OK);
	small = pv_entry(RAM + 0x201000, false, true, false);
	EXPECT_EQ(g_pvalidate(m, 0, &small, 1, NULL), SVSM_SUCCESS);
	check_invariants(m);
}

TEST(pvalidate, resume_from_next)
{
	struct sim_machine *m = tm_default(1);
	uint64_t e[4];
	unsigned i;

	for (i = 0; i < 4; i++) {
		e[i] = pv_entry(RAM + i * 0x1000ull, false, true, false);
	}
	/* As after INCOMPLETE: the guest re-issues with next = 2. */
	g_write_list(m, list_gpa(m), 4, 2, e, 4);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), list_gpa(m), 0, 0,
			 NULL),
		  SVSM_SUCCESS);
	EXPECT_EQ(g_read_next(m, list_gpa(m)), 4);
	EXPECT_FALSE(g_can_read(m, RAM));
	EXPECT_FALSE(g_can_read(m, RAM + 0x1000));
	EXPECT_TRUE(g_can_read(m, RAM + 0x2000));
	EXPECT_TRUE(g_can_read(m, RAM + 0x3000));
}

TEST(pvalidate, bad_lists)
{
	struct sim_machine *m = tm_default(1);
	uint64_t list = list_gpa(m);
	uint64_t page = sim_current_caa_gpa(m, 0);
	uint64_t e = pv_entry(RAM, false, true, false);

	/* Unaligned list, no entries, next >= entries. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), list + 4, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	g_write_list(m, list, 0, 0, NULL, 0);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), list, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	g_write_list(m, list, 1, 1, &e, 1);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), list, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	/* More entries than fit, and a list crossing its page. */
	g_write_list(m, list, 511, 0, &e, 1);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), list, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	g_write_list(m, page + 0xFF0, 2, 0, &e, 1);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), page + 0xFF0, 0, 0,
			 NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	g_write_list(m, list, 0xFFFF, 0, &e, 1);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), list, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	/* The list itself in SVSM memory, beyond RAM, in unvalidated RAM,
	 * or at an address that wraps. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), sim_svsm_base(m) + 8,
			 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), sim_guest_mem_size(m),
			 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), RAM, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), 0xFFFFFFFFFFFFFFF8ull,
			 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	/* A list over the CA's control bytes (call_pending...). */
	g_write_list(m, page, 1, 0, &e, 1);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), page, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_FALSE(g_can_read(m, RAM));
	check_invariants(m);
}

TEST(pvalidate, bad_entries_stop_at_their_index)
{
	struct sim_machine *m = tm_default(2);
	uint64_t svsm = sim_svsm_base(m);
	uint64_t ok = pv_entry(RAM, false, true, true);
	const uint64_t bad[] = {
		RAM | 2 | 4,		/* page size 2 */
		RAM | 3 | 4,		/* page size 3 */
		RAM | 4 | 0x10,		/* reserved bit 4 */
		RAM | 4 | 0x800,	/* reserved bit 11 */
		(RAM + 0x1000) | 1 | 4, /* 2M not aligned */
	};
	const uint64_t bad_addr[] = {
		pv_entry(svsm, false, true, false),
		pv_entry(svsm + 0x1000, false, false, false),
		pv_entry(svsm, true, false, false),
		pv_entry(sim_initial_caa_gpa(m, 0), false, false, false),
		pv_entry(sim_vmsa_gpa(m, 0), false, false, false),
		pv_entry(sim_guest_mem_size(m), false, true, false),
		pv_entry(0xFFFFFFFFFFE00000ull, true, true, false),
		pv_entry(0xFFFFFFFFFFFFF000ull, false, true, false),
		pv_entry(0x400000, false, false, false), /* an AP's VMSA */
		pv_entry(0x401000, false, false, false), /* an AP's CA */
	};
	uint64_t e[2];
	uint16_t next = 0;
	unsigned i;

	ASSERT_EQ(g_create_vcpu(m, 0, 1, 0x400000, 0x401000), SVSM_SUCCESS);
	e[0] = ok;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		e[1] = bad[i];
		EXPECT_EQ(g_pvalidate(m, 0, e, 2, &next),
			  SVSM_ERR_INVALID_PARAMETER);
		EXPECT_EQ(next, 1);
	}
	for (i = 0; i < sizeof(bad_addr) / sizeof(bad_addr[0]); i++) {
		e[1] = bad_addr[i];
		EXPECT_EQ(g_pvalidate(m, 0, e, 2, &next),
			  SVSM_ERR_INVALID_ADDRESS);
		EXPECT_EQ(next, 1);
	}
	/* A page the hypervisor holds (shared): the instruction fails. */
	ASSERT_EQ(sim_hv_page_state(m, RAM + 0x5000, false, false), SIM_OK);
	e[1] = pv_entry(RAM + 0x5000, false, true, false);
	EXPECT_EQ(g_pvalidate(m, 0, e, 2, &next), SVSM_PVALIDATE_FAIL_INPUT);
	EXPECT_EQ(next, 1);
	/* The machine is still fine. */
	e[1] = pv_entry(RAM + 0x6000, false, true, false);
	EXPECT_EQ(g_pvalidate(m, 0, e, 2, &next), SVSM_SUCCESS);
	check_invariants(m);
}

/* A walk keeps an ownership window (svsm/ownership.h) for consecutive
 * entries: it must still stop on the first VMSA or CA page it reaches,
 * coming from either side, and on a 2 MiB entry the window cannot hold. */
TEST(pvalidate, walk_stops_at_a_vmsa_or_ca_beside_its_pages)
{
	struct sim_machine *m = tm_default(2);
	const uint64_t up[] = {
		pv_entry(RAM, false, true, false),
		pv_entry(RAM + 0x1000, false, true, false),
		pv_entry(RAM + 0x2000, false, true, false),
		pv_entry(RAM + 0x3000, false, true, true), /* the VMSA */
	};
	const uint64_t down[] = {
		pv_entry(RAM + 0x7000, false, true, false),
		pv_entry(RAM + 0x6000, false, true, false),
		pv_entry(RAM + 0x5000, false, true, true), /* the CA */
	};
	const uint64_t between[] = {
		pv_entry(RAM + 0x4000, false, true, false),
		pv_entry(RAM, true, true, true), /* 2 MiB over both */
	};
	uint16_t next = 0;

	ASSERT_EQ(g_create_vcpu(m, 0, 1, RAM + 0x3000, RAM + 0x5000),
		  SVSM_SUCCESS);
	EXPECT_EQ(g_pvalidate(m, 0, up, 4, &next), SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(next, 3);
	EXPECT_EQ(g_pvalidate(m, 0, down, 3, &next), SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(next, 2);
	EXPECT_EQ(g_pvalidate(m, 0, between, 2, &next),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(next, 1);
	EXPECT_FALSE(g_can_write(m, RAM + 0x3000));
	check_invariants(m);
}

TEST(pvalidate, entry_invalidating_its_own_list_page)
{
	struct sim_machine *m = tm_default(1);
	uint64_t e = pv_entry(RAM, false, true, false);
	uint64_t self = pv_entry(RAM, false, false, false);

	ASSERT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_SUCCESS);
	g_write_list(m, RAM, 1, 0, &self, 1);
	/* The page goes, so `next` cannot be written back. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_PVALIDATE), RAM, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_FALSE(g_can_read(m, RAM));
	check_invariants(m);
}

/*
 * The guest's PVALIDATE ends in the linked platform's instruction. With
 * the snp platform (csvsm-tests-snp) the core's plat_pvalidate is
 * plat_snp.c's, the firmware's own, whose one PVALIDATE goes through the
 * seam snp_hw.h to the simulated CPU (sim/src/model/snp_insn_sim.c), which
 * counts it; with the sim platform plat_sim.c answers and the seam is
 * never reached.
 */
TEST(pvalidate, ends_in_the_linked_platforms_instruction)
{
	struct sim_machine *m = tm_default(1);
	struct sim_config cfg;
	struct sim_stats before, after;
	struct sim_rmp_info r;
	uint64_t e = pv_entry(RAM, false, true, false);
	uint16_t next = 0;

	sim_config_default(&cfg);
	sim_get_stats(m, &before);
	ASSERT_EQ(g_pvalidate(m, 0, &e, 1, &next), SVSM_SUCCESS);
	sim_get_stats(m, &after);
	ASSERT_TRUE(sim_rmp_query(m, RAM, &r));
	EXPECT_TRUE(r.validated);
	EXPECT_EQ(after.snp_pvalidates - before.snp_pvalidates,
		  cfg.snp_ghcb ? 1 : 0);
	if (cfg.snp_ghcb) {
		/* The snp boot validated the SVSM's own pages the same way. */
		EXPECT_NE(before.snp_pvalidates, 0);
	} else {
		EXPECT_EQ(after.snp_pvalidates, 0);
	}
}

struct probe {
	uint64_t gpa;
	bool read, write, xchg;
};

static void probe_access(void *arg)
{
	struct probe *p = arg;
	uint8_t buf[8] = {0}, old = 0;

	p->read = plat_guest_read(gpa_init(p->gpa), buf, sizeof(buf));
	p->write = plat_guest_write(gpa_init(p->gpa), buf, sizeof(buf));
	p->xchg = plat_guest_xchg_u8(gpa_init(p->gpa), 0, &old);
}

static bool svsm_can_touch(struct sim_machine *m, uint64_t gpa)
{
	struct probe p = {.gpa = gpa};

	ASSERT_TRUE(sim_snp_run(m, probe_access, &p, NULL, NULL));
	ASSERT_EQ(p.read, p.write);
	ASSERT_EQ(p.read, p.xchg);
	return p.read;
}

/*
 * The SVSM's private accesses to guest memory fail, rather than fault,
 * where hardware would raise #VC (a page not validated) or #NPF (a page
 * the hypervisor owns) or find nothing mapped (past RAM): through
 * plat_snp.c and the seam with the snp platform, plat_sim.c otherwise.
 */
TEST(pvalidate, svsm_touches_only_validated_guest_pages)
{
	struct sim_machine *m = tm_default(1);
	uint64_t e[2] = {pv_entry(RAM, false, true, false),
			 pv_entry(RAM + 0x1000, false, true, false)};

	EXPECT_FALSE(svsm_can_touch(m, RAM));
	ASSERT_EQ(g_pvalidate(m, 0, e, 2, NULL), SVSM_SUCCESS);
	EXPECT_TRUE(svsm_can_touch(m, RAM));
	EXPECT_TRUE(svsm_can_touch(m, RAM + 0x1000));
	EXPECT_FALSE(svsm_can_touch(m, sim_guest_mem_size(m)));
	/* The hypervisor takes the second page back (shared): #NPF. */
	ASSERT_EQ(sim_hv_page_state(m, RAM + 0x1000, false, false), SIM_OK);
	EXPECT_FALSE(svsm_can_touch(m, RAM + 0x1000));
	EXPECT_TRUE(svsm_can_touch(m, RAM));
}
