/* SPDX-License-Identifier: MIT */
/*
 * The simulated machine, put together: guest memory, the RMP model, the
 * hypervisor (ghcb_hv.c) and the host's devices (vblk_sim.c), and the
 * PSP's launch of the SVSM region; the guest's and the tests' view of
 * them. Booting the SVSM on it is the harness's (sim/src/harness/boot.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "abi/csvsm_boot.h"
#include "abi/snp.h"

#include "sim_machine.h"

/* The guest policy the PSP reports: SMT allowed, ABI 0.0 (bit 17 reserved 1).
 */
#define SIM_GUEST_POLICY 0x30000ull

/*
 * One spare guest-memory mapping, kept when a machine is destroyed: most of
 * the cost of a new machine is the first touch of its pages, and tests and
 * fuzzers make thousands. sim_launch() rewrites every byte of it.
 */
static uint8_t *spare_mem;
static uint64_t spare_size;

static uint8_t *guest_mem_get(uint64_t size)
{
	uint8_t *p;

	if (spare_mem != NULL && spare_size == size) {
		p = spare_mem;
		spare_mem = NULL;
		return p;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void guest_mem_put(uint8_t *p, uint64_t size)
{
	if (spare_mem != NULL) {
		munmap(spare_mem, spare_size);
	}
	spare_mem = p;
	spare_size = size;
}

/* The launch: all RAM private but not validated (the host assigned it);
 * the SVSM region and the guest's first pages measured and validated by
 * the PSP; the PSP's secrets page in the SVSM region. */
static void sim_launch(struct sim_machine *m)
{
	const struct sim_config *c = &m->cfg;
	struct snp_secrets_page *secrets;
	uint8_t entropy[PSP_VMPCK_COUNT * 32 + 48];
	uint64_t gpa;
	unsigned i;

	for (gpa = 0; gpa < c->guest_mem_size;) {
		bool big = c->rmp_2m && (gpa % SNP_PAGE_SIZE_2M) == 0 &&
			   !(gpa < c->svsm_base + c->svsm_size &&
			     gpa + SNP_PAGE_SIZE_2M > c->svsm_base) &&
			   !(gpa <= c->guest_secrets_gpa &&
			     c->guest_secrets_gpa < gpa + SNP_PAGE_SIZE_2M) &&
			   !(gpa <= c->guest_caa_gpa &&
			     c->guest_caa_gpa < gpa + SNP_PAGE_SIZE_2M);
		uint64_t step = big ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;

		(void)rmp_hv_assign(&m->rmp, gpa, big);
		gpa += step;
	}
	sim_fill_stale(m, 0, c->guest_mem_size);
	for (gpa = c->svsm_base; gpa < c->svsm_base + c->svsm_size;
	     gpa += SNP_PAGE_SIZE) {
		(void)rmp_launch_page(&m->rmp, gpa);
		memset(m->mem + gpa, 0, SNP_PAGE_SIZE);
	}
	(void)rmp_launch_page(&m->rmp, c->guest_secrets_gpa);
	(void)rmp_launch_page(&m->rmp, c->guest_caa_gpa);
	if (c->guest_fw != NULL) {
		for (gpa = 0; gpa < c->guest_fw_size; gpa += SNP_PAGE_SIZE) {
			(void)rmp_launch_page(&m->rmp, c->guest_fw_gpa + gpa);
		}
		memcpy(m->mem + c->guest_fw_gpa, c->guest_fw, c->guest_fw_size);
	}
	for (i = 0; i < 4; i++) {
		for (gpa = 0; gpa < c->guest_fw_launch[i].size;
		     gpa += SNP_PAGE_SIZE) {
			(void)rmp_launch_page(&m->rmp,
					      c->guest_fw_launch[i].gpa + gpa);
			memset(m->mem + c->guest_fw_launch[i].gpa + gpa, 0,
			       SNP_PAGE_SIZE);
		}
	}
	memset(m->mem + c->guest_secrets_gpa, 0, SNP_PAGE_SIZE);
	memset(m->mem + c->guest_caa_gpa, 0, SNP_PAGE_SIZE);
	if (c->linux_layout != NULL && c->linux_setup_hdr != NULL) {
		memcpy(m->mem + c->linux_layout->linux_setup_hdr_gpa,
		       c->linux_setup_hdr, SNP_PAGE_SIZE);
	}

	/* The PSP's keys: the VMPCKs it puts in the secrets page and its
	 * chip secret, reproducible from the seed. */
	for (i = 0; i < sizeof(entropy); i += 8) {
		uint64_t v = sim_rng_next(m);

		memcpy(entropy + i, &v, 8);
	}
	psp_init(&m->psp, &psp_test_identity, entropy, SIM_GUEST_POLICY);
	secrets = (struct snp_secrets_page *)(m->mem + c->svsm_base);
	secrets->version = 3;
	memcpy(secrets->vmpck, m->psp.vmpck, sizeof(secrets->vmpck));
}

struct sim_machine *sim_machine_new(const struct sim_config *cfg)
{
	struct sim_machine *m;
	uint64_t pages;

	if (sim_current() != NULL) {
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		return NULL;
	}
	m->cfg = *cfg;
	m->rng = cfg->seed != 0 ? cfg->seed : 1;
	m->clock_rate_pct = 100;
	/* SEV, SEV-ES, SNP, Restricted Injection, as snp code reads it. */
	m->snp_sev_status = SIM_SNP_SEV_STATUS;
	pages = cfg->guest_mem_size / SNP_PAGE_SIZE;
	/* Page aligned, like RAM, and outside the sanitizers' heap. */
	m->mem = guest_mem_get(cfg->guest_mem_size);
	m->rmp_entries = calloc(pages, sizeof(*m->rmp_entries));
	if (m->mem == NULL || m->rmp_entries == NULL || !sim_kvm_init(m) ||
	    !sim_vblk_init(m)) {
		if (m->mem != NULL) {
			guest_mem_put(m->mem, cfg->guest_mem_size);
		}
		free(m->rmp_entries);
		sim_kvm_free(m);
		sim_vblk_free(m);
		free(m);
		return NULL;
	}
	rmp_init(&m->rmp, m->rmp_entries, pages);
	sim_set_current(m);
	sim_launch(m);
	return m;
}

void sim_machine_free(struct sim_machine *m)
{
	if (sim_current() == m) {
		sim_set_current(NULL);
	}
	guest_mem_put(m->mem, m->cfg.guest_mem_size);
	free(m->rmp_entries);
	free(m->greq_log);
	sim_kvm_free(m);
	sim_vblk_free(m);
	free(m);
}

uint64_t sim_secrets_gpa(const struct sim_machine *m)
{
	return m->secrets_gpa;
}

uint64_t sim_initial_caa_gpa(const struct sim_machine *m, unsigned vcpu)
{
	return vcpu < m->cfg.vcpu_count ? m->vcpu[vcpu].initial_caa_gpa : 0;
}

uint64_t sim_current_caa_gpa(const struct sim_machine *m, unsigned vcpu)
{
	return vcpu < m->cfg.vcpu_count ? m->vcpu[vcpu].caa_gpa : 0;
}

bool sim_vcpu_has_caa(const struct sim_machine *m, unsigned vcpu)
{
	return vcpu < m->cfg.vcpu_count && m->vcpu[vcpu].has_caa;
}

uint64_t sim_svsm_base(const struct sim_machine *m)
{
	return m->cfg.svsm_base;
}

uint64_t sim_svsm_size(const struct sim_machine *m)
{
	return m->cfg.svsm_size;
}

uint64_t sim_guest_mem_size(const struct sim_machine *m)
{
	return m->cfg.guest_mem_size;
}

unsigned sim_vcpu_count(const struct sim_machine *m)
{
	return m->cfg.vcpu_count;
}

bool sim_guest_access(struct sim_machine *m, uint64_t gpa, uint64_t len,
		      unsigned perm)
{
	return rmp_range_accessible(&m->rmp, m->cfg.guest_vmpl, gpa, len, perm);
}

enum sim_status sim_mem_read(struct sim_machine *m, uint64_t gpa, void *buf,
			     size_t len)
{
	if (!sim_guest_access(m, gpa, len, RMP_PERM_READ)) {
		return SIM_GUEST_FAULT;
	}
	memcpy(buf, m->mem + gpa, len);
	return SIM_OK;
}

enum sim_status sim_mem_write(struct sim_machine *m, uint64_t gpa,
			      const void *buf, size_t len)
{
	if (!sim_guest_access(m, gpa, len, RMP_PERM_WRITE)) {
		return SIM_GUEST_FAULT;
	}
	memcpy(m->mem + gpa, buf, len);
	return SIM_OK;
}

enum sim_status sim_mem_exec(struct sim_machine *m, uint64_t gpa)
{
	return sim_guest_access(m, gpa, 1, RMP_PERM_EXEC_SUPER)
		       ? SIM_OK
		       : SIM_GUEST_FAULT;
}

bool sim_rmp_query(const struct sim_machine *m, uint64_t gpa,
		   struct sim_rmp_info *info)
{
	const struct rmp_entry *e = rmp_lookup(&m->rmp, gpa);
	unsigned i;

	if (e == NULL) {
		return false;
	}
	info->assigned = (e->flags & RMP_F_ASSIGNED) != 0;
	info->validated = (e->flags & RMP_F_VALIDATED) != 0;
	info->size_2m = (e->flags & RMP_F_SIZE_2M) != 0;
	info->vmsa = (e->flags & RMP_F_VMSA) != 0;
	info->in_use = (e->flags & RMP_F_IN_USE) != 0;
	info->perms[0] = RMP_PERM_ALL;
	for (i = 1; i < 4; i++) {
		info->perms[i] = e->perms[i];
	}
	return true;
}

enum sim_status sim_guest_rmpadjust(struct sim_machine *m, uint64_t gpa,
				    bool size_2m, uint64_t attrs, uint32_t *eax)
{
	*eax = rmp_guest_rmpadjust(&m->rmp, m->cfg.guest_vmpl, gpa,
				   size_2m ? RMP_PG_SIZE_2M : RMP_PG_SIZE_4K,
				   attrs);
	return SIM_OK;
}

enum sim_status sim_guest_pvalidate(struct sim_machine *m, uint64_t gpa,
				    bool size_2m, bool validate, uint32_t *eax)
{
	bool unchanged = false;

	if (rmp_pvalidate_faults_at(m->cfg.guest_vmpl)) {
		return SIM_GUEST_FAULT;
	}
	*eax = rmp_guest_pvalidate(&m->rmp, m->cfg.guest_vmpl, gpa,
				   size_2m ? RMP_PG_SIZE_2M : RMP_PG_SIZE_4K,
				   validate, &unchanged);
	return SIM_OK;
}

bool sim_check_invariants(const struct sim_machine *m, char *why,
			  size_t why_len)
{
	uint64_t base = m->cfg.svsm_base;
	uint64_t end = base + m->cfg.svsm_size;
	uint64_t pfn;

	if (m->terminated) {
		snprintf(why, why_len, "terminated: set %u code %u",
			 m->term_set, m->term_code);
		return false;
	}
	for (pfn = 0; pfn < m->rmp.page_count; pfn++) {
		const struct rmp_entry *e = &m->rmp.entry[pfn];
		uint64_t gpa = pfn * SNP_PAGE_SIZE;
		unsigned v;

		for (v = 1; v < 4; v++) {
			if (gpa >= base && gpa < end && e->perms[v] != 0) {
				snprintf(why, why_len,
					 "SVSM page %llx has VMPL%u perms %x",
					 (unsigned long long)gpa, v,
					 e->perms[v]);
				return false;
			}
			if ((e->flags & RMP_F_VMSA) &&
			    (e->perms[v] & RMP_PERM_WRITE)) {
				snprintf(why, why_len,
					 "VMSA page %llx writable at VMPL%u",
					 (unsigned long long)gpa, v);
				return false;
			}
		}
	}
	return true;
}

void sim_get_stats(const struct sim_machine *m, struct sim_stats *stats)
{
	*stats = m->stats;
}

bool sim_terminated(const struct sim_machine *m, uint32_t *set, uint32_t *code)
{
	if (m->terminated) {
		if (set != NULL) {
			*set = m->term_set;
		}
		if (code != NULL) {
			*code = m->term_code;
		}
	}
	return m->terminated;
}

const char *sim_console(const struct sim_machine *m)
{
	return m->console;
}
