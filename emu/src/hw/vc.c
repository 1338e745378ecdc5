/* SPDX-License-Identifier: MIT */
#include "vc.h"

#include "abi/x86_regs.h"

#include "machine/machine.h"
#include "walk.h"

#define GATE_PRESENT 0x80u
#define GATE_TYPE_MASK 0x0Fu
#define GATE_INTR 0x0Eu
#define GATE_TRAP 0x0Fu
#define RFLAGS_TF (1ull << 8)
#define RFLAGS_IF (1ull << 9)
#define RFLAGS_NT (1ull << 14)
#define RFLAGS_RF (1ull << 16)
#define RFLAGS_VM (1ull << 17)
#define TSS_RSP0 4u
#define TSS_IST1 0x24u

struct idt_gate {
	uint16_t off_lo, sel;
	uint8_t ist, type_attr;
	uint16_t off_mid;
	uint32_t off_hi, reserved;
} __attribute__((packed));

/* The 8-byte gate of protected mode (APM vol. 2, 4.8.4): type 0xE a
 * 32-bit interrupt gate, 0xF a 32-bit trap gate. */
struct idt_gate32 {
	uint16_t off_lo, sel;
	uint8_t reserved, type_attr;
	uint16_t off_hi;
} __attribute__((packed));

/* Segment descriptor bits (APM vol. 2, 4.7), in the VMSA's attribute
 * format: the access byte [7:0], then AVL, L, D/B, G [11:8]. */
#define SEG_ACCESSED 0x001u
#define SEG_CODE 0x008u	       /* with SEG_S: a code segment */
#define SEG_EXPAND_DOWN 0x004u /* data segments */
#define SEG_S 0x010u
#define SEG_DPL_MASK 0x060u
#define SEG_P 0x080u
#define SEG_DB 0x400u
#define SEG_G 0x800u
#define SEL_TI 0x4u
#define SEL_INDEX_MASK 0xFFF8u
#define MASK32 0xFFFFFFFFull

static void refuse(const struct snp_vmsa *v, unsigned vmpl, unsigned vector,
		   const char *why)
{
	mlog("VMPL%u: vector %u at %llx in protected mode not delivered: %s",
	     vmpl, vector, (unsigned long long)v->rip, why);
}

/* The descriptor of @sel in the GDT, as the CPU loads it into the hidden
 * part of a segment register. */
static bool gdt_load(const struct snp_vmsa *v, unsigned vmpl, uint16_t sel,
		     struct vmsa_seg *seg)
{
	uint32_t d[2];
	uint32_t limit;

	if ((sel & SEL_INDEX_MASK) == 0 || (sel & SEL_TI) != 0 ||
	    (uint64_t)(sel & SEL_INDEX_MASK) + 7 > v->gdtr.limit ||
	    !gw_read(v, vmpl, (v->gdtr.base + (sel & SEL_INDEX_MASK)) & MASK32,
		     d, sizeof(d), false)) {
		return false;
	}
	seg->selector = sel;
	seg->attrib =
		(uint16_t)(((d[1] >> 8) & 0xFFu) | ((d[1] >> 12) & 0xF00u));
	seg->base =
		(d[0] >> 16) | ((d[1] & 0xFFu) << 16) | (d[1] & 0xFF000000u);
	limit = (d[0] & 0xFFFFu) | (d[1] & 0xF0000u);
	seg->limit = (seg->attrib & SEG_G) != 0 ? limit << 12 | 0xFFFu : limit;
	return true;
}

/*
 * #VC in protected mode without long mode, as OVMF's reset vector takes
 * it (flat 32-bit, paging off, OvmfPkg/ResetVector/Ia32/AmdSev.asm): the
 * 8-byte gate, then EFLAGS, CS, EIP and the error code, 32 bits each, on
 * the current stack (APM vol. 2, 8.7: an interrupt to the same privilege
 * level), CS:EIP from the gate and CS's descriptor from the GDT. Only
 * what a CPL-0 firmware needs: 32-bit gates to a CPL-0 code segment,
 * paging off. The CPU would raise #GP, #NP or #SS where this refuses;
 * a firmware that early has no handler for them, so it is a shutdown
 * either way, with the reason logged. The CPU sets a descriptor's
 * accessed bit in the GDT too; this sets it in CS's hidden part only.
 */
