/* SPDX-License-Identifier: MIT */
/*
 * GDT, TSS and IDT. One IDT for all CPUs; a GDT and TSS per CPU. Every
 * exception has an IST stack, so a fault on a broken kernel stack still
 * reaches the register dump: #DF, NMI and #MC have their own, the rest
 * share a fourth (a nested fault there is fatal anyway).
 */
#include "svsm/std.h"

#include "arch.h"
#include "emu_cpu.h"

#define SEL_CODE64 0x18u
#define SEL_TSS 0x20u

struct idt_entry {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t ist;
	uint8_t type;
	uint16_t off_mid;
	uint32_t off_hi;
	uint32_t reserved;
} __attribute__((packed));

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

extern const uint64_t isr_exception_table[32];
extern const uint64_t isr_wakeup;
extern const uint64_t isr_spurious;

static struct idt_entry idt[256] __attribute__((aligned(16)));
static bool idt_built;

static void idt_set(unsigned vec, uint64_t handler, unsigned ist)
{
	idt[vec] = (struct idt_entry){
		.off_lo = (uint16_t)handler,
		.sel = SEL_CODE64,
		.ist = (uint8_t)ist,
		.type = 0x8E, /* present, DPL0, 64-bit interrupt gate */
		.off_mid = (uint16_t)(handler >> 16),
		.off_hi = (uint32_t)(handler >> 32),
	};
}

static void idt_build(void)
{
	unsigned v;

	for (v = 0; v < 32; v++) {
		unsigned ist = 4;

		if (v == 8) {
			ist = 1;
		} else if (v == 2) {
			ist = 2;
		} else if (v == 18) {
			ist = 3;
		}
		idt_set(v, isr_exception_table[v], ist);
	}
	idt_set(0xF0, isr_wakeup, 0);
	idt_set(0xFF, isr_spurious, 0);
	idt_built = true;
}

void cpu_init_tables(struct emu_cpu *cpu, void *const ist_tops[EMU_IST_COUNT])
{
	uint64_t tss = (uint64_t)&cpu->tss;
	uint64_t limit = sizeof(cpu->tss) - 1;
	struct desc_ptr gdtr;
	struct desc_ptr idtr;
	unsigned i;

	if (!idt_built) {
		idt_build(); /* the BSP, before any AP starts */
	}
	memset(&cpu->tss, 0, sizeof(cpu->tss));
	for (i = 0; i < EMU_IST_COUNT; i++) {
		cpu->tss.ist[i] = (uint64_t)ist_tops[i];
	}
	cpu->tss.iopb = sizeof(cpu->tss); /* no I/O bitmap */
	cpu->gdt[0] = 0;
	cpu->gdt[1] = 0x00CF9A000000FFFFull; /* 0x08 code32 (trampoline) */
	cpu->gdt[2] = 0x00CF92000000FFFFull; /* 0x10 data */
	cpu->gdt[3] = 0x00AF9A000000FFFFull; /* 0x18 code64 */
	cpu->gdt[4] = (limit & 0xFFFF) | ((tss & 0xFFFFFF) << 16) |
		      (0x89ull << 40) | (((limit >> 16) & 0xF) << 48) |
		      (((tss >> 24) & 0xFF) << 56); /* 0x20 available TSS */
	cpu->gdt[5] = tss >> 32;
	cpu->gdt[6] = 0;
	gdtr = (struct desc_ptr){sizeof(cpu->gdt) - 1, (uint64_t)cpu->gdt};
	idtr = (struct desc_ptr){sizeof(idt) - 1, (uint64_t)idt};
	__asm__ volatile("lgdt %0\n\t"
			 "ltr %w1\n\t"
			 "lidt %2"
			 :
			 : "m"(gdtr), "r"(SEL_TSS), "m"(idtr)
			 : "memory");
}

/*
 * The SVSM itself is compiled with -mgeneral-regs-only, so it never
 * touches the guest's vector registers; the FPU is enabled for the code
 * that needs it later (libcrypto), which must save the guest's state.
 */
uint64_t cpu_enable_fpu(void)
{
	struct cpuid_regs l1 = cpuid(1, 0);
	uint64_t xcr0 = XCR0_X87 | XCR0_SSE;
	uint64_t cr4 = read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT;

	write_cr0((read_cr0() & ~CR0_EM) | CR0_MP | CR0_NE);
	if ((l1.ecx & (1u << 26)) == 0) { /* no XSAVE */
		write_cr4(cr4);
		return xcr0;
	}
	write_cr4(cr4 | CR4_OSXSAVE);
	if ((l1.ecx & (1u << 28)) != 0 && (cpuid(0xD, 0).eax & XCR0_AVX) != 0) {
		xcr0 |= XCR0_AVX;
	}
	xsetbv(0, xcr0);
	return xcr0;
}
