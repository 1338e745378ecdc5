/* SPDX-License-Identifier: MIT */
/*
 * The post-mortem (postmortem.h). Each CPU writes only its own ring; a
 * print reads the others' without a lock when the machine stops, so an
 * entry being written then may show half old, half new: a diagnostic,
 * never an input to the machine.
 */
#include "postmortem.h"

#include "svsm/std.h"

#include "abi/snp.h"

#include "arch.h"
#include "instrument.h"
#include "machine/lapic.h"
#include "machine/layout.h"
#include "machine/stop.h"
#include "mcpu.h"
#include "walk.h"

#define PM_EXITS 8u
/* How long the boot CPU waits for the others to answer a stop. */
#define PM_WAIT_MS 2000u

struct pm_exit {
	uint64_t code, info1, info2, int_info, rip;
	unsigned vmpl;
};

struct pm_cpu {
	struct pm_exit ring[PM_EXITS];
	uint64_t count; /* exits recorded; ring[count % PM_EXITS] is next */
	uint64_t call;	/* RAX of the latest SVSM call */
	uint64_t calls;
	bool answered;
} __attribute__((aligned(64)));

static struct pm_cpu pm_cpus[MACHINE_MAX_CPUS];
static bool pm_printed;

void pm_exit(unsigned cpu, unsigned vmpl, const struct vmcb_control *ctl,
	     uint64_t rip)
{
	struct pm_cpu *s = &pm_cpus[cpu];

	s->ring[s->count % PM_EXITS] = (struct pm_exit){
		.code = ctl->exit_code,
		.info1 = ctl->exit_info_1,
		.info2 = ctl->exit_info_2,
		.int_info = ctl->exit_int_info,
		.rip = rip,
		.vmpl = vmpl,
	};
	__atomic_store_n(&s->count, s->count + 1, __ATOMIC_RELEASE);
}

void pm_call(unsigned cpu, uint64_t rax)
{
	pm_cpus[cpu].call = rax;
	pm_cpus[cpu].calls++;
}

bool pm_pending(unsigned cpu)
{
	return machine_stop_requested() && !pm_cpus[cpu].answered;
}

static void print_cpu(unsigned cpu)
{
	const struct pm_cpu *s = &pm_cpus[cpu];
	/* One snapshot: the CPU may still be running and adding exits. */
	uint64_t count = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);
	uint64_t n = count < PM_EXITS ? count : PM_EXITS, i;

	if (s->calls != 0) {
		mlog("vCPU %u: %llu SVSM calls, the last %s (RAX %llx)", cpu,
		     (unsigned long long)s->calls, instr_call_name(s->call),
		     (unsigned long long)s->call);
	}
	mlog("vCPU %u: %llu exits, the last %llu (oldest first):", cpu,
	     (unsigned long long)count, (unsigned long long)n);
	for (i = count - n; i < count; i++) {
		const struct pm_exit *e = &s->ring[i % PM_EXITS];

		/* EXITINTINFO: valid, the event the exit cut short; else
		 * QEMU's leftover of the last event it delivered (it clears
		 * only the valid bit): no event in flight. */
		const char *ev = (e->int_info & EVENT_VALID) != 0
					 ? "in delivery"
					 : "delivered before";
		char info[48] = "";

		if (e->int_info != 0) {
			(void)fmt_snprintf(info, sizeof(info), ", %s %llx", ev,
					   (unsigned long long)e->int_info);
		}
		mlog("vCPU %u:   VMPL%u %s (%llx) at RIP %llx, info %llx "
		     "%llx%s",
		     cpu, e->vmpl, instr_exit_name(e->code),
		     (unsigned long long)e->code, (unsigned long long)e->rip,
		     (unsigned long long)e->info1, (unsigned long long)e->info2,
		     info);
	}
}

static void print_walk(unsigned cpu, unsigned vmpl, const struct snp_vmsa *a,
		       const char *what, uint64_t va)
{
	uint64_t e[5] = {0};
	unsigned n = gw_trace(a, vmpl, va, e);

	mlog("vCPU %u VMPL%u: %s %llx: %u entries %llx %llx %llx %llx %llx",
	     cpu, vmpl, what, (unsigned long long)va, n,
	     (unsigned long long)e[0], (unsigned long long)e[1],
	     (unsigned long long)e[2], (unsigned long long)e[3],
	     (unsigned long long)e[4]);
}

void pm_vcpu(unsigned cpu, unsigned vmpl, const struct snp_vmsa *a)
{
	mlog("vCPU %u VMPL%u: CR0 %llx CR2 %llx CR3 %llx CR4 %llx EFER %llx "
	     "RSP %llx CPL %u IDT %llx+%x",
	     cpu, vmpl, (unsigned long long)a->cr0, (unsigned long long)a->cr2,
	     (unsigned long long)a->cr3, (unsigned long long)a->cr4,
	     (unsigned long long)a->efer, (unsigned long long)a->rsp, a->cpl,
	     (unsigned long long)a->idtr.base, a->idtr.limit);
	print_walk(cpu, vmpl, a, "RIP", a->rip);
	print_walk(cpu, vmpl, a, "CR2", a->cr2);
	print_walk(cpu, vmpl, a, "IDT", a->idtr.base);
	print_walk(cpu, vmpl, a, "RSP", a->rsp);
}

void pm_print(void)
{
	unsigned i, n = mcpu_count();

	if (__atomic_exchange_n(&pm_printed, true, __ATOMIC_ACQ_REL)) {
		return;
	}
	for (i = 0; i < n && i < MACHINE_MAX_CPUS; i++) {
		print_cpu(i);
	}
}

void pm_answer(struct mcpu *c, unsigned vmpl, const struct snp_vmsa *a,
	       const char *state)
{
	uint64_t deadline;
	unsigned i, n = mcpu_count();

	if (a == NULL) {
		mlog("stop: vCPU %u: no VMSA at VMPL%u", c->index, vmpl);
	} else {
		mlog("stop: vCPU %u VMPL%u %s: RIP %llx CPL %u RFLAGS %llx "
		     "CR0 %llx CR3 %llx CR4 %llx EFER %llx",
		     c->index, vmpl, state, (unsigned long long)a->rip, a->cpl,
		     (unsigned long long)a->rflags, (unsigned long long)a->cr0,
		     (unsigned long long)a->cr3, (unsigned long long)a->cr4,
		     (unsigned long long)a->efer);
	}
	__atomic_store_n(&pm_cpus[c->index].answered, true, __ATOMIC_RELEASE);
	if (c->index != 0) {
		return;
	}
	deadline = rdtsc() + lapic_tsc_khz() * PM_WAIT_MS;
	for (i = 1; i < n && i < MACHINE_MAX_CPUS; i++) {
		while (!__atomic_load_n(&pm_cpus[i].answered,
					__ATOMIC_ACQUIRE) &&
		       rdtsc() < deadline) {
			__asm__ volatile("pause");
		}
		if (!pm_cpus[i].answered) {
			mlog("stop: vCPU %u did not answer: its CPU is busy "
			     "in the machine",
			     i);
		}
	}
}