static bool deliver_legacy(struct snp_vmsa *v, unsigned vmpl, unsigned vector,
			   bool has_error, uint64_t error)
{
	struct idt_gate32 g;
	struct vmsa_seg cs;
	uint32_t frame[4];
	size_t skip = has_error ? 0 : 1, len = sizeof(frame) - skip * 4;
	uint64_t sp_mask, esp, eip;
	unsigned type;

	if ((v->cr0 & CR0_PG) != 0) {
		refuse(v, vmpl, vector,
		       "paging on without long mode (not modelled)");
		return false;
	}
	if (v->cpl != 0 || (v->rflags & RFLAGS_VM) != 0) {
		refuse(v, vmpl, vector,
		       "CPL not 0 or virtual-8086 mode (not modelled)");
		return false;
	}
	if ((uint64_t)vector * 8 + 7 > v->idtr.limit ||
	    !gw_read(v, vmpl, (v->idtr.base + (uint64_t)vector * 8) & MASK32,
		     &g, sizeof(g), false)) {
		refuse(v, vmpl, vector, "gate beyond the IDT or unreadable");
		return false;
	}
	type = g.type_attr & GATE_TYPE_MASK;
	if ((g.type_attr & GATE_PRESENT) == 0 ||
	    (type != GATE_INTR && type != GATE_TRAP)) {
		refuse(v, vmpl, vector,
		       "not a present 32-bit interrupt or trap gate");
		return false;
	}
	if (!gdt_load(v, vmpl, g.sel, &cs)) {
		refuse(v, vmpl, vector,
		       "gate selector not in the GDT or unreadable");
		return false;
	}
	eip = ((uint64_t)g.off_hi << 16) | g.off_lo;
	if ((cs.attrib & (SEG_S | SEG_CODE)) != (SEG_S | SEG_CODE) ||
	    (cs.attrib & SEG_DPL_MASK) != 0 || (cs.attrib & SEG_P) == 0 ||
	    eip > cs.limit) {
		refuse(v, vmpl, vector,
		       "gate selector not a present CPL-0 code "
		       "segment holding the handler");
		return false;
	}
	/* The stack: ESP, or SP with a 16-bit SS (B clear). A frame that
	 * would wrap around the stack pointer or 4 GiB is refused; an
	 * expand-up segment must hold it. */
	sp_mask = (v->ss.attrib & SEG_DB) != 0 ? MASK32 : 0xFFFFull;
	esp = (v->rsp & sp_mask) - len;
	if ((v->rsp & sp_mask) < len ||
	    (v->ss.base & MASK32) + esp > MASK32 + 1 - len ||
	    ((v->ss.attrib & (SEG_CODE | SEG_EXPAND_DOWN)) == 0 &&
	     esp + len - 1 > v->ss.limit)) {
		refuse(v, vmpl, vector, "the frame does not fit the stack");
		return false;
	}
	frame[0] = (uint32_t)error;
	frame[1] = (uint32_t)v->rip;
	frame[2] = v->cs.selector;
	frame[3] = (uint32_t)v->rflags;
	if (!gw_write(v, vmpl, (v->ss.base & MASK32) + esp, frame + skip,
		      len)) {
		refuse(v, vmpl, vector, "stack not writable");
		return false;
	}
	v->rsp = (v->rsp & ~sp_mask) | esp;
	v->rip = eip;
	cs.attrib |= SEG_ACCESSED;
	v->cs = cs;
	v->rflags &= ~(RFLAGS_TF | RFLAGS_NT | RFLAGS_RF | RFLAGS_VM);
	if (type == GATE_INTR) {
		v->rflags &= ~RFLAGS_IF;
	}
	return true;
}

static bool deliver(struct snp_vmsa *v, unsigned vmpl, unsigned vector,
		    bool has_error, uint64_t error)
{
	struct idt_gate g;
	uint64_t frame[6];
	size_t skip = has_error ? 0 : 1, len = sizeof(frame) - skip * 8;
	uint64_t rsp;
	unsigned ist;

	if ((v->efer & EFER_LMA) == 0) {
		if ((v->cr0 & CR0_PE) == 0) {
			/* Real mode: the CPU would vector through the IVT,
			 * which has no room for the error code; no SEV-ES
			 * guest takes #VC there. */
			mlog("VMPL%u: #VC at %llx in real mode not delivered",
			     vmpl, (unsigned long long)v->rip);
			return false;
		}
		return deliver_legacy(v, vmpl, vector, has_error, error);
	}
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
	rsp -= len;
	if (!gw_write(v, vmpl, rsp, frame + skip, len)) {
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

bool vc_deliver(struct snp_vmsa *v, unsigned vmpl, unsigned vector,
		uint64_t error)
{
	return deliver(v, vmpl, vector, true, error);
}

bool vc_deliver_intr(struct snp_vmsa *v, unsigned vmpl, unsigned vector)
{
	return deliver(v, vmpl, vector, false, 0);
}
