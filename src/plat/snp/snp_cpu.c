/* SPDX-License-Identifier: MIT */
/* The snp platform's CPUs and state (snp_cpu.h). */
#include "snp_cpu.h"

#include "svsm/check.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "snp_boot.h"
#include "snp_hv.h"
#include "snp_hw.h"

#define COM1 0x3F8u

static struct snp_platform snp;

struct snp_platform *snp_platform(void)
{
	return &snp;
}

void snp_bad_boot(const char *why)
{
	SNP_TERMINATE_HV(TERM_CSVSM_BAD_BOOT_INFO, "snp: boot: %s", why);
}

void snp_cpu_online(struct snp_cpu *c)
{
	ghcb_cpu_init(&c->ghcb, c->ghcb_gpa);
	snp_make_shared(&c->ghcb, c->doorbell_gpa, 1);
	c->doorbell = snp_hw_map_shared(c->doorbell_gpa);
	if (c->doorbell == NULL) {
		SNP_TERMINATE_HV(TERM_CSVSM_PSC_FAILED,
				 "snp: #HV doorbell page 0x%llx not mappable"
				 " as shared",
				 (unsigned long long)gpa_val(c->doorbell_gpa));
	}
	snp_hv_doorbell_register(&c->ghcb, c->doorbell_gpa);
	c->online = true;
}

static struct snp_cpu *this_cpu(void)
{
	struct snp_cpu *c = snp_hw_this_cpu();

	CHECK(c != NULL && c->online);
	return c;
}

struct ghcb_cpu *snp_this_ghcb(void)
{
	return &this_cpu()->ghcb;
}

void snp_console_write(const char *s, size_t len)
{
	struct snp_cpu *c = snp_hw_this_cpu();
	size_t i;

	/* No GHCB yet: nowhere to write. Already writing: a GHCB failure
	 * is being logged from inside the console's own GHCB call, and the
	 * termination that follows says what happened. */
	if (c == NULL || !c->online || c->console_busy) {
		return;
	}
	c->console_busy = true;
	for (i = 0; i < len; i++) {
		ghcb_io_out(&c->ghcb, COM1, 1, (uint8_t)s[i]);
	}
	c->console_busy = false;
}

uint64_t snp_plat_guest_request(const void *req, void *rsp, void *certs,
				size_t *certs_len)
{
	/* The guest-message lock serialises requests; the GHCB is the
	 * calling CPU's. */
	snp.greq.ghcb = snp_this_ghcb();
	return snp_guest_request(&snp.greq, req, rsp, certs, certs_len);
}
