/* SPDX-License-Identifier: MIT */
/*
 * The bench instrument (instrument.h). Per-CPU state, written only by
 * its own CPU; instr_report() reads the other CPUs' without a lock at
 * the machine's exit, a snapshot good to a few cycles. The TSC counts
 * from QEMU's reset of the machine (TCG: the host's ticks since the VM
 * started), so the first VMRUNs' TSC values are cycles from reset.
 */
#include "instrument.h"

#include "svsm/std.h"

#include "abi/ghcb.h"
#include "abi/svsm_attest.h"
#include "abi/svsm_call.h"
#include "abi/svsm_vtpm.h"

#include "arch.h"
#include "machine/lapic.h"
#include "vmcb.h"

#define INSTR_WHERE (MACHINE_VMPLS + 2u)
#define INSTR_CALLS 24u
#define INSTR_CODES 16u
#define INSTR_CALL_CODES 8u /* exit codes kept per call */

struct instr_code_count {
	uint64_t code;
	uint64_t n;
};

struct instr_call_count {
	uint64_t rax;
	uint64_t n;
	uint64_t cycles; /* from the caller's exit to its next VMRUN */
	uint64_t exits;	 /* VMPL0's meanwhile, the run-VMPL that ends it too */
	/* The same exits by code; past INSTR_CALL_CODES codes in other. */
	struct instr_code_count codes[INSTR_CALL_CODES];
	uint64_t other_codes;
};

struct instr_cpu {
	uint64_t start; /* 0: this CPU's clock has not started */
	uint64_t since;
	unsigned where;
	uint64_t cycles[INSTR_WHERE];
	struct instr_call_count calls[INSTR_CALLS];
	uint64_t other_calls; /* past INSTR_CALLS distinct calls */
	unsigned call;	      /* the call being served, INSTR_CALLS: none */
	uint64_t call_start;
	uint64_t guest_exit; /* TSC at a guest VMPL's latest exit */
	struct instr_code_count exits[MACHINE_VMPLS][INSTR_CODES];
	uint64_t other_exits[MACHINE_VMPLS]; /* past INSTR_CODES codes */
} __attribute__((aligned(64)));

static struct instr_cpu instr_cpus[MACHINE_MAX_CPUS];
static uint64_t first_run[MACHINE_VMPLS];
/* The cycles of the CPU that first ran VMPL1, as they were then: the
 * SVSM's boot (the other CPUs wait for their VMSAs). */
static uint64_t boot_cycles[INSTR_WHERE];
static unsigned boot_cpu;

void instr_at(unsigned cpu, unsigned where)
{
	struct instr_cpu *s;
	uint64_t now = rdtsc();

	if (cpu >= MACHINE_MAX_CPUS || where >= INSTR_WHERE) {
		return;
	}
	s = &instr_cpus[cpu];
	if (s->start == 0) {
		s->start = now;
		s->call = INSTR_CALLS;
	} else {
		s->cycles[s->where] += now - s->since;
	}
	s->since = now;
	__atomic_store_n(&s->where, where, __ATOMIC_RELAXED);
	if (where != 0 && where < MACHINE_VMPLS && s->call < INSTR_CALLS) {
		s->calls[s->call].cycles += now - s->call_start;
		s->call = INSTR_CALLS;
	}
	if (where < MACHINE_VMPLS &&
	    __atomic_load_n(&first_run[where], __ATOMIC_RELAXED) == 0) {
		uint64_t zero = 0;

		if (__atomic_compare_exchange_n(&first_run[where], &zero, now,
						false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED) &&
		    where == 1) {
			memcpy(boot_cycles, s->cycles, sizeof(boot_cycles));
			boot_cpu = cpu;
		}
	}
}

/* @rax's entry in the INSTR_CALLS-entry table @t, whose unused entries
 * have n == 0 and follow the used ones (an unused one is cleared and
 * given @rax); NULL if @rax is new and @t is full. The calls' find-or-add,
 * as code_add_in() is the codes'. */
static struct instr_call_count *call_slot(struct instr_call_count *t,
					  uint64_t rax)
{
	unsigned i;

	for (i = 0; i < INSTR_CALLS; i++) {
		if (t[i].n == 0) {
			memset(&t[i], 0, sizeof(t[i]));
			t[i].rax = rax;
			return &t[i];
		}
		if (t[i].rax == rax) {
			return &t[i];
		}
	}
	return NULL;
}

void instr_call(unsigned cpu, uint64_t rax)
{
	struct instr_cpu *s;
	struct instr_call_count *e;

	if (cpu >= MACHINE_MAX_CPUS) {
		return;
	}
	s = &instr_cpus[cpu];
	e = call_slot(s->calls, rax);
	if (e == NULL) {
		s->call = INSTR_CALLS;
		s->other_calls++;
		return;
	}
	e->n++;
	s->call = (unsigned)(e - s->calls);
	s->call_start = s->guest_exit;
}

/* Add @n to @code's count in the @size-entry table @t, whose unused
 * entries have n == 0; false if @code is new and @t is full. */
