/* SPDX-License-Identifier: MIT */
/*
 * CPL 3 at VMPL1: the instructions the machine emulates obey the CPU's
 * privilege rules there too. A user process may execute XSAVEC, but its
 * operand is a user access (a supervisor page is a #PF with the user
 * bit); RMPADJUST and INVLPGB are CPL 0's (#GP). The BSP gets a GDT with
 * user segments and a TSS (its stack for faults from CPL 3), and runs
 * each stub (entry.S) through an alias of the image's 2 MiB that user
 * mode may reach.
 */
#include "svsm/std.h"

#include "guest.h"

#define SPAN_2M 0x200000ull
#define PTE_RW (1ull << 1)
#define PTE_US (1ull << 2)
#define PTE_NX (1ull << 63)
#define PF_P 1u
#define PF_W 2u
#define PF_U 4u
/* 3 GiB + 6 MiB: above RAM, clear of the other tests' aliases. */
#define USER_ALIAS 0xC0600000ull
#define SEL_TSS 0x28u

struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3, iomap;
} __attribute__((packed));

extern const uint8_t user_xsavec[], user_xsavec_insn[];
extern const uint8_t user_rmpadjust[], user_rmpadjust_insn[];
extern const uint8_t user_invlpgb[], user_invlpgb_insn[];
int probe_user(uint64_t rip, uint64_t rsp, uint64_t probe, uint64_t arg);

static struct tss64 tss;
static uint8_t fault_stack[8192] __attribute__((aligned(16)));
static uint8_t user_stack[4096] __attribute__((aligned(16)));
/* The kernel's code and data, user data (0x18) and code (0x20), the TSS. */
static uint64_t gdt[7] __attribute__((aligned(16))) = {
	0, 0x00AF9A000000FFFFull, 0x00CF92000000FFFFull, 0x00CFF2000000FFFFull,
	0x00AFFA000000FFFFull};

static void user_segments(void)
{
	uint64_t base = (uint64_t)&tss, limit = sizeof(tss) - 1;
	struct __attribute__((packed)) {
		uint16_t limit;
		uint64_t base;
	} ptr = {sizeof(gdt) - 1, (uint64_t)gdt};

	tss.rsp[0] = (uint64_t)fault_stack + sizeof(fault_stack);
	tss.iomap = sizeof(tss);
	/* A 64-bit available TSS (type 9), present. */
	gdt[5] = (limit & 0xFFFFu) | (base & 0xFFFFFFu) << 16 | 0x89ull << 40 |
		 ((limit >> 16) & 0xFu) << 48 | ((base >> 24) & 0xFFu) << 56;
	gdt[6] = base >> 32;
	__asm__ volatile("lgdt %0" ::"m"(ptr));
	__asm__ volatile("ltr %w0" ::"r"((uint16_t)SEL_TSS));
}

static uint64_t alias(const void *p)
{
	return USER_ALIAS + ((uint64_t)p & (SPAN_2M - 1));
}

/* Run @stub at CPL 3 with @arg; its probe at @insn. */
static int run_user(const uint8_t *stub, const uint8_t *insn, uint64_t arg)
{
	return probe_user(alias(stub), alias(user_stack + sizeof(user_stack)),
			  alias(insn), arg);
}

void tests_user(void)
{
	static uint8_t target[4096] __attribute__((aligned(4096)));
	uint64_t *pde, *up[2], cr2, cr4;

	g_section("CPL 3: emulated instructions at user privilege");
	CHECK_THAT(((uint64_t)user_stack ^ (uint64_t)user_xsavec) < SPAN_2M,
		   "the stubs and their stack share one 2 MiB");
	user_segments();
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	__asm__ volatile(
		"mov %0, %%cr4" ::"r"(cr4 | (1ull << 18)));  /* OSXSAVE */
	__asm__ volatile("xsetbv" ::"c"(0), "a"(3), "d"(0)); /* x87, SSE */
	g_alias_private_2m(USER_ALIAS, (uint64_t)user_xsavec & ~(SPAN_2M - 1));
	pde = g_pte_of(USER_ALIAS, 1);
	up[0] = g_pte_of(USER_ALIAS, 3);
	up[1] = g_pte_of(USER_ALIAS, 2);
	*up[0] |= PTE_US;
	*up[1] |= PTE_US;
	*pde = (*pde & ~PTE_NX) | PTE_US | PTE_RW;
	__asm__ volatile("mov %%cr3, %%rax; mov %%rax, %%cr3" ::
				 : "rax", "memory");
	/* XSAVEC to a supervisor page: #PF, present, write, user. */
	memset(target, 0xEE, sizeof(target));
	CHECK_EQ(run_user(user_xsavec, user_xsavec_insn, (uint64_t)target),
		 FAULT_PF);
	CHECK_EQ(probe_error, PF_P | PF_W | PF_U);
	__asm__ volatile("mov %%cr2, %0" : "=r"(cr2));
	CHECK_EQ(cr2, (uint64_t)target);
	CHECK_EQ(target[512], 0xEE); /* the header: not written */
	/* RMPADJUST and INVLPGB are CPL 0's. */
	CHECK_EQ(
		run_user(user_rmpadjust, user_rmpadjust_insn, (uint64_t)target),
		FAULT_GP);
	CHECK_EQ(run_user(user_invlpgb, user_invlpgb_insn, 0), FAULT_GP);
	__asm__ volatile("xsetbv" ::"c"(0), "a"(1), "d"(0));
	__asm__ volatile("mov %0, %%cr4" ::"r"(cr4));
	*pde &= ~PTE_US;
	*up[0] &= ~PTE_US;
	*up[1] &= ~PTE_US;
	__asm__ volatile("mov %%cr3, %%rax; mov %%rax, %%cr3" ::
				 : "rax", "memory");
}
