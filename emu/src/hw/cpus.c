/* SPDX-License-Identifier: MIT */
/*
 * The machine's CPUs: one struct mcpu per CPU QEMU gives, found through
 * FS base (the block the entry code set, whose offset 8 points here).
 * APIC IDs are 0..n-1 (QEMU's flat topology); each AP checks its own.
 */
#include "cpus.h"

#include "svsm/std.h"

#include "arch.h"
#include "machine/lapic.h"
#include "machine/layout.h"
#include "machine/machine.h"
#include "mcpu.h"

#define IST_PAGES 4u
#define STACK_PAGES 16u

struct fs_block {
	uint64_t self;
	struct mcpu *cpu;
	uint64_t reserved[3];
	uint64_t stack_canary; /* 0x28: GCC's -fstack-protector */
};
_Static_assert(__builtin_offsetof(struct fs_block, stack_canary) == 0x28,
	       "GCC's stack protector reads %fs:0x28");

/* What the entry (entry.S) reads: the boot CPU's block, and each AP's
 * stack and block as it starts. The trampoline's bounds: machine.ld. */
extern struct fs_block bsp_fs_block;
extern uint64_t ap_boot_stack, ap_boot_fs;
struct fs_block bsp_fs_block __attribute__((aligned(64)));
uint64_t ap_boot_stack, ap_boot_fs;
extern const uint8_t ap_tramp_start[], ap_tramp_end[];

static struct mcpu cpus[MACHINE_MAX_CPUS];
static unsigned ncpus;
static struct mcpu *ap_arriving;
static void (*ap_entry)(struct mcpu *);

struct mcpu *mcpu_this(void)
{
	struct mcpu *c;

	__asm__ volatile("mov %%fs:8, %0" : "=r"(c));
	return c;
}

unsigned mcpu_index(const struct mcpu *c)
{
	return c->index;
}

struct mcpu *mcpu_by_apic(uint32_t apic_id)
{
	unsigned i;

	for (i = 0; i < ncpus; i++) {
		if (cpus[i].apic_id == apic_id) {
			return &cpus[i];
		}
	}
	return NULL;
}

unsigned mcpu_count(void)
{
	return ncpus;
}

static void tables(struct mcpu *c)
{
	void *ist[X86_IST_COUNT];
	unsigned i;

	for (i = 0; i < X86_IST_COUNT; i++) {
		ist[i] =
			(uint8_t *)mm_alloc_pages(IST_PAGES) + IST_PAGES * PAGE;
	}
	x86_tables_load(&c->tables, ist);
	lapic_init();
	write_cr0(read_cr0() | CR0_WP);
	(void)x86_enable_fpu();
}

void cpus_init_bsp(unsigned count)
{
	unsigned i;

	MCHECK(count > 0 && count <= MACHINE_MAX_CPUS);
	ncpus = count;
	for (i = 0; i < count; i++) {
		cpus[i].index = i;
		cpus[i].apic_id = i;
	}
	bsp_fs_block.cpu = &cpus[0];
	tables(&cpus[0]);
	cpus[0].online = true;
}

void machine_ap_main(void);
void machine_ap_main(void)
{
	struct mcpu *c = ap_arriving;

	tables(c);
	if (lapic_id() != c->apic_id) {
		machine_panic("CPU %u has APIC ID %u, expected %u", c->index,
			      lapic_id(), c->apic_id);
	}
	__atomic_store_n(&c->online, true, __ATOMIC_RELEASE);
	ap_entry(c);
	machine_panic("CPU %u left its loop", c->index);
}

void cpus_start_aps(void (*entry)(struct mcpu *))
{
	unsigned i;

	ap_entry = entry;
	memcpy((void *)MACHINE_TRAMPOLINE, ap_tramp_start,
	       (size_t)(ap_tramp_end - ap_tramp_start));
	for (i = 1; i < ncpus; i++) {
		struct mcpu *c = &cpus[i];
		struct fs_block *fs = mm_alloc_pages(1);
		uint64_t deadline;

		fs->cpu = c;
		ap_arriving = c;
		ap_boot_stack = (uint64_t)mm_alloc_pages(STACK_PAGES) +
				STACK_PAGES * PAGE;
		ap_boot_fs = (uint64_t)fs;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		lapic_start_ap(c->apic_id, MACHINE_TRAMPOLINE);
		deadline = rdtsc() + 20000000000ull; /* several seconds */
		while (!__atomic_load_n(&c->online, __ATOMIC_ACQUIRE)) {
			if (rdtsc() > deadline) {
				machine_panic("CPU %u did not start", i);
			}
			cpu_relax();
		}
	}
}
