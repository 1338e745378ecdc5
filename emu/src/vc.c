/* SPDX-License-Identifier: MIT */
#include "vc.h"

#include "walk.h"

#define GATE_PRESENT 0x80u
#define GATE_TYPE_MASK 0x0Fu
#define GATE_INTR 0x0Eu
#define GATE_TRAP 0x0Fu
#define RFLAGS_TF (1ull << 8)
#define RFLAGS_IF (1ull << 9)
#define RFLAGS_NT (1ull << 14)
#define RFLAGS_RF (1ull << 16)
#define TSS_RSP0 4u
#define TSS_IST1 0x24u

struct idt_gate {
	uint16_t off_lo, sel;
	uint8_t ist, type_attr;
	uint16_t off_mid;
	uint32_t off_hi, reserved;
} __attribute__((packed));

bool vc_deliver(struct snp_vmsa *v, unsigned vmpl, unsigned vector,
		uint64_t error)
{
	struct idt_gate g;
	uint64_t frame[6];
	uint64_t rsp;
	unsigned ist;

	if ((uint64_t)vector * 16 + 15 > v->idtr.limit ||
	    !gw_read(v, vmpl, v->idtr.base + (uint64_t)vector * 16, &g,
		     sizeof(g), false) ||
	    (g.type_attr & GATE_PRESENT) == 0 ||
	    ((g.type_attr & GATE_TYPE_MASK) != GATE_INTR &&
	     (g.type_attr & GATE_TYPE_MASK) != GATE_TRAP)) {
		return false;
	}
	ist = g.ist & 7u;
	if (ist != 0) {
		if (!gw_read(v, vmpl, v->tr.base + TSS_IST1 + 8ull * (ist - 1),
			     &rsp, sizeof(rsp), false)) {
			return false;
		}
	} else if (v->cpl != 0) {
		if (!gw_read(v, vmpl, v->tr.base + TSS_RSP0, &rsp, sizeof(rsp),
			     false)) {
			return false;
		}
	} else {
		rsp = v->rsp;
	}
	rsp &= ~0xFull;
	frame[0] = error;
	frame[1] = v->rip;
	frame[2] = v->cs.selector;
	frame[3] = v->rflags;
	frame[4] = v->rsp;
	frame[5] = v->ss.selector;
	rsp -= sizeof(frame);
	if (!gw_write(v, vmpl, rsp, frame, sizeof(frame))) {
		return false;
	}
	if (v->cpl != 0) {
		v->ss.selector = 0;
		v->ss.attrib = 0;
	}
	v->rsp = rsp;
	v->rip = ((uint64_t)g.off_hi << 32) | ((uint64_t)g.off_mid << 16) |
		 g.off_lo;
	v->cs.selector = g.sel;
	/* A 64-bit code segment at CPL 0: the gate's selector must name
	 * one (the guest's GDT is not consulted: the SVSM and Linux use
	 * their flat kernel code segment). */
	v->cs.attrib = 0x29B;
	v->cs.base = 0;
	v->cs.limit = 0xFFFFFFFF;
	v->cpl = 0;
	v->rflags &= ~(RFLAGS_TF | RFLAGS_NT | RFLAGS_RF);
	if ((g.type_attr & GATE_TYPE_MASK) == GATE_INTR) {
		v->rflags &= ~RFLAGS_IF;
	}
	return true;
}
