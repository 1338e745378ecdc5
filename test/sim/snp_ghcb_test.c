/* SPDX-License-Identifier: MIT */
/*
 * The snp platform's GHCB client (src/plat/snp/) against the simulator's
 * hypervisor model playing KVM (sim/src/model/ghcb_hv.c): the honest paths, and
 * one test per hostile behaviour, each of which must end in its named
 * termination (svsm/terminate.h, GHCB reason sets) before any lie is
 * used. Truths: the GHCB specification's layouts and codes (spec notes 7)
 * and the RMP model's view of each page afterwards.
 */
#include <string.h>

#include "svsm/plat.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"
#include "abi/snp.h"

#include "../../src/plat/snp/ghcb.h"
#include "../../src/plat/snp/snp_boot.h"
#include "../../src/plat/snp/snp_hw.h"
#include "../framework/test.h"
#include "guest.h"

#define GHCB_GPA 0x3000000ull
#define PAGES_GPA 0x3100000ull
#define REQ_GPA 0x3200000ull

static struct ghcb_cpu cpu;

/* A machine whose SVSM does not itself use the GHCB (these tests drive
 * the client alone, on their own GHCB page), in either test mode. */
static struct sim_machine *client_machine(void)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.snp_ghcb = false;
	return tm_create(&cfg);
}

static void boot(void *arg)
{
	struct sim_machine *m = arg;

	(void)snp_check_sev_status();
	snp_check_vmpl0(gpa_init(sim_svsm_base(m) + 0x10000));
	EXPECT_EQ(ghcb_msr_negotiate(), 51);
	(void)ghcb_msr_hv_features();
	ghcb_cpu_init(&cpu, gpa_init(GHCB_GPA));
}

/* Boot under @b; true if it got through. */
static bool boot_as(struct sim_machine *m, enum sim_ghcb_behaviour b,
		    uint32_t *set, uint32_t *code)
{
	sim_ghcb_set_behaviour(m, b);
	return sim_snp_run(m, boot, m, set, code);
}

static bool page_is(struct sim_machine *m, uint64_t gpa, bool assigned,
		    bool validated)
{
	struct sim_rmp_info i;

	return sim_rmp_query(m, gpa, &i) && i.assigned == assigned &&
	       i.validated == validated;
}

static unsigned g_pages;
static void share_pages(void *arg)
{
	(void)arg;
	snp_make_shared(&cpu, gpa_init(PAGES_GPA), g_pages);
}

static void private_pages(void *arg)
{
	(void)arg;
	snp_make_private(&cpu, gpa_init(PAGES_GPA), g_pages);
}

static void run_vmpl_both(void *arg)
{
	(void)arg;
	ghcb_msr_run_vmpl(1);
	ghcb_run_vmpl(&cpu, 1);
}

#define AP_VMSA_GPA 0x3300000ull

/* The model starts only a page VMPL0 made a VMSA, for a vCPU it has. */
static void ap_create(void *arg)
{
	bool unchanged = false;

	(void)arg;
	ASSERT_EQ(plat_pvalidate(gpa_init(AP_VMSA_GPA), PAGE_4K, true,
				 &unchanged),
		  SNP_RET_SUCCESS);
	ASSERT_EQ(plat_rmpadjust(gpa_init(AP_VMSA_GPA), PAGE_4K,
				 1 | RMPADJUST_VMSA),
		  SNP_RET_SUCCESS);
	ghcb_ap_create(&cpu, 3, gpa_init(AP_VMSA_GPA), 0, SEV_FEAT_SNP_ACTIVE);
}

/* Not a VMSA in the RMP, or an APIC ID no vCPU has: refused (result 2),
 * which the client takes for a broken reply. */
static void ap_create_plain_page(void *arg)
{
	(void)arg;
	ghcb_ap_create(&cpu, 1, gpa_init(AP_VMSA_GPA + 0x1000), 0,
		       SEV_FEAT_SNP_ACTIVE);
}

