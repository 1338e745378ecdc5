/* SPDX-License-Identifier: MIT */
/*
 * vCPU lifetimes as a real Linux client and an SMP machine meet them:
 * - Linux re-onlines a CPU (arch/x86/coco/sev/core.c,
 *   wakeup_cpu_via_vmgexit, v6.11+) by CREATE_VCPU of a new VMSA with
 *   per_cpu(svsm_caa, cpu) -- the CA the old VMSA of that APIC ID still
 *   has --, then AP Creation, and only then DELETE_VCPU of the old VMSA
 *   (of the new one if AP Creation failed);
 * - 58019 6.4: after DELETE_VCPU the SVSM no longer uses the VMSA, or the
 *   call fails with FAIL_INUSE when the vCPU cannot be stopped: a vCPU
 *   whose call waits on the host on another CPU cannot be.
 * The other CPU's calls run inside the hypervisor's guest request
 * (sim_hv_during_next_guest_request), which makes the interleaving exact.
 */
#include <string.h>

#include "../framework/test.h"
#include "guest.h"

#define VMSA1 0x400000ull
#define CA1 0x401000ull
#define VMSA2 0x402000ull
#define VMSA3 0x404000ull
#define CA3 0x405000ull
#define BUFS 0x2000000ull	 /* sim_attest's 24 KiB of outputs */
#define NONCE (BUFS + 0x6010ull) /* not page aligned, as kmalloc's */
/* Without certificates, as Linux lays them out: manifest, then report. */
#define MANIFEST BUFS
#define REPORT (BUFS + 0x1000ull)

/* Validate a VMSA page, write a Linux AP VMSA into it, CREATE_VCPU from
 * vCPU 0 with @ca (already a validated page): the raw result. */
static uint32_t create_with_ca(struct sim_machine *m, uint64_t vmsa,
			       uint64_t ca, unsigned apic)
{
	uint64_t e = pv_entry(vmsa, false, true, true);

	ASSERT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_SUCCESS);
	g_write_ap_vmsa(m, vmsa, 1, SEV_FEAT_SNP_ACTIVE, EFER_SVME);
	return g_call(m, 0, CORE(SVSM_CORE_CREATE_VCPU), vmsa, ca, apic, NULL);
}

static uint32_t query(struct sim_machine *m, unsigned vcpu)
{
	return g_call(m, vcpu, CORE(SVSM_CORE_QUERY_PROTOCOL), 1ull, 0, 0,
		      NULL);
}

TEST(vcpu_lifetime, reonline_with_the_same_ca_as_linux_does)
{
	struct sim_machine *m = tm_default(2);
	uint64_t e = pv_entry(CA1, false, false, false);

	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	EXPECT_EQ(query(m, 1), SVSM_SUCCESS);
	/* echo 0 > cpu1/online: the AP plays dead; echo 1 > cpu1/online:
	 * a new VMSA with the same per-CPU CA, then AP Creation... */
	ASSERT_EQ(create_with_ca(m, VMSA2, CA1, 1), SVSM_SUCCESS);
	ASSERT_EQ(sim_ap_create(m, 1, VMSA2, CA1), SIM_OK);
	/* ...then the old VMSA goes; the new one keeps the CA. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_SUCCESS);
	EXPECT_TRUE(g_can_write(m, VMSA1));
	EXPECT_EQ(query(m, 1), SVSM_SUCCESS);
	/* CA1 is still a live CA: not the guest's to invalidate. */
	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_ERR_INVALID_ADDRESS);
	/* And once more, the way Linux does it each time. */
	ASSERT_EQ(create_with_ca(m, VMSA1, CA1, 1), SVSM_SUCCESS);
	ASSERT_EQ(sim_ap_create(m, 1, VMSA1, CA1), SIM_OK);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA2, 0, 0, NULL),
		  SVSM_SUCCESS);
	EXPECT_EQ(query(m, 1), SVSM_SUCCESS);
	check_invariants(m);
}

