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

void arch_trap(struct trap_frame *f)
{
	struct emu_cpu *cpu = emu_this_cpu();

	if (f->vector == EMU_VEC_WAKEUP) {
		lapic_eoi();
		return;
	}
	if (f->vector == EMU_VEC_SPURIOUS) {
		return;
	}
	x86_trap_dump(f, cpu != NULL ? cpu->index : 0u);
	panic("unexpected exception in the SVSM");
}