static void ap_create_unknown_cpu(void *arg)
{
	(void)arg;
	ghcb_ap_create(&cpu, 9, gpa_init(AP_VMSA_GPA), 0, SEV_FEAT_SNP_ACTIVE);
}

static uint64_t greq_result, greq_pages;
static void guest_request(void *arg)
{
	(void)arg;
	greq_pages = 1;
	greq_result = ghcb_guest_request(
		&cpu, gpa_init(REQ_GPA), gpa_init(REQ_GPA + 0x1000),
		gpa_init(REQ_GPA + 0x2000), &greq_pages);
}

static void guest_request_3(void *arg)
{
	(void)arg;
	greq_pages = 3;
	greq_result = ghcb_guest_request(
		&cpu, gpa_init(REQ_GPA), gpa_init(REQ_GPA + 0x1000),
		gpa_init(REQ_GPA + 0x2000), &greq_pages);
}

TEST(snp_ghcb, honest_boot_registers_a_shared_ghcb)
{
	struct sim_machine *m = client_machine();
	struct sim_ghcb_stats s;

	ASSERT_TRUE(boot_as(m, SIM_GHCB_HONEST, NULL, NULL));
	sim_ghcb_get_stats(m, &s);
	EXPECT_EQ(s.registered_gpa, GHCB_GPA);
	EXPECT_TRUE(page_is(m, GHCB_GPA, false, false)); /* shared */
	/* SEV info, features, PSC, registration: all MSR protocol. */
	EXPECT_EQ(s.msr_calls, 4);
}

TEST(snp_ghcb, page_state_changes_in_batches)
{
	struct sim_machine *m = client_machine();
	struct sim_ghcb_stats s;
	unsigned i;

	ASSERT_TRUE(boot_as(m, SIM_GHCB_HONEST, NULL, NULL));
	g_pages = 300; /* five batches of at most 64 */
	ASSERT_TRUE(sim_snp_run(m, share_pages, NULL, NULL, NULL));
	for (i = 0; i < 300; i++) {
		ASSERT_TRUE(
			page_is(m, PAGES_GPA + i * 0x1000ull, false, false));
	}
	/* A hypervisor that does 3 entries per call: the client loops. */
	sim_ghcb_set_behaviour(m, SIM_GHCB_PSC_PARTIAL);
	ASSERT_TRUE(sim_snp_run(m, private_pages, NULL, NULL, NULL));
	for (i = 0; i < 300; i++) {
		ASSERT_TRUE(page_is(m, PAGES_GPA + i * 0x1000ull, true, true));
	}
	sim_ghcb_get_stats(m, &s);
	EXPECT_TRUE(s.psc_calls > 100);
}

TEST(snp_ghcb, run_vmpl_and_ap_creation)
{
	struct sim_config cfg;
	struct sim_machine *m;
	struct sim_ghcb_stats s;
	uint32_t set = 0, code = 0;

	sim_config_default(&cfg);
	cfg.snp_ghcb = false;
	cfg.vcpu_count = 4;
	m = tm_create(&cfg);
	ASSERT_TRUE(boot_as(m, SIM_GHCB_HONEST, NULL, NULL));
	ASSERT_TRUE(sim_snp_run(m, run_vmpl_both, NULL, NULL, NULL));
	ASSERT_TRUE(sim_snp_run(m, ap_create, NULL, NULL, NULL));
	sim_ghcb_get_stats(m, &s);
	EXPECT_EQ(s.run_vmpl, 2);
	EXPECT_EQ(s.ap_created, 1);
	EXPECT_EQ(s.ap_apic_id, 3);
	EXPECT_EQ(s.ap_vmsa_gpa, AP_VMSA_GPA);
	EXPECT_EQ(s.ap_info1 & 0xFFFFFFFFull, 1); /* create, VMPL0 */
	EXPECT_TRUE(s.ap_vmsa_ok);
	EXPECT_FALSE(sim_snp_run(m, ap_create_plain_page, NULL, &set, &code));
	EXPECT_EQ(code, TERM_CSVSM_GHCB_RESPONSE);
	sim_ghcb_get_stats(m, &s);
	EXPECT_FALSE(s.ap_vmsa_ok);
	EXPECT_FALSE(sim_snp_run(m, ap_create_unknown_cpu, NULL, &set, &code));
	EXPECT_EQ(code, TERM_CSVSM_GHCB_RESPONSE);
}

