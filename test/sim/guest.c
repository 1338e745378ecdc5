/* SPDX-License-Identifier: MIT */
#include "guest.h"

#include <string.h>

#include "abi/svsm_caa.h"
#include "abi/svsm_core.h"

#include "../framework/test.h"

static void tm_destroy(void *m)
{
	sim_destroy(m);
}

struct sim_machine *tm_create(const struct sim_config *cfg)
{
	struct sim_machine *m = sim_create(cfg);

	ASSERT_TRUE(m != NULL);
	test_defer(tm_destroy, m);
	return m;
}

void tm_need_snp(void)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	if (!cfg.snp_ghcb) {
		test_skip("the snp platform is not linked (csvsm-tests-snp)");
	}
}

struct sim_machine *tm_default(unsigned vcpus)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.vcpu_count = vcpus;
	return tm_create(&cfg);
}

uint32_t g_call(struct sim_machine *m, unsigned vcpu, uint64_t rax,
		uint64_t rcx, uint64_t rdx, uint64_t r8, struct sim_regs *out)
{
	struct sim_regs r = {
		.rax = rax, .rcx = rcx, .rdx = rdx, .r8 = r8, .r9 = 0};

	ASSERT_EQ(sim_call(m, vcpu, &r), SIM_OK);
	if (out != NULL) {
		*out = r;
	}
	return (uint32_t)r.rax;
}

uint64_t pv_entry(uint64_t gpa, bool size_2m, bool validate, bool ignore_cf)
{
	return (gpa & ~0xFFFull) | (size_2m ? 1u : 0u) | (validate ? 4u : 0u) |
	       (ignore_cf ? 8u : 0u);
}

void g_write_list(struct sim_machine *m, uint64_t list_gpa, uint16_t entries,
		  uint16_t next, const uint64_t *entry, unsigned count)
{
	struct svsm_list_hdr hdr = {.entries = entries, .next = next};

	ASSERT_EQ(sim_mem_write(m, list_gpa, &hdr, sizeof(hdr)), SIM_OK);
	if (count > 0) {
		ASSERT_EQ(sim_mem_write(m, list_gpa + 8, entry, count * 8u),
			  SIM_OK);
	}
}

uint16_t g_read_next(struct sim_machine *m, uint64_t list_gpa)
{
	uint16_t next = 0xFFFF;

	ASSERT_EQ(sim_mem_read(m, list_gpa + 2, &next, 2), SIM_OK);
	return next;
}

uint32_t g_pvalidate(struct sim_machine *m, unsigned vcpu,
		     const uint64_t *entry, unsigned count, uint16_t *next)
{
	uint64_t list = sim_current_caa_gpa(m, vcpu) + SVSM_CAA_OFF_BUFFER;
	uint32_t ret;

	g_write_list(m, list, (uint16_t)count, 0, entry, count);
	ret = g_call(m, vcpu, CORE(SVSM_CORE_PVALIDATE), list, 0, 0, NULL);
	if (next != NULL) {
		*next = g_read_next(m, list);
	}
	return ret;
}

void g_pvalidate_range(struct sim_machine *m, unsigned vcpu, uint64_t gpa,
		       uint64_t len, bool validate)
{
	static uint64_t entry[510];
	uint64_t off = 0;

	while (off < len) {
		unsigned n = 0;
		uint16_t next = 0;

		while (n < 510 && off < len) {
			entry[n++] =
				pv_entry(gpa + off, false, validate, false);
			off += SNP_PAGE_SIZE;
		}
		ASSERT_EQ(g_pvalidate(m, vcpu, entry, n, &next), SVSM_SUCCESS);
		ASSERT_EQ(next, n);
	}
}

unsigned g_linux_pval_2m(struct sim_machine *m, unsigned vcpu, uint64_t gpa,
			 unsigned count_2m, bool validate)
{
	uint64_t list = sim_current_caa_gpa(m, vcpu) + SVSM_CAA_OFF_BUFFER;
	static uint64_t entry[64];
	unsigned fallbacks = 0;
	uint16_t next = 0;
	unsigned i;

	ASSERT_LE(count_2m, 64);
	for (i = 0; i < count_2m; i++) {
		entry[i] = pv_entry(gpa + i * SNP_PAGE_SIZE_2M, true, validate,
				    false);
	}
	g_write_list(m, list, (uint16_t)count_2m, 0, entry, count_2m);
	while (next < count_2m) {
		uint32_t ret = g_call(m, vcpu, CORE(SVSM_CORE_PVALIDATE), list,
				      0, 0, NULL);

		next = g_read_next(m, list);
		if (ret == SVSM_SUCCESS) {
			ASSERT_EQ(next, count_2m);
			break;
		}
		/* Linux: save the 2 MiB entry, skip it, resume the list. */
		ASSERT_EQ(ret, SVSM_PVALIDATE_FAIL_SIZEMISMATCH);
		ASSERT_LT(next, count_2m);
		fallbacks++;
		g_pvalidate_range(m, vcpu, entry[next] & ~0xFFFull,
				  SNP_PAGE_SIZE_2M, validate);
		next++;
		if (next < count_2m) {
			/* The 4 KiB calls reused the CA buffer: rebuild. */
			g_write_list(m, list, (uint16_t)count_2m, next, entry,
				     count_2m);
		}
	}
	return fallbacks;
}

void g_write_ap_vmsa(struct sim_machine *m, uint64_t gpa, uint8_t vmpl,
		     uint64_t sev_features, uint64_t efer)
{
	static struct snp_vmsa v;

	sim_linux_ap_vmsa(&v, vmpl, sev_features);
	v.efer = efer;
	ASSERT_EQ(sim_mem_write(m, gpa, &v, sizeof(v)), SIM_OK);
}

uint32_t g_create_vcpu(struct sim_machine *m, unsigned caller, unsigned vcpu,
		       uint64_t vmsa_gpa, uint64_t caa_gpa)
{
	uint64_t e[2] = {pv_entry(vmsa_gpa, false, true, true),
			 pv_entry(caa_gpa, false, true, true)};
	uint32_t ret;

	ASSERT_EQ(g_pvalidate(m, caller, e, 2, NULL), SVSM_SUCCESS);
	g_write_ap_vmsa(m, vmsa_gpa, 1, SEV_FEAT_SNP_ACTIVE, EFER_SVME);
	ret = g_call(m, caller, CORE(SVSM_CORE_CREATE_VCPU), vmsa_gpa, caa_gpa,
		     vcpu, NULL);
	if (ret == SVSM_SUCCESS) {
		ASSERT_EQ(sim_ap_create(m, vcpu, vmsa_gpa, caa_gpa), SIM_OK);
	}
	return ret;
}

bool g_can_read(struct sim_machine *m, uint64_t gpa)
{
	uint8_t b;

	return sim_mem_read(m, gpa, &b, 1) == SIM_OK;
}

bool g_can_write(struct sim_machine *m, uint64_t gpa)
{
	uint8_t b = 0;

	if (sim_mem_read(m, gpa, &b, 1) != SIM_OK) {
		b = 0;
	}
	return sim_mem_write(m, gpa, &b, 1) == SIM_OK;
}

void check_invariants(struct sim_machine *m)
{
	char why[128] = "";

	if (!sim_check_invariants(m, why, sizeof(why))) {
		test_fail(__FILE__, __LINE__, true, "invariant: %s", why);
	}
}
