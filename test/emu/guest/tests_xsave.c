/* SPDX-License-Identifier: MIT */
/*
 * XSAVEC and XRSTOR of a compacted area, which every SNP CPU has and
 * Linux requires: the machine emulates them under QEMU's TCG (emu's
 * xsave.c), and its accesses to the operand must be the CPU's: the
 * guest's page rights, its faults, its accessed and dirty bits.
 */
#include "svsm/std.h"

#include "guest.h"

#define SPAN_2M 0x200000ull
#define PTE_P (1ull << 0)
#define PTE_RW (1ull << 1)
#define PTE_US (1ull << 2)
#define PTE_A (1ull << 5)
#define PTE_D (1ull << 6)
#define PF_P 1u
#define PF_W 2u
#define CR4_OSXSAVE (1ull << 18)
#define CR4_SMAP (1ull << 21)
#define CPUID7_EBX_SMAP (1u << 20)
/* 3 GiB + 4 MiB: above RAM, clear of tests_faults' aliases at 3 GiB. */
#define XS_ALIAS 0xC0400000ull

static uint8_t area[1024] __attribute__((aligned(1024)));

static uint64_t read_cr2(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static void set_pde(uint64_t *pde, uint64_t clear, uint64_t set)
{
	*pde = (*pde & ~clear) | set;
	__asm__ volatile("invlpg (%0)" ::"r"(XS_ALIAS) : "memory");
}

static bool area_untouched(void)
{
	unsigned i;

	for (i = 0; i < sizeof(area); i++) {
		if (area[i] != 0xEE) {
			return false;
		}
	}
	return true;
}

/* The operand through an alias of its 2 MiB whose PDE the test sets:
 * a fault is a #PF with the CPU's error code and CR2, and writes
 * nothing; a save sets the entry's accessed and dirty bits. */
static void operand_rights(void)
{
	uint64_t va = XS_ALIAS + ((uint64_t)area & (SPAN_2M - 1));
	uint64_t *pde, *up[2], cr4;
	uint32_t eax, ebx, ecx, edx;

	g_alias_private_2m(XS_ALIAS, (uint64_t)area & ~(SPAN_2M - 1));
	pde = g_pte_of(XS_ALIAS, 1);
	memset(area, 0xEE, sizeof(area));
	/* Read-only (CR0.WP, as the test guest and Linux run). */
	set_pde(pde, PTE_RW, 0);
	CHECK_EQ(probe_xsavec((void *)va), FAULT_PF);
	CHECK_EQ(probe_error, PF_P | PF_W);
	CHECK_EQ(read_cr2(), va);
	CHECK_THAT(area_untouched(), "a faulting XSAVEC writes nothing");
	/* Not present: XSAVEC a write, XRSTOR a read. */
	set_pde(pde, PTE_P, PTE_RW);
	CHECK_EQ(probe_xsavec((void *)va), FAULT_PF);
	CHECK_EQ(probe_error, PF_W);
	CHECK_EQ(probe_xrstor((void *)va), FAULT_PF);
	CHECK_EQ(probe_error, 0);
	CHECK_THAT(read_cr2() - va < sizeof(area), "CR2 in the area");
	/* Present and writable again, accessed and dirty clear. */
	set_pde(pde, PTE_A | PTE_D, PTE_P);
	CHECK_EQ(probe_xsavec((void *)va), 0);
	CHECK_EQ(*pde & (PTE_A | PTE_D), PTE_A | PTE_D);
	set_pde(pde, PTE_A, 0);
	CHECK_EQ(probe_xrstor((void *)va), 0);
	CHECK_EQ(*pde & PTE_A, PTE_A);
	/* A user page (U/S at every level) under SMAP: a supervisor write
	 * faults unless RFLAGS.AC. */
	__asm__ volatile("cpuid"
			 : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx)
			 : "a"(7), "c"(0));
	CHECK_THAT((ebx & CPUID7_EBX_SMAP) != 0, "CPUID 7: SMAP");
	up[0] = g_pte_of(XS_ALIAS, 3);
	up[1] = g_pte_of(XS_ALIAS, 2);
	*up[0] |= PTE_US;
	*up[1] |= PTE_US;
	set_pde(pde, 0, PTE_US);
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	__asm__ volatile("mov %0, %%cr4" ::"r"(cr4 | CR4_SMAP));
	CHECK_EQ(probe_xsavec((void *)va), FAULT_PF);
	CHECK_EQ(probe_error, PF_P | PF_W);
	__asm__ volatile("stac" ::: "memory");
	CHECK_EQ(probe_xsavec((void *)va), 0);
	__asm__ volatile("clac" ::: "memory");
	__asm__ volatile("mov %0, %%cr4" ::"r"(cr4));
	*up[0] &= ~PTE_US;
	*up[1] &= ~PTE_US;
	set_pde(pde, PTE_US, 0);
}

void tests_xsavec(void)
{
	uint8_t in[16], out[16];
	uint64_t xcomp, cr4;
	uint32_t eax, ebx, ecx, edx;
	unsigned i;

	g_section("XSAVEC and compacted XRSTOR");
	__asm__ volatile("cpuid"
			 : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx)
			 : "a"(0xD), "c"(1));
	CHECK_THAT((eax & 2u) != 0, "CPUID 0xD.1: XSAVEC");
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	__asm__ volatile("mov %0, %%cr4" ::"r"(cr4 | (1ull << 18)));
	__asm__ volatile("xsetbv" ::"c"(0), "a"(3), "d"(0)); /* x87, SSE */
	for (i = 0; i < sizeof(in); i++) {
		in[i] = (uint8_t)(0xA0 + i);
	}
	memset(area, 0xEE, sizeof(area));
	__asm__ volatile("movdqu %0, %%xmm3" ::"m"(in));
	__asm__ volatile("xsavec64 %0" : "=m"(area) : "a"(3), "d"(0));
	memcpy(&xcomp, area + 512 + 8, 8);
	CHECK_EQ(xcomp, (1ull << 63) | 3);
	CHECK_EQ(memcmp(area + 160 + 3 * 16, in, 16), 0); /* XMM3 */
	__asm__ volatile("pxor %%xmm3, %%xmm3" ::: "memory");
	__asm__ volatile("xrstor64 %0" ::"m"(area), "a"(3), "d"(0));
	__asm__ volatile("movdqu %%xmm3, %0" : "=m"(out));
	CHECK_EQ(memcmp(out, in, 16), 0);
	/* A compacted area naming a component XCR0 lacks: #GP. */
	xcomp = (1ull << 63) | 7;
	memcpy(area + 512 + 8, &xcomp, 8);
	CHECK_EQ(probe_xrstor(area), FAULT_GP);
	operand_rights();
	__asm__ volatile("xsetbv" ::"c"(0), "a"(1), "d"(0));
	__asm__ volatile("mov %0, %%cr4" ::"r"(cr4));
}
