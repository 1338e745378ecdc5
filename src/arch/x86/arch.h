/* SPDX-License-Identifier: MIT */
/*
 * x86-64 instructions the firmware platforms (emu, snp) use, as inline
 * functions. On snp, CPUID, port I/O and most MSR accesses raise #VC and
 * are emulated by its handler (src/plat/snp/vc.h).
 */
#ifndef X86_ARCH_H
#define X86_ARCH_H

#include <stdint.h>

#include "svsm/cpuid_regs.h"

#include "abi/x86_regs.h"

#define MSR_APIC_BASE 0x0000001Bu
#define MSR_EFER 0xC0000080u
#define MSR_FS_BASE 0xC0000100u
#define MSR_VM_CR 0xC0010114u
#define MSR_VM_HSAVE_PA 0xC0010117u
#define MSR_SEV_STATUS 0xC0010131u

#define XCR0_X87 1ull
#define XCR0_SSE 2ull
#define XCR0_AVX 4ull

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo;
	uint32_t hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr"
			 :
			 : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32))
			 : "memory");
}

static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t sub)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(sub));
	return r;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo;
	uint32_t hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

#define DEFINE_CR(n)                                                           \
	static inline uint64_t read_cr##n(void)                                \
	{                                                                      \
		uint64_t v;                                                    \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));              \
		return v;                                                      \
	}                                                                      \
	static inline void write_cr##n(uint64_t v)                             \
	{                                                                      \
		__asm__ volatile("mov %0, %%cr" #n : : "r"(v) : "memory");     \
	}
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

static inline void xsetbv(uint32_t idx, uint64_t v)
{
	__asm__ volatile("xsetbv"
			 :
			 : "c"(idx), "a"((uint32_t)v),
			   "d"((uint32_t)(v >> 32)));
}

static inline void cpu_relax(void)
{
	__builtin_ia32_pause();
}

static inline void halt_forever(void) __attribute__((noreturn));
static inline void halt_forever(void)
{
	for (;;) {
		__asm__ volatile("cli; hlt");
	}
}

#endif /* X86_ARCH_H */