TEST(vcpu_lifetime, failed_ap_creation_deletes_the_new_vmsa)
{
	struct sim_machine *m = tm_default(2);
	uint64_t e = pv_entry(CA1, false, false, false);

	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	ASSERT_EQ(create_with_ca(m, VMSA2, CA1, 1), SVSM_SUCCESS);
	/* "SNP AP CREATE error": Linux deletes the VMSA it just made. */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA2, 0, 0, NULL),
		  SVSM_SUCCESS);
	/* The old VMSA is served on its CA as before. */
	EXPECT_EQ(query(m, 1), SVSM_SUCCESS);
	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_SUCCESS);
	/* With no VMSA left, the page is ordinary guest memory again. */
	EXPECT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_SUCCESS);
	check_invariants(m);
}

TEST(vcpu_lifetime, a_ca_is_never_shared_across_apic_ids)
{
	struct sim_machine *m = tm_default(3);
	uint64_t svsm = sim_svsm_base(m);

	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	/* APIC ID 1's CA for APIC ID 2, and the boot vCPU's for APIC 2. */
	EXPECT_EQ(create_with_ca(m, VMSA2, CA1, 2), SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(create_with_ca(m, VMSA2, sim_current_caa_gpa(m, 0), 2),
		  SVSM_ERR_INVALID_ADDRESS);
	/* A VMSA page, SVSM memory: never a CA, shared or not. */
	EXPECT_EQ(create_with_ca(m, VMSA2, VMSA1, 1), SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(create_with_ca(m, VMSA2, svsm + 0x3000, 1),
		  SVSM_ERR_INVALID_ADDRESS);
	/* REMAP_CA follows the same rule: not another APIC ID's CA. */
	ASSERT_EQ(g_create_vcpu(m, 0, 2, VMSA3, CA3), SVSM_SUCCESS);
	EXPECT_EQ(g_call(m, 2, CORE(SVSM_CORE_REMAP_CA), CA1, 0, 0, NULL),
		  SVSM_ERR_INVALID_ADDRESS);
	EXPECT_EQ(query(m, 1), SVSM_SUCCESS);
	EXPECT_EQ(query(m, 2), SVSM_SUCCESS);
	check_invariants(m);
}

/* What vCPU 0 does on another CPU while vCPU 1's call waits on the host. */
struct meanwhile {
	uint64_t rax, rcx, rdx, r8;
	uint32_t result;
	bool ran;
};

static void call_meanwhile(struct sim_machine *m, void *arg)
{
	struct meanwhile *w = arg;
	struct sim_regs r = {
		.rax = w->rax, .rcx = w->rcx, .rdx = w->rdx, .r8 = w->r8};

	w->ran = sim_call(m, 0, &r) == SIM_OK;
	w->result = (uint32_t)r.rax;
}

static struct sim_machine *two_cpus_attesting(void)
{
	struct sim_machine *m = tm_default(3);

	g_pvalidate_range(m, 0, BUFS, 0x8000, true);
	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	return m;
}

TEST(vcpu_lifetime, delete_while_its_call_waits_on_the_host_is_in_use)
{
	struct sim_machine *m = two_cpus_attesting();
	static struct sim_attest_result a;
	struct meanwhile w = {.rax = CORE(SVSM_CORE_DELETE_VCPU), .rcx = VMSA1};
	struct sim_rmp_info r;
	uint8_t nonce[64] = {1};

	sim_hv_during_next_guest_request(m, call_meanwhile, &w);
	ASSERT_EQ(sim_attest(m, 1, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	ASSERT_TRUE(w.ran);
	EXPECT_EQ(w.result, SVSM_ERR_FAIL_INUSE);
	/* vCPU 1 got its answer in a VMSA the SVSM still owns. */
	EXPECT_EQ(a.result, SVSM_SUCCESS);
	ASSERT_TRUE(sim_rmp_query(m, VMSA1, &r));
	EXPECT_TRUE(r.vmsa);
	EXPECT_FALSE(g_can_write(m, VMSA1));
	/* Once the call is over, the delete goes through. */
	EXPECT_EQ(query(m, 1), SVSM_SUCCESS);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_SUCCESS);
	check_invariants(m);
}

TEST(vcpu_lifetime, outputs_that_become_a_ca_meanwhile_are_not_written)
{
	struct sim_machine *m = two_cpus_attesting();
	static struct sim_attest_result a;
	/* vCPU 0 makes the report page APIC 2's Calling Area. */
	struct meanwhile w = {.rax = CORE(SVSM_CORE_CREATE_VCPU),
			      .rcx = VMSA2,
			      .rdx = REPORT,
			      .r8 = 2};
	uint8_t nonce[64] = {2};
	uint8_t head[8];
	uint64_t e = pv_entry(VMSA2, false, true, false);

	ASSERT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_SUCCESS);
	g_write_ap_vmsa(m, VMSA2, 1, SEV_FEAT_SNP_ACTIVE, EFER_SVME);
	ASSERT_EQ(sim_mem_write(m, REPORT, "\0\0\0\0\0\0\0\0", 8), SIM_OK);
	sim_hv_during_next_guest_request(m, call_meanwhile, &w);
	ASSERT_EQ(sim_attest(m, 1, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	ASSERT_TRUE(w.ran);
	ASSERT_EQ(w.result, SVSM_SUCCESS);
	/* T09: a CA's call_pending is never written as a report byte. */
	EXPECT_EQ(a.result, SVSM_ERR_INVALID_ADDRESS);
	ASSERT_EQ(sim_mem_read(m, REPORT, head, sizeof(head)), SIM_OK);
	EXPECT_EQ(memcmp(head, "\0\0\0\0\0\0\0\0", 8), 0);
	check_invariants(m);
}

TEST(vcpu_lifetime, outputs_deposited_meanwhile_are_not_written)
{
	struct sim_machine *m = two_cpus_attesting();
	static struct sim_attest_result a;
	uint64_t list = sim_current_caa_gpa(m, 0) + 8;
	uint64_t entry = MANIFEST; /* 4 KiB */
	struct meanwhile w = {.rax = CORE(SVSM_CORE_DEPOSIT_MEM), .rcx = list};
	uint8_t nonce[64] = {3};
	uint16_t next = 0;

	g_write_list(m, list, 1, 0, &entry, 1);
	sim_hv_during_next_guest_request(m, call_meanwhile, &w);
	ASSERT_EQ(sim_attest(m, 1, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	ASSERT_TRUE(w.ran);
	ASSERT_EQ(w.result, SVSM_SUCCESS);
	next = g_read_next(m, list);
	EXPECT_EQ(next, 1);
	/* The page is the SVSM's now: the manifest is not written there. */
	EXPECT_EQ(a.result, SVSM_ERR_INVALID_ADDRESS);
	EXPECT_FALSE(g_can_read(m, MANIFEST));
	check_invariants(m);
}

TEST(vcpu_lifetime, delete_succeeds_exactly_when_it_took_effect)
{
	struct sim_machine *m = tm_default(2);

	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	/* The host takes the page the moment it stops being a VMSA: the
	 * delete is done by then, and the guest must be told so. */
	sim_hv_set_behaviour(m, SIM_HV_SHARE_AFTER_VMSA_CLEARED);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_SUCCESS);
	sim_hv_set_behaviour(m, SIM_HV_HONEST);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_ERR_INVALID_PARAMETER);
	/* A refused delete (the VMSA runs) changes nothing. */
	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA2, CA1 + 0x2000), SVSM_SUCCESS);
	ASSERT_EQ(sim_vcpu_set_running(m, 1, true), SIM_OK);
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA2, 0, 0, NULL),
		  SVSM_ERR_FAIL_INUSE);
	ASSERT_EQ(sim_vcpu_set_running(m, 1, false), SIM_OK);
	EXPECT_EQ(query(m, 1), SVSM_SUCCESS);
	check_invariants(m);
}

