/* SPDX-License-Identifier: MIT */
/*
 * A measuring instrument for `make bench`, not a part of the machine: the
 * hardware role (world.c) tells it where each CPU's time goes (VMRUN at a
 * VMPL, the machine's own work, idle) and, at each switch from a guest
 * VMPL to VMPL0, the caller's RAX from its VMSA, which the SVSM protocol
 * makes the call's protocol and number. Nothing reads it back but
 * instr_report() at the machine's exit; the hypervisor role never calls
 * it, and nothing the machine does depends on it (docs/emu.md,
 * "Benchmarks").
 */
#ifndef MACHINE_INSTRUMENT_H
#define MACHINE_INSTRUMENT_H

#include <stdint.h>

#include "machine/machine.h"

/* Where a CPU's time goes: VMRUN at VMPL 0..MACHINE_VMPLS-1, or these. */
#define INSTR_MACHINE MACHINE_VMPLS
#define INSTR_IDLE (MACHINE_VMPLS + 1u)

/** From now on CPU @cpu's cycles count for @where (a VMPL, INSTR_MACHINE,
 * INSTR_IDLE). The first call starts the CPU's clock. */
void instr_at(unsigned cpu, unsigned where);
/** A guest VMPL asked to run VMPL0 with @rax in its VMSA: an SVSM call,
 * whose cycles run from that VMPL's exit until this CPU's next VMRUN at
 * a guest VMPL, and whose VMPL0 exits are counted meanwhile. */
void instr_call(unsigned cpu, uint64_t rax);
/** CPU @cpu's VMRUN at @vmpl ended with exit code @code. */
void instr_exit(unsigned cpu, unsigned vmpl, uint64_t code);
/** Print the cycles per CPU and VMPL, the calls by protocol and number
 * with their VMPL0 exits, each CPU's exits per VMPL (the machine's only
 * count of them), the exits of each VMPL by code, the TSC at
 * each VMPL's first VMRUN, and the cycles until VMPL1's first VMRUN (the
 * SVSM's boot). */
void instr_report(void);
/** The SVSM call @rax names ("core PVALIDATE"), or "?". */
const char *instr_call_name(uint64_t rax);
/** An exit code's name ("IOIO"), or a class of codes. */
const char *instr_exit_name(uint64_t code);

#endif /* MACHINE_INSTRUMENT_H */
