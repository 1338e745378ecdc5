/* SPDX-License-Identifier: MIT */
/*
 * Get APIC IDs (NAE 0x8000_0017) and the HV features NAE (0x8000_FFFD)
 * of the hypervisor model (model/kvm), asked the way OVMF's
 * PlatformPei asks them (AmdSevSnpGetApicIds(), GetHypervisorFeature()):
 * first with RAX = 0 for the page count, then with a shared buffer of
 * that many pages, which receives {u32 count; u32 apic_ids[count]}, the
 * BSP first. Truths: the multi-VMPL KVM RFC's sev_get_apic_ids() (RAX
 * required; too few pages: RAX = pages needed, success; a buffer it
 * cannot write: result 2, INVALID_INPUT), the GHCB result codes (56421),
 * and the machine's vCPUs (APIC ID = index in sim).
 */
#include <string.h>

#include "abi/ghcb.h"
#include "abi/snp.h"

#include "../../src/plat/snp/ghcb.h"
#include "../../src/plat/snp/snp_hw.h"
#include "../framework/test.h"
#include "guest.h"

#define GHCB_GPA 0x3000000ull
#define LIST_GPA 0x3100000ull
#define VCPUS 3u

static struct ghcb_cpu cpu;

static void boot(void *arg)
{
	(void)arg;
	(void)ghcb_msr_negotiate();
	(void)ghcb_msr_hv_features();
	ghcb_cpu_init(&cpu, gpa_init(GHCB_GPA));
}

/* A machine of VCPUS vCPUs whose GHCB client runs alone (these tests
 * drive it on their own GHCB page), booted. */
static struct sim_machine *booted_machine(void)
{
	struct sim_config cfg;
	struct sim_machine *m;

	sim_config_default(&cfg);
	cfg.snp_ghcb = false;
	cfg.vcpu_count = VCPUS;
	m = tm_create(&cfg);
	ASSERT_TRUE(sim_snp_run(m, boot, NULL, NULL, NULL));
	return m;
}

static struct ghcb_in g_in;
static struct ghcb_out g_out;

static void call(void *arg)
{
	(void)arg;
	memset(&g_out, 0, sizeof(g_out));
	ghcb_call(&cpu, &g_in, &g_out);
}

/* Get APIC IDs with RAX = @pages (if @has_rax) and the buffer at @gpa;
 * the result (exit_info_1) or ~0 if the client terminated. */
static uint64_t get_apic_ids(struct sim_machine *m, uint64_t gpa,
			     uint64_t pages, bool has_rax)
{
	g_in = (struct ghcb_in){.exit_code = SVM_VMGEXIT_GET_APIC_IDS,
				.info1 = gpa,
				.rax = pages,
				.has_rax = has_rax,
				.may_refuse = true};
	if (!sim_snp_run(m, call, NULL, NULL, NULL)) {
		return ~0ull;
	}
	return g_out.info1;
}

static uint32_t list[8];
static void read_list(void *arg)
{
	const uint8_t *p = snp_hw_map_shared(gpa_init(LIST_GPA));

	(void)arg;
	ASSERT_TRUE(p != NULL);
	memcpy(list, p, sizeof(list));
}

static void mark_list(void *arg)
{
	uint8_t *p = snp_hw_map_shared(gpa_init(LIST_GPA));

	(void)arg;
	ASSERT_TRUE(p != NULL);
	memset(p, 0x5A, SNP_PAGE_SIZE);
}

TEST(snp_apic_ids, count_then_list_bsp_first)
{
	struct sim_machine *m = booted_machine();
	unsigned i;

	/* OVMF's first call: RAX = 0, no buffer. One page holds 3 IDs. */
	ASSERT_EQ(get_apic_ids(m, 0, 0, true), GHCB_RESULT_OK);
	EXPECT_TRUE(g_out.has_rax);
	EXPECT_EQ(g_out.rax, 1);
	/* Then that many shared pages, which the host fills. */
	ASSERT_EQ(sim_hv_page_state(m, LIST_GPA, false, false), SIM_OK);
	ASSERT_EQ(get_apic_ids(m, LIST_GPA, 1, true), GHCB_RESULT_OK);
	/* RAX comes back unchanged and valid: OVMF requires it. */
	EXPECT_TRUE(g_out.has_rax);
	EXPECT_EQ(g_out.rax, 1);
	ASSERT_TRUE(sim_snp_run(m, read_list, NULL, NULL, NULL));
	EXPECT_EQ(list[0], VCPUS);
	for (i = 0; i < VCPUS; i++) {
		EXPECT_EQ(list[1 + i], i); /* the BSP (APIC ID 0) first */
	}
	/* More pages than needed: the same list, RAX as given. */
	ASSERT_EQ(get_apic_ids(m, LIST_GPA, 5, true), GHCB_RESULT_OK);
	EXPECT_EQ(g_out.rax, 5);
}

