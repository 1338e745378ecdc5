/* SPDX-License-Identifier: MIT */
/*
 * Instruction bytes at a guest's RIP (insn_decode.h). Every read of @b is
 * behind a check against @n: the bytes are the guest's, as many as the
 * machine could fetch, and may end anywhere.
 */
#include "insn_decode.h"

#include "svsm/std.h"

static const uint8_t op_pvalidate[] = {0xF2, 0x0F, 0x01, 0xFF};
static const uint8_t op_rmpadjust[] = {0xF3, 0x0F, 0x01, 0xFE};
static const uint8_t op_invlpgb[] = {0x0F, 0x01, 0xFE};
static const uint8_t op_tlbsync[] = {0x0F, 0x01, 0xFF};

static bool starts_with(const uint8_t *b, unsigned n, const uint8_t *op,
			unsigned len)
{
	return n >= len && memcmp(b, op, len) == 0;
}

enum insn_kind insn_decode_kind(const uint8_t *b, unsigned n, unsigned *len)
{
	if (starts_with(b, n, op_pvalidate, sizeof(op_pvalidate))) {
		*len = sizeof(op_pvalidate);
		return INSN_KIND_PVALIDATE;
	}
	if (starts_with(b, n, op_rmpadjust, sizeof(op_rmpadjust))) {
		*len = sizeof(op_rmpadjust);
		return INSN_KIND_RMPADJUST;
	}
	if (starts_with(b, n, op_invlpgb, sizeof(op_invlpgb))) {
		*len = sizeof(op_invlpgb);
		return INSN_KIND_INVLPGB;
	}
	if (starts_with(b, n, op_tlbsync, sizeof(op_tlbsync))) {
		*len = sizeof(op_tlbsync);
		return INSN_KIND_TLBSYNC;
	}
	*len = 0;
	return INSN_KIND_OTHER;
}

/* Segment-override prefixes: FS and GS add their bases, ES/CS/SS/DS are
 * null in 64-bit mode. The index of the first other byte. */
static unsigned prefixes(const uint8_t *b, unsigned n,
			 const struct insn_regs *r, uint64_t *seg)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (b[i] == 0x64 || b[i] == 0x65) {
			*seg = b[i] == 0x64 ? r->fs_base : r->gs_base;
		} else if (b[i] != 0x26 && b[i] != 0x2E && b[i] != 0x36 &&
			   b[i] != 0x3E) {
			break;
		}
	}
	return i;
}

bool insn_decode_mem(const uint8_t *b, unsigned n, const struct insn_regs *r,
		     uint8_t op2, unsigned reg, uint64_t *ea, unsigned *len)
{
	uint64_t addr = 0, seg = 0;
	unsigned i, mod, rm;
	uint8_t rex = 0, modrm;
	bool riprel = false;

	n = n < INSN_DECODE_MAX ? n : INSN_DECODE_MAX;
	i = prefixes(b, n, r, &seg);
	if (i < n && (b[i] & 0xF0u) == 0x40u) {
		rex = b[i++];
	}
	if (i + 3 > n || b[i] != 0x0F || b[i + 1] != op2) {
		return false;
	}
	i += 2;
	modrm = b[i++];
	mod = modrm >> 6;
	rm = modrm & 7u;
	if (mod == 3 || ((modrm >> 3) & 7u) != reg) {
		return false;
	}
	if (rm == 4) { /* SIB */
		uint8_t sib;
		unsigned idx, base;

		if (i >= n) {
			return false;
		}
		sib = b[i++];
		idx = ((sib >> 3) & 7u) | ((rex & 2u) << 2);
		base = (sib & 7u) | ((rex & 1u) << 3);
		if (idx != 4) {
			addr += r->gpr[idx] << (sib >> 6);
		}
		if ((sib & 7u) == 5 && mod == 0) {
			mod = 2; /* disp32, no base */
		} else {
			addr += r->gpr[base];
		}
	} else if (rm == 5 && mod == 0) {
		riprel = true;
		mod = 2;
	} else {
		addr += r->gpr[rm | ((rex & 1u) << 3)];
	}
	if (mod == 1) {
		if (i >= n) {
			return false;
		}
		addr += (uint64_t)(int64_t)(int8_t)b[i++];
	} else if (mod == 2) {
		int32_t d;

		if (i + 4 > n) {
			return false;
		}
		memcpy(&d, &b[i], 4);
		i += 4;
		addr += (uint64_t)(int64_t)d;
	}
	*len = i;
	*ea = addr + seg + (riprel ? r->rip + i : 0);
	return true;
}
