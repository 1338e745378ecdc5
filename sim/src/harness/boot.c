/* SPDX-License-Identifier: MIT */
/*
 * The harness's boot of the SVSM on a new simulated machine
 * (sim/src/model/machine.c): the sim platform's way (svsm_init) or the
 * snp platform's (snp_boot_sim.c), each a run of SVSM code (run.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/log.h"
#include "svsm/svsm.h"
#include "svsm/vtpm.h"

#include "abi/snp.h"

#include "sim_harness.h"

#define MIB (1024ull * 1024ull)

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

	if (sim_current() != NULL || cfg == NULL || !sim_config_ok(cfg)) {
		return NULL;
	}
	m = sim_machine_new(cfg);
	if (m == NULL) {
		return NULL;
	}
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
	/* The vTPM's shutdown is SVSM code: it runs on the live machine. */
	if (sim_current() == m && m->cfg.vtpm) {
		vtpm_service_shutdown();
	}
	sim_machine_free(m);
}
