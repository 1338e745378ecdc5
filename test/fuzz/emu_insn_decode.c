/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the emulated machine's decoders of the instruction bytes a guest
 * leaves at RIP (emu/src/hw/insn_decode.c, compiled in): the memory operand
 * of the XSAVE-family instructions the machine emulates and the fixed
 * encodings of PVALIDATE, RMPADJUST, INVLPGB and TLBSYNC. The input sets
 * the registers, the opcode and /reg asked for, and the bytes. Checks,
 * each an abort:
 * - nothing is read past the bytes given (ASan: they are copied into a
 *   buffer of exactly that size);
 * - a decoded instruction is at least 0F op ModRM long and at most the
 *   bytes given and 15;
 * - what follows an instruction changes nothing: its own bytes alone
 *   decode to the same address and length;
 * - an SNP or TLB instruction is recognised from its own bytes alone,
 *   with the length of its encoding.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../emu/src/hw/insn_decode.c"

static const uint8_t ops[] = {0xC7, 0xAE, 0x01, 0x00};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct insn_regs r;
	uint64_t ea = 0, ea2 = 0;
	unsigned len = 0, len2 = 0, n;
	enum insn_kind kind;
	uint8_t op2, reg, *b;

	memset(&r, 0, sizeof(r));
	if (size < 2) {
		return 0;
	}
	op2 = ops[data[0] & 3u];
	reg = data[1] & 7u;
	data += 2;
	size -= 2;
	/* Registers, if the input has them; most inputs are mostly code. */
	if (size > sizeof(r) + INSN_DECODE_MAX && (data[0] & 1u) != 0) {
		memcpy(&r, data, sizeof(r));
		data += sizeof(r);
		size -= sizeof(r);
	}
	n = size > 2 * INSN_DECODE_MAX ? 2 * INSN_DECODE_MAX : (unsigned)size;
	b = malloc(n != 0 ? n : 1);
	if (b == NULL) {
		return 0;
	}
	memcpy(b, data, n);
	if (insn_decode_mem(b, n, &r, op2, reg, &ea, &len)) {
		if (len < 3 || len > n || len > INSN_DECODE_MAX ||
		    !insn_decode_mem(b, len, &r, op2, reg, &ea2, &len2) ||
		    ea2 != ea || len2 != len) {
			abort();
		}
	}
	kind = insn_decode_kind(b, n, &len);
	if (kind != INSN_KIND_OTHER &&
	    (len < 3 || len > 4 || len > n ||
	     insn_decode_kind(b, len, &len2) != kind || len2 != len)) {
		abort();
	}
	free(b);
	return 0;
}