TEST(snp_ghcb, guest_request_reaches_the_psp)
{
	struct sim_machine *m = client_machine();
	uint32_t set = 0, code = 0;

	ASSERT_TRUE(boot_as(m, SIM_GHCB_HONEST, NULL, NULL));
	ASSERT_EQ(sim_hv_page_state(m, REQ_GPA, false, false), SIM_OK);
	ASSERT_EQ(sim_hv_page_state(m, REQ_GPA + 0x1000, false, false), SIM_OK);
	ASSERT_EQ(sim_hv_page_state(m, REQ_GPA + 0x2000, false, false), SIM_OK);
	ASSERT_EQ(sim_hv_page_state(m, REQ_GPA + 0x3000, false, false), SIM_OK);
	/* One page for the certificates is too few: INVALID_LEN, and RBX
	 * says how many the host needs. */
	ASSERT_TRUE(sim_snp_run(m, guest_request, NULL, NULL, NULL));
	EXPECT_EQ(greq_result >> 32, 1);
	EXPECT_TRUE(greq_pages >= 2);
	/* With room, the request reaches the PSP, which refuses the
	 * stale page (no valid message): its status comes back. */
	/* The host writes certificates only into shared pages: the third
	 * page is private, so the model refuses the request. */
	EXPECT_FALSE(sim_snp_run(m, guest_request_3, NULL, &set, &code));
	EXPECT_EQ(code, TERM_CSVSM_GHCB_RESPONSE);
	ASSERT_EQ(sim_hv_page_state(m, REQ_GPA + 0x4000, false, false), SIM_OK);
	ASSERT_TRUE(sim_snp_run(m, guest_request_3, NULL, NULL, NULL));
	EXPECT_EQ(greq_result, 0x16);
}

/* One boot under a hostile hypervisor: the termination it must cause. */
static void expect_boot_ends(enum sim_ghcb_behaviour b, uint32_t want_set,
			     uint32_t want_code)
{
	struct sim_machine *m = client_machine();
	uint32_t set = ~0u, code = ~0u;

	EXPECT_FALSE(boot_as(m, b, &set, &code));
	EXPECT_EQ(set, want_set);
	EXPECT_EQ(code, want_code);
}

TEST(snp_ghcb, old_ghcb_version_terminates)
{
	expect_boot_ends(SIM_GHCB_OLD_VERSION, TERM_SET_GENERAL,
			 TERM_PROTOCOL_UNSUPPORTED);
}

TEST(snp_ghcb, missing_multi_vmpl_terminates)
{
	expect_boot_ends(SIM_GHCB_NO_MULTI_VMPL, TERM_SET_GENERAL,
			 TERM_SNP_FEATURES_UNSUPPORTED);
}

TEST(snp_ghcb, wrong_registration_echo_terminates)
{
	expect_boot_ends(SIM_GHCB_WRONG_ECHO, TERM_SET_CSVSM,
			 TERM_CSVSM_GHCB_RESPONSE);
}

TEST(snp_ghcb, wrong_msr_response_code_terminates)
{
	expect_boot_ends(SIM_GHCB_WRONG_RESPONSE_CODE, TERM_SET_CSVSM,
			 TERM_CSVSM_GHCB_RESPONSE);
}

