/* SPDX-License-Identifier: MIT */
/*
 * sim_config.snp_ghcb: the SVSM's guest requests take the snp platform's
 * path. At boot the snp code negotiates with the hypervisor model,
 * registers a GHCB and shares its bounce pages (the last pages of the
 * SVSM region); each request then goes through snp_guest_request() and
 * the model's NAE handling to the emulated PSP.
 */
#include <string.h>

#include "abi/snp.h"

#include "../../src/plat/snp/ghcb.h"
#include "../../src/plat/snp/snp_greq.h"
#include "../../src/plat/snp/snp_hw.h"
#include "sim_internal.h"

static struct ghcb_cpu ghcb;
static struct snp_greq greq;

static void transport_boot(void *arg)
{
	struct sim_machine *m = arg;
	uint64_t base = m->cfg.svsm_base + m->cfg.svsm_size -
			SIM_SNP_SHARED_PAGES * SNP_PAGE_SIZE;

	(void)ghcb_msr_negotiate();
	(void)ghcb_msr_hv_features();
	ghcb_cpu_init(&ghcb, gpa_init(base));
	snp_make_shared(&ghcb, gpa_init(base + SNP_PAGE_SIZE),
			SIM_SNP_SHARED_PAGES - 1);
	greq = (struct snp_greq){
		.ghcb = &ghcb,
		.req_gpa = gpa_init(base + SNP_PAGE_SIZE),
		.rsp_gpa = gpa_init(base + 2 * SNP_PAGE_SIZE),
		.certs_gpa = gpa_init(base + 3 * SNP_PAGE_SIZE),
		.req = snp_hw_map_shared(gpa_init(base + SNP_PAGE_SIZE)),
		.rsp = snp_hw_map_shared(gpa_init(base + 2 * SNP_PAGE_SIZE)),
		.certs = snp_hw_map_shared(gpa_init(base + 3 * SNP_PAGE_SIZE)),
		.certs_pages = SIM_SNP_SHARED_PAGES - 3,
	};
}

bool sim_snp_transport_init(struct sim_machine *m)
{
	uint32_t set = 0, code = 0;

	return sim_snp_run(m, transport_boot, m, &set, &code) &&
	       greq.req != NULL && greq.rsp != NULL && greq.certs != NULL;
}

uint64_t sim_snp_guest_request(struct sim_machine *m, const void *req,
			       void *rsp, void *certs, size_t *certs_len)
{
	(void)m;
	return snp_guest_request(&greq, req, rsp, certs, certs_len);
}