static bool code_add_in(struct instr_code_count *t, unsigned size,
			uint64_t code, uint64_t n)
{
	unsigned i;

	for (i = 0; i < size; i++) {
		if (t[i].n == 0) {
			t[i].code = code;
		}
		if (t[i].code == code) {
			t[i].n += n;
			return true;
		}
	}
	return false;
}

static bool code_add(struct instr_code_count *t, uint64_t code, uint64_t n)
{
	return code_add_in(t, INSTR_CODES, code, n);
}

/* Add @n exits of @code to call @c's split by code. */
static void call_code_add(struct instr_call_count *c, uint64_t code, uint64_t n)
{
	if (!code_add_in(c->codes, INSTR_CALL_CODES, code, n)) {
		c->other_codes += n;
	}
}

void instr_exit(unsigned cpu, unsigned vmpl, uint64_t code)
{
	struct instr_cpu *s;

	if (cpu >= MACHINE_MAX_CPUS || vmpl >= MACHINE_VMPLS) {
		return;
	}
	s = &instr_cpus[cpu];
	if (vmpl != 0) {
		s->guest_exit = rdtsc();
	} else if (s->call < INSTR_CALLS) {
		s->calls[s->call].exits++;
		call_code_add(&s->calls[s->call], code, 1);
	}
	if (!code_add(s->exits[vmpl], code, 1)) {
		s->other_exits[vmpl]++;
	}
}

/* A name from the ABI's lists (abi/svsm_*.h, vmcb.h): a switch's arm. */
#define CALL_NAME(protocol, call, name)                                        \
	case SVSM_CALL(protocol, call):                                        \
		return name;
#define PROTOCOL_NAME(protocol, name)                                          \
	case protocol:                                                         \
		return name " ?";
#define EXIT_NAME(code, name)                                                  \
	case code:                                                             \
		return name;

const char *instr_call_name(uint64_t rax)
{
	switch (rax) {
		SVSM_CORE_CALL_NAMES(CALL_NAME)
		SVSM_ATTEST_CALL_NAMES(CALL_NAME)
		SVSM_VTPM_CALL_NAMES(CALL_NAME)
	default:
		break;
	}
	switch (SVSM_CALL_PROTOCOL(rax)) {
		SVSM_PROTOCOL_NAMES(PROTOCOL_NAME)
	default:
		return "?";
	}
}

/* All CPUs' calls into one table, each distinct RAX once. */
static unsigned merge_calls(struct instr_call_count *all, uint64_t *other)
{
	unsigned i, j, c, n, cpus = mcpu_count();

	*other = 0;
	memset(all, 0, INSTR_CALLS * sizeof(*all));
	for (i = 0; i < cpus && i < MACHINE_MAX_CPUS; i++) {
		const struct instr_cpu *s = &instr_cpus[i];

		*other += s->other_calls;
		for (j = 0; j < INSTR_CALLS && s->calls[j].n != 0; j++) {
			const struct instr_call_count *from = &s->calls[j];
			struct instr_call_count *to = call_slot(all, from->rax);

			if (to == NULL) {
				*other += from->n;
				continue;
			}
			to->n += from->n;
			to->cycles += from->cycles;
			to->exits += from->exits;
			to->other_codes += from->other_codes;
			for (c = 0;
			     c < INSTR_CALL_CODES && from->codes[c].n != 0;
			     c++) {
				call_code_add(to, from->codes[c].code,
					      from->codes[c].n);
			}
		}
	}
	n = 0;
	while (n < INSTR_CALLS && all[n].n != 0) {
		n++; /* the used entries come first (call_slot) */
	}
	return n;
}

const char *instr_exit_name(uint64_t code)
{
	switch (code) {
		SVM_EXIT_NAMES(EXIT_NAME)
	default:
		return code >= SVM_EXIT_EXCP_BASE && code < SVM_EXIT_INTR
			       ? "exception vector + 0x40"
			       : "other";
	}
}

/* CPU @s's exits at @vmpl, of every code. */
static uint64_t exits_at(const struct instr_cpu *s, unsigned vmpl)
{
	uint64_t n = s->other_exits[vmpl];
	unsigned j;

	for (j = 0; j < INSTR_CODES && s->exits[vmpl][j].n != 0; j++) {
		n += s->exits[vmpl][j].n;
	}
	return n;
}

/* All CPUs' exits at @vmpl by code, one line each. */
static void report_exits(unsigned vmpl)
{
	struct instr_code_count all[INSTR_CODES] = {0};
	uint64_t other = 0;
	unsigned i, j, k, cpus = mcpu_count();

	for (i = 0; i < cpus && i < MACHINE_MAX_CPUS; i++) {
		const struct instr_code_count *t = instr_cpus[i].exits[vmpl];

		other += instr_cpus[i].other_exits[vmpl];
		for (j = 0; j < INSTR_CODES && t[j].n != 0; j++) {
			if (!code_add(all, t[j].code, t[j].n)) {
				other += t[j].n;
			}
		}
	}
	for (k = 0; k < INSTR_CODES && all[k].n != 0; k++) {
		mlog("bench: VMPL%u exits 0x%llx (%s): %llu", vmpl,
		     (unsigned long long)all[k].code,
		     instr_exit_name(all[k].code),
		     (unsigned long long)all[k].n);
	}
	if (other != 0) {
		mlog("bench: VMPL%u exits of other codes: %llu", vmpl,
		     (unsigned long long)other);
	}
}

