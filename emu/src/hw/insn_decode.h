/* SPDX-License-Identifier: MIT */
/*
 * Decoding the instruction bytes a guest left at RIP, for the
 * instructions the machine emulates (insn.c, xsave.c). Pure functions of
 * the bytes and the registers: the guest controls both, so they read only
 * the @n bytes given and never more than INSN_DECODE_MAX; fuzzed by
 * test/fuzz/emu_insn_decode.c.
 */
#ifndef MACHINE_INSN_DECODE_H
#define MACHINE_INSN_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#define INSN_DECODE_MAX 15u /* the architectural limit */

/* What a guest's registers contribute to an effective address. */
struct insn_regs {
	uint64_t gpr[16]; /* RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8-R15 */
	uint64_t fs_base, gs_base;
	uint64_t rip;
};

/**
 * The memory operand of `0F @op2 /@reg` in 64-bit mode: segment prefixes
 * (FS and GS add their bases), an optional REX, ModRM, SIB, displacement,
 * RIP-relative. True with its linear address (@ea) and the instruction's
 * length (@len <= @n); false for another instruction, a register operand,
 * or bytes that end before the instruction does.
 */
bool insn_decode_mem(const uint8_t *b, unsigned n, const struct insn_regs *r,
		     uint8_t op2, unsigned reg, uint64_t *ea, unsigned *len);

/* The SNP and TLB instructions insn.c emulates (fixed encodings). */
enum insn_kind {
	INSN_KIND_OTHER,
	INSN_KIND_PVALIDATE, /* F2 0F 01 FF */
	INSN_KIND_RMPADJUST, /* F3 0F 01 FE */
	INSN_KIND_INVLPGB,   /* 0F 01 FE */
	INSN_KIND_TLBSYNC,   /* 0F 01 FF */
};

/** Which of them the @n bytes begin with; the length into @len. */
enum insn_kind insn_decode_kind(const uint8_t *b, unsigned n, unsigned *len);

#endif /* MACHINE_INSN_DECODE_H */
