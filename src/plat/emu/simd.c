/* SPDX-License-Identifier: MIT */
/*
 * SIMD state around the linked libraries (plat_simd_begin/end). SVM's
 * VMRUN and #VMEXIT do not switch x87/SSE/AVX registers, MXCSR or the FPU
 * control word, so on emu the SVSM runs with whatever its guest left
 * there. Before libcrypto or libtpms run, the guest's state is saved with
 * XSAVE (x87|SSE|AVX, as XCR0 allows) and the initial state loaded (so a
 * guest-chosen MXCSR or x87 control word cannot change the libraries'
 * arithmetic); afterwards the guest's state is restored, so the guest
 * never sees the libraries' values (key material in vector registers).
 *
 * One save area: brackets are serialised by the vTPM lock and never nest
 * (checked).
 */
#include <stdbool.h>
#include <stdint.h>

#include "svsm/check.h"
#include "svsm/plat.h"

#include "arch.h"

#define XSAVE_AREA 1024u /* legacy 512 + header 64 + AVX 256, rounded */
#define MXCSR_OFFSET 24u
#define MXCSR_DEFAULT 0x1f80u

static uint8_t guest_state[XSAVE_AREA] __attribute__((aligned(64)));
/*
 * The initial state: XSTATE_BV = 0 (every component in its init state),
 * the x87 control word 0x37f and MXCSR 0x1f80 as after reset (XRSTOR
 * loads MXCSR from the area; FXRSTOR loads both).
 */
static const uint8_t init_state[XSAVE_AREA] __attribute__((aligned(64))) = {
	[0] = 0x7f,
	[1] = 0x03,
	[MXCSR_OFFSET] = MXCSR_DEFAULT & 0xff,
	[MXCSR_OFFSET + 1] = MXCSR_DEFAULT >> 8,
};
static bool in_bracket;

static bool use_xsave(void)
{
	return (read_cr4() & CR4_OSXSAVE) != 0;
}

static void save(uint8_t *area)
{
	if (use_xsave()) {
		__asm__ volatile("xsave64 %0"
				 : "+m"(*(uint8_t(*)[XSAVE_AREA])area)
				 : "a"(XCR0_X87 | XCR0_SSE | XCR0_AVX), "d"(0)
				 : "memory");
	} else {
		__asm__ volatile("fxsave64 %0"
				 : "=m"(*(uint8_t(*)[512])area)
				 :
				 : "memory");
	}
}

static void restore(const uint8_t *area)
{
	if (use_xsave()) {
		__asm__ volatile("xrstor64 %0"
				 :
				 : "m"(*(const uint8_t(*)[XSAVE_AREA])area),
				   "a"(XCR0_X87 | XCR0_SSE | XCR0_AVX), "d"(0)
				 : "memory");
	} else {
		__asm__ volatile("fxrstor64 %0"
				 :
				 : "m"(*(const uint8_t(*)[512])area)
				 : "memory");
	}
}

void plat_simd_begin(void)
{
	CHECK(!in_bracket);
	in_bracket = true;
	save(guest_state);
	restore(init_state);
}

void plat_simd_end(void)
{
	CHECK(in_bracket);
	restore(guest_state);
	in_bracket = false;
}
