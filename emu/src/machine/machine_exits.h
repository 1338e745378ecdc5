/* SPDX-License-Identifier: MIT */
/*
 * The one list of how a run of the machine ends: the status QEMU exits
 * with for each outcome. isa-debug-exit (port MACHINE_EXIT_PORT) makes
 * QEMU exit with (value << 1) | 1 of the byte written to it, so a status
 * is odd and its value is status >> 1. The test guest writes its own two
 * (GUEST_PASSED, GUEST_FAILED) to the port itself; the machine writes the
 * rest through machine_exit() (stop.h).
 *
 * X(NAME, status, bad, "what it means")
 * bad: 1 when the run ended badly, so the post-mortem says where each
 * vCPU was (postmortem.h); 0 for the guest's own pass, failure report,
 * reset or power-off, and for the PSP's refusal (no vCPU ran).
 *
 * The scripts and make read this list, never a copy of its numbers:
 * mk/machine.mk turns it through the C preprocessor into
 * build/machine/exits.sh (MACHINE_EXIT_NAME=status and
 * machine_exit_what(), sourced by scripts/emu-run.sh) and
 * build/machine/exits.mk (MACHINE_EXIT_NAME := status, the hostile
 * matrix's rows).
 */
#ifndef MACHINE_EXITS_H
#define MACHINE_EXITS_H

#define MACHINE_EXIT_PORT 0xF4u

#define MACHINE_EXITS(X)                                                       \
	X(GUEST_PASSED, 33, 0, "guest passed")                                 \
	X(GUEST_FAILED, 35, 0, "guest reported failures")                      \
	X(GUEST_TERM, 37, 1, "guest asked to terminate")                       \
	X(GUEST_RESET, 243, 0, "the guest reset the VM")                       \
	X(GUEST_POWEROFF, 245, 0, "the guest powered off")                     \
	X(HOST_STOP, 247, 1,                                                   \
	  "the machine stopped on the host's NMI (where each vCPU was: the "   \
	  "'emu: stop' lines)")                                                \
	X(LAUNCH_REFUSED, 249, 0, "the PSP refused the launch")                \
	X(GUEST_SHUTDOWN, 251, 1, "a vCPU shut down")                          \
	X(SVSM_TERM, 253, 1, "the SVSM terminated")                            \
	X(MACHINE_PANIC, 255, 1, "the machine panicked")

#ifndef __ASSEMBLER__
#define MACHINE_EXIT_ENUM(name, status, bad, what)                             \
	MACHINE_EXIT_##name = (status) >> 1,
/* The value machine_exit() writes to the port for each outcome. */
enum machine_exit { MACHINE_EXITS(MACHINE_EXIT_ENUM) };
#undef MACHINE_EXIT_ENUM

#define MACHINE_EXIT_ODD(name, status, bad, what)                              \
	_Static_assert(((status)&1) == 1 && (status) < 256,                    \
		       "isa-debug-exit's status is (value << 1) | 1");
MACHINE_EXITS(MACHINE_EXIT_ODD)
#undef MACHINE_EXIT_ODD
#endif

#endif /* MACHINE_EXITS_H */
