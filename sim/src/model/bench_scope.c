/* SPDX-License-Identifier: MIT */
/*
 * Callgrind collection scopes, so `make bench` can count the SVSM's own
 * instructions apart from the model's. Collection is toggled only when a
 * benchmark asked for a scope; otherwise these cost a compare each.
 */
#include <valgrind/callgrind.h>

#include "sim_machine.h"

static void bench_collect(struct sim_machine *m, bool on)
{
	if (m->bench_collecting != on) {
		CALLGRIND_TOGGLE_COLLECT;
		m->bench_collecting = on;
	}
}

void sim_bench_set_scope(struct sim_machine *m, enum sim_bench_scope s)
{
	if (m->bench_scope != SIM_BENCH_OFF) {
		bench_collect(m, false);
	}
	m->bench_scope = s;
}

void sim_bench_svsm_begin(struct sim_machine *m)
{
	if (m->bench_scope == SIM_BENCH_SVSM) {
		bench_collect(m, true);
	}
}

void sim_bench_svsm_end(struct sim_machine *m)
{
	if (m->bench_scope == SIM_BENCH_SVSM) {
		bench_collect(m, false);
	}
}

void sim_bench_model_begin(struct sim_machine *m)
{
	if (m->bench_scope == SIM_BENCH_SVSM) {
		bench_collect(m, false);
	} else if (m->bench_scope == SIM_BENCH_MODEL) {
		bench_collect(m, true);
	}
}

void sim_bench_model_end(struct sim_machine *m)
{
	if (m->bench_scope == SIM_BENCH_SVSM) {
		bench_collect(m, true);
	} else if (m->bench_scope == SIM_BENCH_MODEL) {
		bench_collect(m, false);
	}
}
