/* SPDX-License-Identifier: MIT */
/*
 * Port I/O the hypervisor forwards for the guest (the GHCB IOIO event):
 * QEMU's devices, except COM1's data register, whose bytes are collected
 * into whole lines per vCPU and VMPL so that the SVSM's and the guest's
 * lines from different CPUs never interleave, and isa-debug-exit, where
 * the guest ends the VM: the machine first flushes and reports.
 */
#ifndef MACHINE_HV_IO_H
#define MACHINE_HV_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "machine.h"

void hv_io(struct mcpu *c, unsigned vmpl, uint16_t port, unsigned size, bool in,
	   uint32_t *val);
/** Write out every partial line (before the VM ends). */
void hv_io_flush(void);

#endif /* MACHINE_HV_IO_H */