/* The vTPM protocol drops the ownership lock around the TPM command
 * (src/core/protocol/vtpm.c): the same two rules hold in that window. */
#define BLOCK 0x2008000ull /* tpm_svsm.c's request/response page */

static struct sim_machine *two_cpus_with_vtpm(void)
{
	struct sim_config cfg;
	struct sim_machine *m;

	sim_config_default(&cfg);
	cfg.vcpu_count = 3;
	cfg.vtpm = true;
	m = tm_create(&cfg);
	g_pvalidate_range(m, 0, BLOCK, 0x1000, true);
	ASSERT_EQ(g_create_vcpu(m, 0, 1, VMSA1, CA1), SVSM_SUCCESS);
	return m;
}

/* vCPU 1 sends TPM2_GetRandom(16) as tpm_svsm.c does while @w runs on
 * vCPU 0 inside the TPM command; RAX, and the response length. */
static uint32_t getrandom_meanwhile(struct sim_machine *m, struct meanwhile *w,
				    uint32_t *rsp_len)
{
	static const uint8_t cmd[] = {0x80, 0x01, 0, 0,	   0, 0x0C,
				      0,    0,	  1, 0x7B, 0, 16};
	static uint8_t rsp[4096];
	uint32_t result = 0;

	sim_during_next_library_call(m, call_meanwhile, w);
	ASSERT_EQ(sim_vtpm_command(m, 1, BLOCK, cmd, sizeof(cmd), rsp,
				   sizeof(rsp), rsp_len, &result),
		  SIM_OK);
	ASSERT_TRUE(w->ran);
	return result;
}

