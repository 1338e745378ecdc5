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

#include "trap.h"

/*
 * Stacks. Exception stacks are 16 KiB. Each CPU's main stack runs the
 * vTPM engine, whose libraries reach 11.2 KiB on their own (spec notes,
 * tpm.md section 3): it is 64 KiB, as is the BSP's boot stack (entry.S).
 */
#define EMU_IST_STACK_ORDER 2u	/* 16 KiB */
#define EMU_MAIN_STACK_ORDER 4u /* 64 KiB */

struct emu_fs_block {
	uint64_t self;
	struct emu_cpu *cpu;
	uint64_t reserved[3];
	uint64_t stack_canary; /* 0x28 */
};

_Static_assert(__builtin_offsetof(struct emu_fs_block, stack_canary) == 0x28,
	       "GCC's stack protector reads %fs:0x28");

struct emu_vcpu;

struct emu_cpu {
	unsigned index;
	uint32_t apic_id;
	struct emu_fs_block *fs;
	struct x86_cpu_tables tables;
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

void serial_init(void);

#endif /* EMU_CPU_H */