TEST(snp_ghcb, sev_status_without_snp_or_with_vtom_terminates)
{
	struct sim_machine *m = client_machine();
	uint32_t set = ~0u, code = ~0u;

	sim_snp_set_sev_status(m, 0x3); /* SEV, SEV-ES, no SNP */
	EXPECT_FALSE(boot_as(m, SIM_GHCB_HONEST, &set, &code));
	EXPECT_EQ(set, TERM_SET_GENERAL);
	EXPECT_EQ(code, TERM_SNP_FEATURES_UNSUPPORTED);
	sim_snp_set_sev_status(m, SIM_SNP_SEV_STATUS | (SEV_FEAT_VTOM << 2));
	EXPECT_FALSE(boot_as(m, SIM_GHCB_HONEST, &set, &code));
	EXPECT_EQ(code, TERM_SNP_FEATURES_UNSUPPORTED);
	/* Without Restricted Injection the hypervisor could inject any
	 * event into VMPL0: refused too. */
	sim_snp_set_sev_status(m, 0x7);
	EXPECT_FALSE(boot_as(m, SIM_GHCB_HONEST, &set, &code));
	EXPECT_EQ(code, TERM_SNP_FEATURES_UNSUPPORTED);
}

/* Boot honestly, then run @fn under @b: the termination it must cause. */
static struct sim_machine *expect_ends(enum sim_ghcb_behaviour b,
				       void (*fn)(void *), uint32_t want_set,
				       uint32_t want_code)
{
	struct sim_machine *m = client_machine();
	uint32_t set = ~0u, code = ~0u;

	ASSERT_TRUE(boot_as(m, SIM_GHCB_HONEST, NULL, NULL));
	g_pages = 4;
	ASSERT_TRUE(sim_snp_run(m, share_pages, NULL, NULL, NULL));
	sim_ghcb_set_behaviour(m, b);
	EXPECT_FALSE(sim_snp_run(m, fn, NULL, &set, &code));
	EXPECT_EQ(set, want_set);
	EXPECT_EQ(code, want_code);
	return m;
}

TEST(snp_ghcb, reply_without_valid_bits_terminates)
{
	expect_ends(SIM_GHCB_NO_VALID_BITS, run_vmpl_both, TERM_SET_CSVSM,
		    TERM_CSVSM_GHCB_RESPONSE);
}

TEST(snp_ghcb, injected_exception_result_terminates)
{
	expect_ends(SIM_GHCB_EXCEPTION_RESULT, ap_create, TERM_SET_CSVSM,
		    TERM_CSVSM_GHCB_RESPONSE);
}

TEST(snp_ghcb, changed_ghcb_msr_terminates)
{
	expect_ends(SIM_GHCB_MSR_CHANGED, ap_create, TERM_SET_CSVSM,
		    TERM_CSVSM_GHCB_RESPONSE);
}

TEST(snp_ghcb, psc_that_lies_is_caught_by_pvalidate)
{
	struct sim_machine *m =
		expect_ends(SIM_GHCB_PSC_LIE, private_pages, TERM_SET_CSVSM,
			    TERM_CSVSM_PSC_FAILED);

	/* Nothing was validated on the strength of the lie. */
	EXPECT_TRUE(page_is(m, PAGES_GPA, false, false));
}

TEST(snp_ghcb, psc_of_the_wrong_page_is_caught)
{
	struct sim_machine *m =
		expect_ends(SIM_GHCB_PSC_WRONG_PAGE, private_pages,
			    TERM_SET_CSVSM, TERM_CSVSM_PSC_FAILED);

	EXPECT_TRUE(page_is(m, PAGES_GPA, false, false));
}

TEST(snp_ghcb, psc_going_backwards_terminates)
{
	expect_ends(SIM_GHCB_PSC_BACKWARDS, private_pages, TERM_SET_CSVSM,
		    TERM_CSVSM_PSC_FAILED);
}

