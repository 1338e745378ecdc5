/* SPDX-License-Identifier: MIT */
/*
 * Interrupts and exceptions taken by the SVSM itself. The only interrupt
 * the SVSM expects is the wake-up IPI (EMU_VEC_WAKEUP); any exception in
 * SVSM code is a broken invariant: dump the registers and panic.
 */
#include "svsm/check.h"
#include "svsm/log.h"

#include "arch.h"
#include "emu_cpu.h"
#include "lapic.h"

struct isr_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rdi, rsi, rbp, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;
};

void emu_interrupt(struct isr_frame *f);

static const char *const exc_names[32] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM",
	"#DF", "CSO", "#TS", "#NP", "#SS", "#GP", "#PF", "15",
	"#MF", "#AC", "#MC", "#XM", "#VE", "#CP", "22",	 "23",
	"24",  "25",  "26",  "27",  "#HV", "#VC", "#SX", "31",
};

void emu_interrupt(struct isr_frame *f)
{
	struct emu_cpu *cpu = emu_this_cpu();

	if (f->vector == EMU_VEC_WAKEUP) {
		lapic_eoi();
		return;
	}
	if (f->vector == EMU_VEC_SPURIOUS) {
		return;
	}
	LOG_ERROR("exception %s (vector %llu) on CPU %u, error code %llx",
		  f->vector < 32 ? exc_names[f->vector] : "?",
		  (unsigned long long)f->vector, cpu != NULL ? cpu->index : 0u,
		  (unsigned long long)f->error);
	LOG_ERROR("RIP %016llx CS %04llx RFLAGS %08llx CR2 %016llx",
		  (unsigned long long)f->rip, (unsigned long long)f->cs,
		  (unsigned long long)f->rflags,
		  (unsigned long long)read_cr2());
	LOG_ERROR("RSP %016llx SS %04llx CR3 %016llx CR4 %08llx",
		  (unsigned long long)f->rsp, (unsigned long long)f->ss,
		  (unsigned long long)read_cr3(),
		  (unsigned long long)read_cr4());
	LOG_ERROR("RAX %016llx RBX %016llx RCX %016llx",
		  (unsigned long long)f->rax, (unsigned long long)f->rbx,
		  (unsigned long long)f->rcx);
	LOG_ERROR("RDX %016llx RSI %016llx RDI %016llx",
		  (unsigned long long)f->rdx, (unsigned long long)f->rsi,
		  (unsigned long long)f->rdi);
	LOG_ERROR("RBP %016llx R8  %016llx R9  %016llx",
		  (unsigned long long)f->rbp, (unsigned long long)f->r8,
		  (unsigned long long)f->r9);
	LOG_ERROR("R10 %016llx R11 %016llx R12 %016llx",
		  (unsigned long long)f->r10, (unsigned long long)f->r11,
		  (unsigned long long)f->r12);
	LOG_ERROR("R13 %016llx R14 %016llx R15 %016llx",
		  (unsigned long long)f->r13, (unsigned long long)f->r14,
		  (unsigned long long)f->r15);
	panic("unexpected exception in the SVSM");
}
