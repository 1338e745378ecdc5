/* SPDX-License-Identifier: MIT */
/*
 * What every part of the simulated machine shares, below machine.c which
 * puts them together: which machine is live (the platforms' seams find
 * it here, having no handle of their own), its reproducible random
 * numbers, and the stale bytes a host leaves in the pages it hands over.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/terminate.h"

#include "abi/snp.h"

#include "sim_machine.h"

/* One machine at a time: set by sim_machine_new, cleared by its free. */
static struct sim_machine *live_machine;

struct sim_machine *sim_current(void)
{
	return live_machine;
}

struct sim_machine *sim_live(void)
{
	if (live_machine == NULL) {
		abort(); /* SVSM code ran without a machine: a harness bug */
	}
	return live_machine;
}

void sim_vm_end(struct sim_machine *m, uint32_t set, uint32_t code)
{
	m->terminated = true;
	m->term_set = set;
	m->term_code = code;
	if (m->cfg.abort_on_panic && set == TERM_SET_CSVSM &&
	    code == TERM_CSVSM_PANIC) {
		fprintf(stderr, "%s", m->console);
		abort();
	}
	if (m->svsm_jmp == NULL) {
		abort(); /* terminate outside an SVSM entry: a harness bug */
	}
	longjmp(*m->svsm_jmp, 1);
}

void sim_set_current(struct sim_machine *m)
{
	live_machine = m;
}

uint64_t sim_rng_next(struct sim_machine *m)
{
	/* xorshift64*: reproducible stale contents and VMPCKs. */
	m->rng ^= m->rng >> 12;
	m->rng ^= m->rng << 25;
	m->rng ^= m->rng >> 27;
	return m->rng * 0x2545F4914F6CDD1Dull;
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
