/* SPDX-License-Identifier: MIT */
/*
 * How the machine stops: machine_exit() and machine_panic() (declared in
 * machine.h, as every file uses them), the host's request for a stop
 * (an NMI), and the one reporter told when a run ends badly.
 *
 * Why a registration: the stop path is the machine's lowest service, used
 * by every file, the post-mortem's own sources (walk.c, cpus.c,
 * instrument.c) among them. The post-mortem is an observer above them all
 * that reads their state when a run ends badly; were the stop path to
 * call it by name, the lowest file would call the highest and the whole
 * machine would be one call circle. So, as Linux's panic() runs the
 * notifiers others registered rather than naming them, the machine's top
 * (main.c) hands the stop path its reporter at start; before then, or
 * without one, a bad end reports nothing more.
 */
#ifndef MACHINE_STOP_H
#define MACHINE_STOP_H

#include <stdbool.h>

/** At a bad end (machine_exits.h, bad = 1) machine_exit() calls @report
 * once, before it stops QEMU. One reporter; a second call replaces it. */
void machine_on_bad_end(void (*report)(void));

/** The host asked for a stop (an NMI reached a CPU): safe in an NMI
 * handler, it only sets a flag. */
void machine_stop_request(void);
/** Whether the host asked for a stop. */
bool machine_stop_requested(void);

#endif /* MACHINE_STOP_H */
