/* SPDX-License-Identifier: MIT */
/*
 * Moving x87/SSE/AVX state between the registers and XSAVE areas, for the
 * per-VMPL state (world.c) and the libraries' SIMD brackets (lib_hooks.c).
 * XSAVE and XRSTOR act only on what XCR0 enables, and a VMPL may run with
 * XCR0.SSE clear yet use legacy SSE: so both run with every component
 * enabled (XCR0_ALL) and the caller sets XCR0 back after.
 */
#ifndef MACHINE_FPU_H
#define MACHINE_FPU_H

#include <stdint.h>

#include "arch.h"

#define XCR0_ALL (XCR0_X87 | XCR0_SSE | XCR0_AVX)

static inline uint64_t fpu_xcr0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

/** Save the registers' state into @area (64-byte aligned, 4 KiB). */
static inline void fpu_save_all(void *area)
{
	xsetbv(0, XCR0_ALL);
	__asm__ volatile("xsave64 (%0)" ::"r"(area), "a"(-1), "d"(-1)
			 : "memory");
}

/** Load @area's state into the registers; XCR0 is XCR0_ALL after. */
static inline void fpu_load_all(const void *area)
{
	xsetbv(0, XCR0_ALL);
	__asm__ volatile("xrstor64 (%0)" ::"r"(area), "a"(-1), "d"(-1)
			 : "memory");
}

#endif /* MACHINE_FPU_H */
