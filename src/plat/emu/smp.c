/* SPDX-License-Identifier: MIT */
#include "smp.h"

#include "svsm/check.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/plat.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "arch.h"
#include "emu_vcpu.h"
#include "lapic.h"
#include "layout.h"

extern struct emu_fs_block bsp_fs_block;
extern uint64_t ap_boot_stack;
extern uint64_t ap_boot_fs;
extern uint64_t ap_cr3;
extern const uint8_t ap_tramp_start[];
extern const uint8_t ap_tramp_end[];

static struct emu_cpu cpus[SVSM_MAX_CPUS];
static unsigned ncpus;
static uint64_t flush_gen;
static uint64_t boot_ist[X86_IST_COUNT][512] __attribute__((aligned(16)));

struct emu_cpu *emu_this_cpu(void)
{
	struct emu_cpu *c;

	__asm__ volatile("mov %%fs:8, %0" : "=r"(c));
	return c;
}

struct emu_cpu *emu_cpu_by_index(unsigned index)
{
	return index < ncpus ? &cpus[index] : NULL;
}

unsigned emu_cpu_count(void)
{
	return ncpus;
}

struct emu_cpu *emu_cpu_by_apic(uint32_t apic_id)
{
	unsigned i;

	for (i = 0; i < ncpus; i++) {
		if (cpus[i].apic_id == apic_id) {
			return &cpus[i];
		}
	}
	return NULL;
}

void smp_init_bsp(unsigned cpu_count)
{
	void *ist[X86_IST_COUNT];
	unsigned i;

	ncpus = cpu_count;
	for (i = 0; i < cpu_count; i++) {
		cpus[i].index = i;
		cpus[i].apic_id = i;
	}
	for (i = 0; i < X86_IST_COUNT; i++) {
		ist[i] = &boot_ist[i][512];
	}
	cpus[0].fs = &bsp_fs_block;
	bsp_fs_block.cpu = &cpus[0];
	cpus[0].online = true;
	x86_tables_load(&cpus[0].tables, ist);
	lapic_init();
}

/* A stack of 2^order pages; returns its top. */
static void *stack_alloc(unsigned order)
{
	void *p = page_alloc(order);

	if (p == NULL) {
		TERMINATE_HV(TERM_CSVSM_NO_MEMORY,
			     "emu: no memory for CPU stacks");
	}
	return (uint8_t *)p + ((size_t)4096 << order);
}

static struct emu_cpu *ap_arriving;

void emu_ap_main(void)
{
	struct emu_cpu *cpu = ap_arriving;
	void *ist[X86_IST_COUNT];
	unsigned i;

	for (i = 0; i < X86_IST_COUNT; i++) {
		ist[i] = stack_alloc(EMU_IST_STACK_ORDER);
	}
	x86_tables_load(&cpu->tables, ist);
	lapic_init();
	write_cr0(read_cr0() | CR0_WP);
	(void)x86_enable_fpu();
	if (lapic_id() != cpu->apic_id) {
		panic("CPU %u has APIC ID %u, expected %u", cpu->index,
		      lapic_id(), cpu->apic_id);
	}
	emu_vcpu_cpu_init(cpu);
	__atomic_store_n(&cpu->online, true, __ATOMIC_RELEASE);
	emu_cpu_loop(cpu);
}

void smp_start_aps(uint64_t cr3)
{
	unsigned i;

	CHECK(cr3 <
	      0x100000000ull); /* the trampoline loads it in 32-bit mode */
	ap_cr3 = cr3;
	memcpy((void *)EMU_TRAMPOLINE, ap_tramp_start,
	       (size_t)(ap_tramp_end - ap_tramp_start));
	for (i = 1; i < ncpus; i++) {
		struct emu_cpu *cpu = &cpus[i];
		struct emu_fs_block *fs = obj_alloc(sizeof(*fs));
		uint64_t deadline;

		CHECK(fs != NULL);
		memset(fs, 0, sizeof(*fs));
		fs->cpu = cpu;
		cpu->fs = fs;
		ap_arriving = cpu;
		ap_boot_stack = (uint64_t)stack_alloc(EMU_MAIN_STACK_ORDER);
		ap_boot_fs = (uint64_t)fs;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		lapic_start_ap(cpu->apic_id, EMU_TRAMPOLINE);
		deadline = rdtsc() + 20000000000ull; /* several seconds */
		while (!__atomic_load_n(&cpu->online, __ATOMIC_ACQUIRE)) {
			if (rdtsc() > deadline) {
				panic("CPU %u (APIC ID %u) did not start", i,
				      cpu->apic_id);
			}
			cpu_relax();
		}
	}
	LOG_INFO("smp: %u CPUs online", ncpus);
}

uint64_t smp_flush_gen(void)
{
	return __atomic_load_n(&flush_gen, __ATOMIC_ACQUIRE);
}

void smp_flush_guest_tlbs(void)
{
	struct emu_cpu *self = emu_this_cpu();
	uint64_t gen = __atomic_add_fetch(&flush_gen, 1, __ATOMIC_SEQ_CST);
	unsigned i;

	for (i = 0; i < ncpus; i++) {
		if (&cpus[i] != self &&
		    __atomic_load_n(&cpus[i].in_guest, __ATOMIC_SEQ_CST)) {
			lapic_send_ipi(cpus[i].apic_id, EMU_VEC_WAKEUP);
		}
	}
	for (i = 0; i < ncpus; i++) {
		if (&cpus[i] == self) {
			continue;
		}
		while (__atomic_load_n(&cpus[i].in_guest, __ATOMIC_SEQ_CST) &&
		       __atomic_load_n(&cpus[i].flush_gen_seen,
				       __ATOMIC_SEQ_CST) < gen) {
			cpu_relax();
		}
	}
}
