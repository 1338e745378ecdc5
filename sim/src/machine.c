/* SPDX-License-Identifier: MIT */
/*
 * The simulated machine: guest memory, the RMP model, the PSP's launch of
 * the SVSM region, and the boot of the SVSM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "svsm/log.h"
#include "svsm/svsm.h"
#include "svsm/vtpm.h"

#include "abi/csvsm_boot.h"
#include "abi/snp.h"

#include "sim_internal.h"

#define MIB (1024ull * 1024ull)
/* The guest policy the PSP reports: SMT allowed, ABI 0.0 (bit 17 reserved 1).
 */
#define SIM_GUEST_POLICY 0x30000ull

static struct sim_machine *live_machine;

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

struct sim_machine *sim_current(void)
{
	return live_machine;
}

void sim_config_default(struct sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->guest_mem_size = 64 * MIB;
	cfg->vcpu_count = 1;
	cfg->svsm_base = 16 * MIB;
	cfg->svsm_size = 4 * MIB;
	cfg->guest_secrets_gpa = 8 * MIB;
	cfg->guest_caa_gpa = 8 * MIB + SNP_PAGE_SIZE;
	cfg->guest_vmpl = 1;
	cfg->sev_features = SEV_FEAT_SNP_ACTIVE;
	cfg->seed = 0x5eed;
	/* The linked platform decides: with the snp one (csvsm-tests-snp)
	 * every machine boots and is entered as on snp. */
	cfg->snp_ghcb = sim_platform_snp();
	/* The platform is chosen at link time now: a script that still
	 * asks for snp by the environment must not get sim unawares. */
	if (getenv("CSVSM_SIM_PLATFORM") != NULL &&
	    strcmp(getenv("CSVSM_SIM_PLATFORM"), "snp") == 0 &&
	    !cfg->snp_ghcb) {
		(void)fprintf(stderr,
			      "CSVSM_SIM_PLATFORM=snp: this binary links"
			      " the sim platform; use its -snp twin\n");
		abort();
	}
}

uint64_t sim_rng_next(struct sim_machine *m)
{
	/* xorshift64*: reproducible stale contents and VMPCKs. */
	m->rng ^= m->rng >> 12;
	m->rng ^= m->rng << 25;
	m->rng ^= m->rng >> 27;
	return m->rng * 0x2545F4914F6CDD1Dull;
}

static bool sim_config_ok(const struct sim_config *c)
{
	uint64_t pages = c->guest_mem_size / SNP_PAGE_SIZE;

	return c->guest_mem_size >= 4 * MIB &&
	       c->guest_mem_size <= 4096 * MIB &&
	       (c->guest_mem_size % SNP_PAGE_SIZE_2M) == 0 &&
	       c->vcpu_count >= 1 && c->vcpu_count <= SIM_MAX_VCPUS &&
	       c->guest_vmpl >= 1 && c->guest_vmpl <= 3 &&
	       (c->svsm_base % SNP_PAGE_SIZE_2M) == 0 &&
	       c->svsm_size >= 1 * MIB && (c->svsm_size % SNP_PAGE_SIZE) == 0 &&
	       c->svsm_base + c->svsm_size <= c->guest_mem_size &&
	       (c->guest_secrets_gpa % SNP_PAGE_SIZE) == 0 &&
	       (c->guest_caa_gpa % SNP_PAGE_SIZE) == 0 &&
	       c->guest_secrets_gpa / SNP_PAGE_SIZE < pages &&
	       c->guest_caa_gpa / SNP_PAGE_SIZE < pages && c->log_level >= 0 &&
	       c->log_level <= 5 && (!c->snp_ghcb || sim_platform_snp());
}

/* Contents a hypervisor could have left in pages it hands to the guest:
 * a non-zero byte pattern per page, different from page to page. */