TEST(vcpu_lifetime, delete_while_its_tpm_command_runs_is_in_use)
{
	struct sim_machine *m = two_cpus_with_vtpm();
	struct meanwhile w = {.rax = CORE(SVSM_CORE_DELETE_VCPU), .rcx = VMSA1};
	uint32_t rsp_len = 0;

	EXPECT_EQ(getrandom_meanwhile(m, &w, &rsp_len), SVSM_SUCCESS);
	EXPECT_EQ(w.result, SVSM_ERR_FAIL_INUSE);
	EXPECT_EQ(rsp_len, 10u + 2u + 16u); /* header, size, 16 bytes */
	EXPECT_EQ(g_call(m, 0, CORE(SVSM_CORE_DELETE_VCPU), VMSA1, 0, 0, NULL),
		  SVSM_SUCCESS);
	check_invariants(m);
}

TEST(vcpu_lifetime, a_tpm_response_page_that_became_a_ca_is_not_written)
{
	struct sim_machine *m = two_cpus_with_vtpm();
	/* vCPU 0 makes the request/response page APIC 2's Calling Area. */
	struct meanwhile w = {.rax = CORE(SVSM_CORE_CREATE_VCPU),
			      .rcx = VMSA2,
			      .rdx = BLOCK,
			      .r8 = 2};
	uint64_t e = pv_entry(VMSA2, false, true, true);
	uint32_t rsp_len = 0;
	uint32_t result;
	uint8_t head[8];

	ASSERT_EQ(g_pvalidate(m, 0, &e, 1, NULL), SVSM_SUCCESS);
	g_write_ap_vmsa(m, VMSA2, 1, SEV_FEAT_SNP_ACTIVE, EFER_SVME);
	result = getrandom_meanwhile(m, &w, &rsp_len);
	ASSERT_EQ(w.result, SVSM_SUCCESS);
	/* T09: the response never lands on call_pending and its neighbours;
	 * the request's first bytes (command 8, locality 0) are still there. */
	EXPECT_EQ(result, SVSM_ERR_INVALID_ADDRESS);
	ASSERT_EQ(sim_mem_read(m, BLOCK, head, sizeof(head)), SIM_OK);
	EXPECT_EQ(head[0], 8);
	check_invariants(m);
}
