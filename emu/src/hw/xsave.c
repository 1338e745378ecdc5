/* SPDX-License-Identifier: MIT */
#include "xsave.h"

#include "svsm/std.h"

#include "arch.h"
#include "insn_decode.h"
#include "mcpu.h"
#include "walk.h"

#define LEGACY 512u
#define HEADER 64u
#define XCOMP_COMPACTED (1ull << 63)
#define COMPONENTS 64u
#define AREA_MAX 4096u
#define OP_XSAVEC 0xC7u /* 0F C7 /4 */
#define OP_XRSTOR 0xAEu /* 0F AE /5 */
#define CR4_OSXSAVE (1ull << 18)

/* One scratch area per CPU (the hardware's internal buffer). */
static uint8_t scratch[MACHINE_MAX_CPUS][AREA_MAX] __attribute__((aligned(64)));
static uint8_t image[MACHINE_MAX_CPUS][AREA_MAX] __attribute__((aligned(64)));

/* The memory operand of 0F @op2 /@want at RIP: its linear address and
 * the instruction's length. False: another instruction. The bytes are
 * fetched as the guest's code (execute rights at its CPL). */
static bool decode(const struct snp_vmsa *a, unsigned vmpl, uint8_t op2,
		   unsigned want, uint64_t *ea, unsigned *len)
{
	struct insn_regs r = {
		.gpr = {a->rax, a->rcx, a->rdx, a->rbx, a->rsp, a->rbp, a->rsi,
			a->rdi, a->r8, a->r9, a->r10, a->r11, a->r12, a->r13,
			a->r14, a->r15},
		.fs_base = a->fs.base,
		.gs_base = a->gs.base,
		.rip = a->rip,
	};
	uint8_t b[INSN_DECODE_MAX];
	unsigned n = 0;

	while (n < INSN_DECODE_MAX &&
	       gw_read(a, vmpl, a->rip + n, &b[n], 1, true)) {
		n++;
	}
	return insn_decode_mem(b, n, &r, op2, want, ea, len);
}

/* Component @i's size, standard offset, and whether compacted it is
 * 64-byte aligned (CPUID 0xD.i). */
static void component(unsigned i, uint32_t *size, uint32_t *off, bool *al64)
{
	struct cpuid_regs r = cpuid(0xD, i);

	*size = r.eax;
	*off = r.ebx;
	*al64 = (r.ecx & 2u) != 0;
}

/* Move components 2.. of @mask between the standard layout @std and the
 * compacted one @cmp (to compacted if @compact); false if one does not
 * fit the area. */
static bool move(uint8_t *std, uint8_t *cmp, uint64_t mask, bool compact,
		 uint32_t *end)
{
	uint32_t at = LEGACY + HEADER;
	unsigned i;

	for (i = 2; i < COMPONENTS; i++) {
		uint32_t size, off;
		bool al64;

		if ((mask >> i & 1u) == 0) {
			continue;
		}
		component(i, &size, &off, &al64);
		if (al64) {
			at = (at + 63u) & ~63u;
		}
		if (size > AREA_MAX || at > AREA_MAX - size ||
		    off > AREA_MAX - size) {
			return false;
		}
		if (compact) {
			memcpy(cmp + at, std + off, size);
		} else {
			memcpy(std + off, cmp + at, size);
		}
		at += size;
	}
	*end = at;
	return true;
}

static uint64_t rfbm(const struct snp_vmsa *a)
{
	return ((a->rdx << 32) | (uint32_t)a->rax) & a->xcr0;
}

/* A gw_operand_* result as the instruction's. */
static enum insn_result insn_of(enum gw_result r)
{
	switch (r) {
	case GW_OK:
		return INSN_DONE;
	case GW_PF:
		return INSN_PF;
	case GW_REFUSED:
		break;
	}
	return INSN_GP;
}

enum insn_result xsave_ud(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
			  struct gw_fault *f)
{
	uint8_t *std = scratch[c->index], *cmp = image[c->index];
	uint64_t ea, mask = rfbm(a), hdr[2];
	enum insn_result r;
	uint32_t end;
	unsigned len;

