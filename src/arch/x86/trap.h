/* SPDX-License-Identifier: MIT */
/*
 * Exceptions and descriptor tables of the firmware platforms (emu, snp).
 * One IDT for all CPUs, a GDT and TSS per CPU. Every exception runs on an
 * IST stack, so a fault on a broken stack still reaches its handler:
 * #DF, NMI and #MC each have their own; #VC and #HV (snp) have their own,
 * since they arrive in the middle of any SVSM code; the rest share one (a
 * nested fault there is fatal anyway).
 */
#ifndef X86_TRAP_H
#define X86_TRAP_H

#include <stdint.h>

/* What every stub in isr.S leaves for arch_trap(): the 15 GPRs, vector,
 * error code (0 where the CPU pushes none), then the CPU's frame. The
 * handler may change any of it; isr.S returns with IRETQ to what it
 * holds then. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rdi, rsi, rbp, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;
};

#define X86_VEC_DF 8u
#define X86_VEC_NMI 2u
#define X86_VEC_GP 13u
#define X86_VEC_PF 14u
#define X86_VEC_MC 18u
#define X86_VEC_HV 28u
#define X86_VEC_VC 29u
/* The emu platform's wake-up IPI and the APIC's spurious vector. */
#define X86_VEC_WAKEUP 0xF0u
#define X86_VEC_SPURIOUS 0xFFu

/* IST slots, 1-based as the IDT names them. */
#define X86_IST_DF 1u
#define X86_IST_NMI 2u
#define X86_IST_MC 3u
#define X86_IST_OTHER 4u
#define X86_IST_VC 5u
#define X86_IST_HV 6u
#define X86_IST_COUNT 6u

/* Selectors of every CPU's GDT. */
#define X86_SEL_CODE32 0x08u /* emu's AP trampoline */
#define X86_SEL_DATA 0x10u
#define X86_SEL_CODE64 0x18u
#define X86_SEL_TSS 0x20u

struct x86_tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iopb;
} __attribute__((packed));

struct x86_cpu_tables {
	uint64_t gdt[7];
	struct x86_tss tss;
};

/** The platform's exception and interrupt handler (emu: exc.c; snp:
 * hw/trap.c). */
void arch_trap(struct trap_frame *f);

/**
 * Load @t's GDT (flat code and data, this TSS) and TSS, with
 * @ist_tops[i] the top of IST stack i + 1, and the shared IDT; reload
 * CS and the data segments. The first call (the boot CPU, before any
 * other starts) builds the IDT.
 */
void x86_tables_load(struct x86_cpu_tables *t,
		     void *const ist_tops[X86_IST_COUNT]);

/** Log @f and the control registers (before a panic or termination). */
void x86_trap_dump(const struct trap_frame *f, unsigned cpu_index);

/** Enable SSE and, where present, XSAVE with XCR0 = x87|SSE|AVX. */
uint64_t x86_enable_fpu(void);

#endif /* X86_TRAP_H */
