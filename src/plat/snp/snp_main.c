/* SPDX-License-Identifier: MIT */
/*
 * The snp platform's boot and request loop. On hardware the boot CPU runs
 *     snp_boot(...); for (;;) snp_serve(cpu);
 * where every snp_serve() ends by asking the hypervisor to run the guest's
 * VMPL and returns when the hypervisor enters VMPL0 again. In the
 * simulator the hypervisor model returns at once, and the simulator calls
 * snp_serve() for each entry it makes: the same body, its own iteration.
 */
#include "snp_main.h"

#include "svsm/request.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "linux/linux_boot.h"
#include "snp_boot.h"
#include "snp_hw.h"

#define PAGE SNP_PAGE_SIZE

gpa_t snp_boot(const struct csvsm_boot_params *params, gpa_t params_gpa,
	       const uint8_t *memory_map, size_t map_len,
	       const uint32_t *apic_ids, unsigned cpu_count,
	       const struct vtpm_engine *vtpm, uint64_t cr3)
{
	struct snp_platform *snp = snp_platform();
	struct snp_cpu *boot = &snp->boot_cpu;
	struct mem_range ram[MEMMAP_MAX_RAM];
	struct svsm_boot_info info;
	gpa_t shared, boot_vmsa = gpa_init(0);
	unsigned n = 0, i;
	const char *why;

	memset(snp, 0, sizeof(*snp));
	(void)snp_check_sev_status();
	(void)ghcb_msr_negotiate();
	(void)ghcb_msr_hv_features();
	/* The boot parameters are the SVSM's own launched page: VMPL1
	 * rights to it can only be set from VMPL0. */
	snp_check_vmpl0(params_gpa);
	why = snp_boot_ram(params, memory_map, map_len, ram, MEMMAP_MAX_RAM,
			   &n);
	if (why == NULL) {
		why = snp_boot_info(params, ram, n, &info);
	}
	if (why != NULL) {
		snp_bad_boot(why);
	}
	if (cpu_count == 0 || cpu_count > SVSM_MAX_CPUS) {
		snp_bad_boot("no CPUs or too many");
	}
	shared = gpa_init(params->svsm_shared_gpa);
	boot->ghcb_gpa = shared;
	boot->doorbell_gpa = gpa_init(gpa_val(shared) + PAGE);
	boot->apic_id = apic_ids[0];
	snp_hw_set_cpu(boot);
	snp_cpu_online(boot);
	snp_make_shared(&boot->ghcb, gpa_init(gpa_val(shared) + 2 * PAGE),
			CSVSM_SHARED_PAGES - 2);
	snp->greq = (struct snp_greq){
		.ghcb = &boot->ghcb,
		.req_gpa = gpa_init(gpa_val(shared) + 2 * PAGE),
		.rsp_gpa = gpa_init(gpa_val(shared) + 3 * PAGE),
		.certs_gpa = gpa_init(gpa_val(shared) + 4 * PAGE),
		.req = snp_hw_map_shared(gpa_init(gpa_val(shared) + 2 * PAGE)),
		.rsp = snp_hw_map_shared(gpa_init(gpa_val(shared) + 3 * PAGE)),
		.certs =
			snp_hw_map_shared(gpa_init(gpa_val(shared) + 4 * PAGE)),
		.certs_pages = CSVSM_SHARED_PAGES - 4,
	};
	/* Every certificate page, not only the first: the buffer is
	 * CSVSM_SHARED_PAGES - 4 pages the hypervisor writes. */
	for (i = 1; snp->greq.certs != NULL && i < snp->greq.certs_pages; i++) {
		if (snp_hw_map_shared(gpa_init(gpa_val(shared) +
					       (4 + i) * PAGE)) == NULL) {
			snp->greq.certs = NULL;
		}
	}
	if (snp->greq.req == NULL || snp->greq.rsp == NULL ||
	    snp->greq.certs == NULL) {
		SNP_TERMINATE_HV(TERM_CSVSM_PSC_FAILED,
				 "snp: guest message pages not mappable as"
				 " shared");
	}
	snp->ready = true;
	for (i = 0; i < cpu_count; i++) {
		info.apic_ids[i] = apic_ids[i];
	}
	info.cpu_count = cpu_count;
	if (info.guest_entry.mode == SVSM_GUEST_ENTRY_LONG) {
		info.guest_entry.rsi = cpu_count;
	}
	info.vtpm_engine = vtpm;
	if (svsm_init(&info, &boot_vmsa) != SVSM_OK) {
		snp_bad_boot("the SVSM did not start");
	}
	snp->guest_vmpl = info.guest_vmpl;
	if (params->guest_entry_mode == CSVSM_GUEST_ENTRY_LINUX) {
		snp_linux_load(params, ram, n, boot_vmsa);
	} else {
		snp_grant_launched(params);
	}
	/* The APs enter where the boot CPU did: the image's entry, which
	 * the boot parameters record. */
	snp_start_aps(&boot->ghcb, apic_ids, cpu_count, params->svsm_entry_rip,
		      cr3);
	/* The guest's boot vCPU: its VMSA at its VMPL on this CPU's APIC
	 * ID, which run-VMPL then runs. svsm_init() made the page a VMSA;
	 * the features are what svsm_init() checked. */
	ghcb_ap_create(&boot->ghcb, boot->apic_id, boot_vmsa, snp->guest_vmpl,
		       params->guest_sev_features);
	return boot_vmsa;
}

void snp_run_guest(void)
{
	ghcb_run_vmpl(snp_this_ghcb(), snp_platform()->guest_vmpl);
}

enum request_outcome snp_serve(struct svsm_cpu *cpu)
{
	enum request_outcome out = request_process(cpu);

	snp_run_guest();
	return out;
}
