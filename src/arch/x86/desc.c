/* SPDX-License-Identifier: MIT */
/* GDT, TSS and IDT (trap.h). */
#include "svsm/std.h"

#include "trap.h"

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
		.sel = X86_SEL_CODE64,
		.ist = (uint8_t)ist,
		.type = 0x8E, /* present, DPL0, 64-bit interrupt gate */
		.off_mid = (uint16_t)(handler >> 16),
		.off_hi = (uint32_t)(handler >> 32),
	};
}

static unsigned ist_for(unsigned vec)
{
	switch (vec) {
	case X86_VEC_DF:
		return X86_IST_DF;
	case X86_VEC_NMI:
		return X86_IST_NMI;
	case X86_VEC_MC:
		return X86_IST_MC;
	case X86_VEC_VC:
		return X86_IST_VC;
	case X86_VEC_HV:
		return X86_IST_HV;
	default:
		return X86_IST_OTHER;
	}
}

static void idt_build(void)
{
	unsigned v;

	for (v = 0; v < 32; v++) {
		idt_set(v, isr_exception_table[v], ist_for(v));
	}
	idt_set(X86_VEC_WAKEUP, isr_wakeup, 0);
	idt_set(X86_VEC_SPURIOUS, isr_spurious, 0);
	idt_built = true;
}

void x86_tables_load(struct x86_cpu_tables *t,
		     void *const ist_tops[X86_IST_COUNT])
{
	uint64_t tss = (uint64_t)&t->tss;
	uint64_t limit = sizeof(t->tss) - 1;
	struct desc_ptr gdtr;
	struct desc_ptr idtr;
	unsigned i;

	if (!idt_built) {
		idt_build();
	}
	memset(&t->tss, 0, sizeof(t->tss));
	for (i = 0; i < X86_IST_COUNT; i++) {
		t->tss.ist[i] = (uint64_t)ist_tops[i];
	}
	t->tss.iopb = sizeof(t->tss); /* no I/O bitmap */
	/* Accessed bits preset: loading a selector writes nothing. */
	t->gdt[0] = 0;
	t->gdt[1] = 0x00CF9B000000FFFFull; /* 0x08 code32 */
	t->gdt[2] = 0x00CF93000000FFFFull; /* 0x10 data */
	t->gdt[3] = 0x00AF9B000000FFFFull; /* 0x18 code64 */
	t->gdt[4] = (limit & 0xFFFF) | ((tss & 0xFFFFFF) << 16) |
		    (0x89ull << 40) | (((limit >> 16) & 0xF) << 48) |
		    (((tss >> 24) & 0xFF) << 56); /* 0x20 available TSS */
	t->gdt[5] = tss >> 32;
	t->gdt[6] = 0;
	gdtr = (struct desc_ptr){sizeof(t->gdt) - 1, (uint64_t)t->gdt};
	idtr = (struct desc_ptr){sizeof(idt) - 1, (uint64_t)idt};
	/* CS is reloaded with a far return; FS and GS stay null (their
	 * bases are MSRs). */
	__asm__ volatile("lgdt %0\n\t"
			 "ltr %w1\n\t"
			 "lidt %2\n\t"
			 "pushq %3\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\tmov %w4, %%ds\n\t"
			 "mov %w4, %%es\n\t"
			 "mov %w4, %%ss"
			 :
			 : "m"(gdtr), "r"(X86_SEL_TSS), "m"(idtr),
			   "i"(X86_SEL_CODE64), "r"(X86_SEL_DATA)
			 : "rax", "memory");
}