TEST(snp_apic_ids, a_buffer_the_host_cannot_write_is_refused)
{
	struct sim_machine *m = booted_machine();

	/* A private page (the host must not write it), unaligned, or
	 * outside RAM: result 2, INVALID_INPUT, as KVM answers. */
	ASSERT_EQ(get_apic_ids(m, LIST_GPA + 0x1000, 1, true),
		  GHCB_RESULT_MALFORMED);
	EXPECT_EQ(g_out.info2, GHCB_ERR_INVALID_INPUT);
	ASSERT_EQ(sim_hv_page_state(m, LIST_GPA, false, false), SIM_OK);
	ASSERT_TRUE(sim_snp_run(m, mark_list, NULL, NULL, NULL));
	ASSERT_EQ(get_apic_ids(m, LIST_GPA + 8, 1, true),
		  GHCB_RESULT_MALFORMED);
	EXPECT_EQ(g_out.info2, GHCB_ERR_INVALID_INPUT);
	ASSERT_EQ(get_apic_ids(m, sim_guest_mem_size(m), 1, true),
		  GHCB_RESULT_MALFORMED);
	EXPECT_EQ(g_out.info2, GHCB_ERR_INVALID_INPUT);
	ASSERT_EQ(get_apic_ids(m, ~0xFFFull, 1, true), GHCB_RESULT_MALFORMED);
	EXPECT_EQ(g_out.info2, GHCB_ERR_INVALID_INPUT);
	/* No RAX: the input is missing (KVM's sev_es_validate_vmgexit). */
	ASSERT_EQ(get_apic_ids(m, LIST_GPA, 1, false), GHCB_RESULT_MALFORMED);
	EXPECT_EQ(g_out.info2, GHCB_ERR_MISSING_INPUT);
	/* The shared page was never written by the refused calls. */
	ASSERT_TRUE(sim_snp_run(m, read_list, NULL, NULL, NULL));
	EXPECT_EQ(list[0], 0x5A5A5A5Au);
	EXPECT_EQ(list[3], 0x5A5A5A5Au);
}

TEST(snp_apic_ids, hv_features_event_matches_the_msr_protocol)
{
	struct sim_machine *m = booted_machine();

	g_in = (struct ghcb_in){.exit_code = SVM_VMGEXIT_HV_FEATURES};
	ASSERT_TRUE(sim_snp_run(m, call, NULL, NULL, NULL));
	EXPECT_EQ(g_out.info1, GHCB_RESULT_OK);
	EXPECT_EQ(g_out.info2, GHCB_HV_FT_SNP | GHCB_HV_FT_SNP_AP_CREATION |
				       GHCB_HV_FT_APIC_ID_LIST |
				       GHCB_HV_FT_SNP_MULTI_VMPL);
}

/* The CPUID event on the BSP: its own APIC ID (0) where CPUID has one. */
TEST(snp_apic_ids, cpuid_event_reports_the_callers_apic_id)
{
	struct sim_machine *m = booted_machine();

	g_in = (struct ghcb_in){.exit_code = SVM_EXIT_CPUID,
				.rax = 0xB,
				.rcx = 0,
				.has_rax = true,
				.has_rcx = true};
	ASSERT_TRUE(sim_snp_run(m, call, NULL, NULL, NULL));
	EXPECT_EQ(g_out.info1, GHCB_RESULT_OK);
	EXPECT_TRUE(g_out.has_rdx);
	EXPECT_EQ(g_out.rdx, 0);
	g_in.rax = 1;
	ASSERT_TRUE(sim_snp_run(m, call, NULL, NULL, NULL));
	EXPECT_EQ(g_out.rbx >> 24, 0);
}