void sim_fill_stale(struct sim_machine *m, uint64_t gpa, uint64_t len)
{
	uint64_t off;

	for (off = 0; off < len; off += SNP_PAGE_SIZE) {
		memset(m->mem + gpa + off, (int)(sim_rng_next(m) | 1u) & 0xFF,
		       SNP_PAGE_SIZE);
	}
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

bool sim_svsm_call(struct sim_machine *m, void (*fn)(void *), void *arg)
{
	jmp_buf jmp;

	m->svsm_jmp = &jmp;
	if (setjmp(jmp) != 0) {
		m->svsm_jmp = NULL;
		return false;
	}
	fn(arg);
	m->svsm_jmp = NULL;
	return true;
}

bool sim_run_svsm(struct sim_machine *m, void (*fn)(void *), void *arg,
		  uint32_t *set, uint32_t *code)
{
	if (m->cfg.snp_ghcb) {
		return sim_snp_run(m, fn, arg, set, code);
	}
	if (sim_svsm_call(m, fn, arg)) {
		return true;
	}
	*set = m->term_set;
	*code = m->term_code;
	return false;
}

struct sim_init_call {
	const struct svsm_boot_info *info;
	gpa_t boot_vmsa;
	enum svsm_err err;
};

static void init_call(void *arg)
{
	struct sim_init_call *c = arg;

	c->err = svsm_init(c->info, &c->boot_vmsa);
}

static bool sim_boot_svsm(struct sim_machine *m)
{
	const struct sim_config *c = &m->cfg;
	struct svsm_boot_info info;
	gpa_t boot_vmsa = gpa_init(0);
	unsigned i;

	memset(&info, 0, sizeof(info));
	info.platform_name = "sim";
	info.ram[0] = (struct mem_range){gpa_init(0), c->guest_mem_size};
	info.ram_count = 1;
	info.svsm = (struct mem_range){gpa_init(c->svsm_base), c->svsm_size};
	info.psp_secrets = gpa_init(c->svsm_base);
	info.heap = (struct mem_range){gpa_init(c->svsm_base + SNP_PAGE_SIZE),
				       c->svsm_size - SNP_PAGE_SIZE};
	info.guest_secrets = gpa_init(c->guest_secrets_gpa);
	info.guest_caa = gpa_init(c->guest_caa_gpa);
	for (i = 0; i < c->vcpu_count; i++) {
		info.apic_ids[i] = i;
	}
	info.cpu_count = c->vcpu_count;
	info.guest_vmpl = c->guest_vmpl;
	info.guest_sev_features = c->sev_features;
	info.guest_entry = (struct svsm_guest_entry){
		.mode = SVSM_GUEST_ENTRY_RESET, .rip = 0xFFF0};
	info.vtpm_engine = c->vtpm ? &vtpm_engine_libtpms : NULL;
	info.vtpm_disk = c->vtpm ? c->vtpm_disk : NULL;

	log_set_level(c->log_level > 0 ? (enum log_level)c->log_level
				       : LOG_LEVEL_ERROR);
	if (c->snp_ghcb) {
		if (!sim_snp_boot(m, &boot_vmsa)) {
			return false;
		}
	} else {
		struct sim_init_call call = {.info = &info};

		if (!sim_svsm_call(m, init_call, &call) ||
		    call.err != SVSM_OK) {
			return false;
		}
		boot_vmsa = call.boot_vmsa;
	}
	m->vcpu[0].vmsa_gpa = gpa_val(boot_vmsa);
	m->vcpu[0].caa_gpa = c->guest_caa_gpa;
	m->vcpu[0].has_caa = true;
	m->vcpu[0].initial_caa_gpa = c->guest_caa_gpa;
	m->secrets_gpa = c->guest_secrets_gpa;
	return true;
}

/* Why the last sim_create() that refused to boot did so. */
static struct sim_boot_failure {
	bool terminated;
	uint32_t set, code;
} last_boot;

struct sim_machine *sim_create(const struct sim_config *cfg)
{
	struct sim_machine *m;
	uint64_t pages;

	if (live_machine != NULL || cfg == NULL || !sim_config_ok(cfg)) {
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
	live_machine = m;
	sim_launch(m);
	last_boot = (struct sim_boot_failure){0};
	if (!sim_boot_svsm(m)) {
		last_boot =
			(struct sim_boot_failure){.terminated = m->terminated,
						  .set = m->term_set,
						  .code = m->term_code};
		sim_destroy(m);
		return NULL;
	}
	return m;
}

bool sim_last_boot_failure(uint32_t *set, uint32_t *code)
{
	*set = last_boot.set;
	*code = last_boot.code;
	return last_boot.terminated;
}

void sim_destroy(struct sim_machine *m)
{
	if (m == NULL) {
		return;
	}
	if (live_machine == m) {
		if (m->cfg.vtpm) {
			vtpm_service_shutdown();
		}
		live_machine = NULL;
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
