/* SPDX-License-Identifier: MIT */
/*
 * Runs of SVSM code outside a guest call (its boot, an injected #HV, a
 * test's own call). Each ends where the SVSM terminates: a longjmp to
 * the context set here (m->svsm_jmp, m->snp_jmp), which the machine and
 * the sim platform are handed as data and never reach by a call.
 */
#include <setjmp.h>

#include "sim_harness.h"

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

bool sim_snp_run(struct sim_machine *m, void (*fn)(void *), void *arg,
		 uint32_t *set, uint32_t *code)
{
	jmp_buf jmp;

	m->snp_jmp = &jmp;
	if (setjmp(jmp) != 0) {
		m->snp_jmp = NULL;
		if (set != NULL) {
			*set = m->snp_term_set;
		}
		if (code != NULL) {
			*code = m->snp_term_code;
		}
		return false;
	}
	fn(arg);
	m->snp_jmp = NULL;
	return true;
}

bool sim_uses_snp_platform(const struct sim_machine *m)
{
	return m->cfg.snp_ghcb;
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
