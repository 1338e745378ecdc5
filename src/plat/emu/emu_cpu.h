/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU state of the emu firmware. One struct emu_cpu per CPU QEMU
 * gives, reached through FS base (struct emu_fs_block, whose offset 0x28
 * is the stack canary GCC's -fstack-protector reads as %fs:0x28).
 */
#ifndef EMU_CPU_H
#define EMU_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "svsm/svsm.h"

/*
 * Stacks. Exception stacks are 16 KiB. Each CPU's main stack runs the
 * vTPM engine, whose libraries reach 11.2 KiB on their own (spec notes,
 * tpm.md section 3): it is 64 KiB, as is the BSP's boot stack (entry.S).
 */
#define EMU_IST_STACK_ORDER 2u	/* 16 KiB */
#define EMU_MAIN_STACK_ORDER 4u /* 64 KiB */
#define EMU_IST_COUNT 4u /* 1 #DF, 2 NMI, 3 #MC, 4 every other exception */

struct emu_fs_block {
	uint64_t self;
	struct emu_cpu *cpu;
	uint64_t reserved[3];
	uint64_t stack_canary; /* 0x28 */
};

_Static_assert(__builtin_offsetof(struct emu_fs_block, stack_canary) == 0x28,
	       "GCC's stack protector reads %fs:0x28");

struct emu_tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iopb;
} __attribute__((packed));

struct emu_vcpu;

struct emu_cpu {
	unsigned index;
	uint32_t apic_id;
	struct emu_fs_block *fs;
	uint64_t gdt[7];
	struct emu_tss tss;
	/* SVM host state. */
	void *hsave;	 /* VM_HSAVE_PA page */
	void *host_save; /* VMSAVE area for the host's own state */
	/* AP_CREATION from a guest on another CPU: the VMSA to start. */
	uint64_t start_vmsa; /* accessed atomically; 0 = none */
	bool online;
	/* TLB shoot-down: set while in guest mode; the flush generation this
	 * CPU has applied. */
	bool in_guest;
	uint64_t flush_gen_seen;
	struct emu_vcpu *vcpu; /* the guest vCPU this CPU runs, if any */
};

struct emu_cpu *emu_this_cpu(void);
struct emu_cpu *emu_cpu_by_index(unsigned index);
unsigned emu_cpu_count(void);

/* Descriptor tables and FPU state of the calling CPU. */
void cpu_init_tables(struct emu_cpu *cpu, void *const ist_tops[EMU_IST_COUNT]);
/** Enable SSE and, where present, XSAVE with XCR0 = x87|SSE|AVX. */
uint64_t cpu_enable_fpu(void);

void serial_init(void);

#endif /* EMU_CPU_H */