void instr_report(void)
{
	struct instr_call_count all[INSTR_CALLS]; /* 4 KiB of a 64 KiB stack */
	uint64_t other, sum[INSTR_WHERE] = {0}, total = 0;
	unsigned i, n, cpus = mcpu_count();

	for (i = 0; i < cpus && i < MACHINE_MAX_CPUS; i++) {
		const struct instr_cpu *s = &instr_cpus[i];
		uint64_t c[INSTR_WHERE], now = rdtsc();
		unsigned where = __atomic_load_n(&s->where, __ATOMIC_RELAXED);
		unsigned w;

		if (s->start == 0) {
			continue;
		}
		memcpy(c, s->cycles, sizeof(c));
		c[where] += now - s->since;
		for (w = 0; w < INSTR_WHERE; w++) {
			sum[w] += c[w];
		}
		total += now - s->start;
		mlog("bench: vCPU %u TSC cycles: VMPL0 %llu, VMPL1 %llu, "
		     "machine %llu, idle %llu, total %llu",
		     i, (unsigned long long)c[0], (unsigned long long)c[1],
		     (unsigned long long)c[INSTR_MACHINE],
		     (unsigned long long)c[INSTR_IDLE],
		     (unsigned long long)(now - s->start));
	}
	mlog("bench: all vCPUs TSC cycles: VMPL0 %llu, VMPL1 %llu, "
	     "machine %llu, idle %llu, total %llu",
	     (unsigned long long)sum[0], (unsigned long long)sum[1],
	     (unsigned long long)sum[INSTR_MACHINE],
	     (unsigned long long)sum[INSTR_IDLE], (unsigned long long)total);
	n = merge_calls(all, &other);
	for (i = 0; i < n; i++) {
		mlog("bench: SVSM call %u:%u (%s): %llu, %llu TSC cycles, "
		     "%llu VMPL0 exits",
		     SVSM_CALL_PROTOCOL(all[i].rax), SVSM_CALL_ID(all[i].rax),
		     instr_call_name(all[i].rax), (unsigned long long)all[i].n,
		     (unsigned long long)all[i].cycles,
		     (unsigned long long)all[i].exits);
	}
	/* Each call's VMPL0 exits by code: which are the SVSM's own VMGEXITs
	 * and which the machine's (scripts/bench-linux.sh). */
	for (i = 0; i < n; i++) {
		unsigned c;

		for (c = 0; c < INSTR_CALL_CODES && all[i].codes[c].n != 0;
		     c++) {
			mlog("bench: VMPL0 exits in SVSM call %u:%u (%s) "
			     "0x%llx "
			     "(%s): %llu",
			     SVSM_CALL_PROTOCOL(all[i].rax),
			     SVSM_CALL_ID(all[i].rax),
			     instr_call_name(all[i].rax),
			     (unsigned long long)all[i].codes[c].code,
			     instr_exit_name(all[i].codes[c].code),
			     (unsigned long long)all[i].codes[c].n);
		}
		if (all[i].other_codes != 0) {
			mlog("bench: VMPL0 exits in SVSM call %u:%u (%s) of "
			     "other codes: %llu",
			     SVSM_CALL_PROTOCOL(all[i].rax),
			     SVSM_CALL_ID(all[i].rax),
			     instr_call_name(all[i].rax),
			     (unsigned long long)all[i].other_codes);
		}
	}
	if (other != 0) {
		mlog("bench: SVSM calls of other kinds: %llu",
		     (unsigned long long)other);
	}
	/* The machine's one count of exits per vCPU and VMPL. */
	for (i = 0; i < cpus && i < MACHINE_MAX_CPUS; i++) {
		mlog("bench: vCPU %u exits: VMPL0 %llu, VMPL1 %llu", i,
		     (unsigned long long)exits_at(&instr_cpus[i], 0),
		     (unsigned long long)exits_at(&instr_cpus[i], 1));
	}
	for (i = 0; i < MACHINE_VMPLS; i++) {
		report_exits(i);
	}
	mlog("bench: vCPU %u before VMPL1's first VMRUN: VMPL0 %llu, "
	     "machine %llu, idle %llu",
	     boot_cpu, (unsigned long long)boot_cycles[0],
	     (unsigned long long)boot_cycles[INSTR_MACHINE],
	     (unsigned long long)boot_cycles[INSTR_IDLE]);
	mlog("bench: first VMRUN at TSC: VMPL0 %llu, VMPL1 %llu "
	     "(from reset; TSC %llu kHz)",
	     (unsigned long long)first_run[0], (unsigned long long)first_run[1],
	     (unsigned long long)lapic_tsc_khz());
}