	if ((a->cr4 & CR4_OSXSAVE) == 0 ||
	    !decode(a, vmpl, OP_XSAVEC, 4, &ea, &len)) {
		return INSN_UD;
	}
	if ((ea & 63u) != 0 || !move(std, cmp, mask, true, &end)) {
		return INSN_GP;
	}
	/* The area's bytes XSAVEC leaves as they are, read under the
	 * checks of the write that follows. */
	r = insn_of(gw_operand_read(a, vmpl, ea, cmp, end, GW_WRITE, f));
	if (r != INSN_DONE) {
		return r;
	}
	/* The standard save of the same components over the area's own
	 * legacy bytes (XSAVEC leaves what it does not save). */
	memcpy(std, cmp, LEGACY);
	memset(std + LEGACY, 0, HEADER);
	__asm__ volatile("xsave64 (%0)" ::"r"(std), "a"((uint32_t)mask),
			 "d"((uint32_t)(mask >> 32))
			 : "memory");
	memcpy(cmp, std, LEGACY);
	memcpy(hdr, std + LEGACY, 8);
	hdr[0] &= mask;
	hdr[1] = XCOMP_COMPACTED | mask;
	memset(cmp + LEGACY, 0, HEADER);
	memcpy(cmp + LEGACY, hdr, sizeof(hdr));
	(void)move(std, cmp, mask, true, &end);
	r = insn_of(gw_operand_write(a, vmpl, ea, cmp, end, f));
	if (r == INSN_DONE) {
		a->rip += len;
	}
	return r;
}

enum insn_result xsave_gp(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
			  struct gw_fault *f)
{
	uint8_t *std = scratch[c->index], *cmp = image[c->index];
	uint64_t ea, mask = rfbm(a), hdr[2], avail = a->xcr0;
	enum insn_result r;
	uint32_t end, mxcsr;
	unsigned len;

	if (!decode(a, vmpl, OP_XRSTOR, 5, &ea, &len) || (ea & 63u) != 0) {
		return INSN_GP; /* a #GP of its own */
	}
	r = insn_of(
		gw_operand_read(a, vmpl, ea + LEGACY, hdr, sizeof(hdr), 0, f));
	if (r != INSN_DONE || (hdr[1] & XCOMP_COMPACTED) == 0) {
		return r == INSN_PF ? INSN_PF : INSN_GP;
	}
	/* The compacted format's checks (SDM XRSTOR): components the area
	 * has are enabled ones, its state ones among them. */
	if ((hdr[1] & ~XCOMP_COMPACTED & ~avail) != 0 ||
	    (hdr[0] & ~(hdr[1] & ~XCOMP_COMPACTED)) != 0 ||
	    !move(std, cmp, hdr[1] & ~XCOMP_COMPACTED, false, &end)) {
		return INSN_GP;
	}
	r = insn_of(gw_operand_read(a, vmpl, ea, cmp, end, 0, f));
	if (r != INSN_DONE) {
		return r;
	}
	memcpy(&mxcsr, cmp + 24, 4);
	if ((mask & (XCR0_SSE | XCR0_AVX)) != 0 && (mxcsr >> 16) != 0) {
		return INSN_GP; /* reserved MXCSR bits: XRSTOR's own #GP */
	}
	memset(std, 0, AREA_MAX);
	memcpy(std, cmp, LEGACY);
	(void)move(std, cmp, hdr[1] & ~XCOMP_COMPACTED, false, &end);
	hdr[0] &= hdr[1];
	memcpy(std + LEGACY, hdr, 8); /* XSTATE_BV; XCOMP_BV 0: standard */
	__asm__ volatile("xrstor64 (%0)" ::"r"(std), "a"((uint32_t)mask),
			 "d"((uint32_t)(mask >> 32))
			 : "memory");
	a->rip += len;
	return INSN_DONE;
}
