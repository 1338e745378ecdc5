/* SPDX-License-Identifier: MIT */
/*
 * sim_config.snp_ghcb: the simulator plays the IGVM loader and KVM for the
 * snp platform. It writes what csvsm-igvm would have put in the SVSM
 * region (csvsm's boot parameters) and what the loader writes (the memory
 * map), then runs the snp platform's boot (src/plat/snp/snp_main.c) and
 * its first run-VMPL; afterwards each entry runs snp_serve().
 *
 * SVSM region layout (as csvsm-igvm lays out the image's pages): the
 * PSP's secrets page, boot parameters, memory map, CPUID page, VP count,
 * the shared pages (GHCB, #HV doorbell, guest requests), then the heap.
 */
#include <stddef.h>
#include <string.h>

#include "svsm/vtpm.h"

#include "abi/csvsm_boot.h"
#include "abi/snp.h"

#include "../../../src/plat/snp/snp_main.h"
#include "sim_harness.h"

struct snp_boot_call {
	struct sim_machine *m;
	const struct csvsm_boot_params *params;
	const struct igvm_memory_map_entry *map;
	uint32_t apic[SIM_MAX_VCPUS];
	gpa_t boot_vmsa;
};

static void boot_call(void *arg)
{
	struct snp_boot_call *b = arg;
	const struct sim_config *c = &b->m->cfg;

	b->boot_vmsa = snp_boot(
		b->params, gpa_init(c->svsm_base + SNP_PAGE_SIZE),
		(const uint8_t *)b->map, SNP_PAGE_SIZE, b->apic, c->vcpu_count,
		c->vtpm ? &vtpm_engine_libtpms : NULL, 0);
	snp_run_guest();
}

static void ap_entry(void *arg)
{
	snp_cpu_online(arg);
	snp_run_guest();
}

bool sim_snp_boot(struct sim_machine *m, gpa_t *boot_vmsa)
{
	const struct sim_config *c = &m->cfg;
	uint64_t base = c->svsm_base, page = SNP_PAGE_SIZE;
	struct csvsm_boot_params *p =
		(struct csvsm_boot_params *)(m->mem + base + page);
	struct igvm_memory_map_entry *map =
		(struct igvm_memory_map_entry *)(m->mem + base + 2 * page);
	struct snp_boot_call b = {.m = m, .params = p, .map = map};
	unsigned i;

	memset(p, 0, page);
	*p = (struct csvsm_boot_params){
		.magic = CSVSM_BOOT_MAGIC,
		.version = CSVSM_BOOT_VERSION,
		.svsm_base = base,
		.svsm_size = c->svsm_size,
		.psp_secrets_gpa = base,
		.svsm_cpuid_gpa = base + 3 * page,
		.memory_map_gpa = base + 2 * page,
		.vp_count_gpa = base + 4 * page,
		.svsm_shared_gpa = base + 5 * page,
		.svsm_heap_gpa = base + (5 + CSVSM_SHARED_PAGES) * page,
		.svsm_entry_rip = base, /* the sim SVSM has no code there */
		.guest_secrets_gpa = c->guest_secrets_gpa,
		.guest_cpuid_gpa = 0,
		.guest_caa_gpa = c->guest_caa_gpa,
		.guest_firmware_base =
			c->guest_fw != NULL ? c->guest_fw_gpa : 0,
		.guest_firmware_size =
			c->guest_fw != NULL ? c->guest_fw_size : 0,
		.guest_entry_rip =
			c->guest_entry_mode != 0 ? c->guest_kernel_rip : 0xFFF0,
		.guest_entry_mode = c->guest_entry_mode,
		.guest_cr3 = c->guest_kernel_cr3,
		.guest_sev_features = c->sev_features,
		.guest_vmpl = c->guest_vmpl,
	};
	if (c->guest_entry_mode == CSVSM_GUEST_ENTRY_LINUX &&
	    c->linux_layout != NULL) {
		const struct csvsm_boot_params *l = c->linux_layout;

		p->guest_firmware_base = 0;
		p->guest_firmware_size = 0;
		p->guest_entry_rip = l->guest_entry_rip;
		p->guest_cr3 = l->guest_cr3;
		p->guest_cpuid_gpa = l->guest_cpuid_gpa;
		memcpy(&p->linux_setup_hdr_gpa, &l->linux_setup_hdr_gpa,
		       sizeof(*p) - offsetof(struct csvsm_boot_params,
					     linux_setup_hdr_gpa));
	}
	memset(map, 0, page);
	memset(m->mem + base + 4 * page, 0, page);
	memcpy(m->mem + base + 4 * page, &c->vcpu_count, sizeof(uint32_t));
	map[0].number_of_pages = c->guest_mem_size / page;
	map[0].entry_type = IGVM_MEMORY_MAP_MEMORY;
	for (i = 0; i < c->vcpu_count; i++) {
		b.apic[i] = i;
	}
	if (!sim_svsm_call(m, boot_call, &b)) {
		return false; /* the boot terminated */
	}
	*boot_vmsa = b.boot_vmsa;
	/* KVM runs each AP the SVSM created: its entry code (hw/fw_main.c)
	 * brings it online and asks for the guest's VMPL. */
	for (i = 1; i < c->vcpu_count; i++) {
		struct snp_cpu *ap = m->snp_cpus[i].cpu;
		bool ok;

		if (ap == NULL) {
			continue;
		}
		sim_snp_switch_cpu(m, i);
		ok = sim_svsm_call(m, ap_entry, ap);
		sim_snp_switch_cpu(m, 0);
		if (!ok) {
			return false;
		}
	}
	return true;
}