TEST(snp_ghcb, psc_without_progress_terminates)
{
	expect_ends(SIM_GHCB_PSC_STALL, private_pages, TERM_SET_CSVSM,
		    TERM_CSVSM_PSC_FAILED);
}

TEST(snp_ghcb, psc_error_terminates)
{
	expect_ends(SIM_GHCB_PSC_ERROR, private_pages, TERM_SET_CSVSM,
		    TERM_CSVSM_PSC_FAILED);
}

/* The host rewrites the shared PSC buffer while it serves the call: the
 * SVSM compares the entries it gets back with its own. */
TEST(snp_ghcb, psc_buffer_flipped_during_the_call_terminates)
{
	expect_ends(SIM_GHCB_FLIP_SHARED, private_pages, TERM_SET_CSVSM,
		    TERM_CSVSM_PSC_FAILED);
}

/* The response-only flip leaves page-state changes alone and changes the
 * guest request's response after the PSP wrote it (the SVSM's guest
 * message layer must then refuse it: emu-hostile-check flip-shared). */
static uint8_t greq_rsp[64];
static void guest_request_3_copy(void *arg)
{
	guest_request_3(arg);
	memcpy(greq_rsp, snp_hw_map_shared(gpa_init(REQ_GPA + 0x1000)),
	       sizeof(greq_rsp));
}

TEST(snp_ghcb, response_flip_spares_psc_and_changes_the_response)
{
	struct sim_machine *m = client_machine();
	uint8_t honest[sizeof(greq_rsp)];
	unsigned i;

	ASSERT_TRUE(boot_as(m, SIM_GHCB_HONEST, NULL, NULL));
	g_pages = 4;
	sim_ghcb_set_behaviour(m, SIM_GHCB_FLIP_RESPONSE);
	ASSERT_TRUE(sim_snp_run(m, private_pages, NULL, NULL, NULL));
	EXPECT_TRUE(page_is(m, PAGES_GPA + 0x3000, true, true));
	sim_ghcb_set_behaviour(m, SIM_GHCB_HONEST);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(sim_hv_page_state(m, REQ_GPA + i * 0x1000ull, false,
					    false),
			  SIM_OK);
	}
	ASSERT_TRUE(sim_snp_run(m, guest_request_3_copy, NULL, NULL, NULL));
	memcpy(honest, greq_rsp, sizeof(honest));
	sim_ghcb_set_behaviour(m, SIM_GHCB_FLIP_RESPONSE);
	ASSERT_TRUE(sim_snp_run(m, guest_request_3_copy, NULL, NULL, NULL));
	EXPECT_EQ(greq_rsp[0], honest[0] ^ 0x01);
	EXPECT_EQ(memcmp(greq_rsp + 1, honest + 1, sizeof(honest) - 1), 0);
}

TEST(snp_ghcb, refused_run_vmpl_terminates)
{
	expect_ends(SIM_GHCB_REFUSE_RUN_VMPL, run_vmpl_both, TERM_SET_CSVSM,
		    TERM_CSVSM_RUN_VMPL_REFUSED);
}

TEST(snp_ghcb, invalid_len_without_rbx_terminates)
{
	struct sim_machine *m = client_machine();
	uint32_t set = ~0u, code = ~0u;

	ASSERT_TRUE(boot_as(m, SIM_GHCB_HONEST, NULL, NULL));
	ASSERT_EQ(sim_hv_page_state(m, REQ_GPA, false, false), SIM_OK);
	ASSERT_EQ(sim_hv_page_state(m, REQ_GPA + 0x1000, false, false), SIM_OK);
	sim_ghcb_set_behaviour(m, SIM_GHCB_CERTS_NO_RBX);
	EXPECT_FALSE(sim_snp_run(m, guest_request, NULL, &set, &code));
	EXPECT_EQ(set, TERM_SET_CSVSM);
	EXPECT_EQ(code, TERM_CSVSM_GHCB_RESPONSE);
}
