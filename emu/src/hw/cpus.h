/* SPDX-License-Identifier: MIT */
/* Bring-up of the machine's CPUs (cpus.c). */
#ifndef MACHINE_CPUS_H
#define MACHINE_CPUS_H

#include "machine/machine.h"

/** The boot CPU's tables; @count CPUs in all. Needs the machine heap. */
void cpus_init_bsp(unsigned count);
/** Start every AP; each runs @entry on itself and never returns. */
void cpus_start_aps(void (*entry)(struct mcpu *));

#endif /* MACHINE_CPUS_H */
