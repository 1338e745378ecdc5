/* SPDX-License-Identifier: MIT */
/*
 * COM1 as the guest sees it (KVM's host has QEMU's serial device; this
 * machine shares the real UART with its own console): the guest's bytes
 * are collected into whole lines per VMPL, so that the SVSM's and the
 * guest's lines from different CPUs never interleave; its transmitter is
 * always empty, its receiver QEMU's UART's; its interrupt identification
 * and enable are the guest's own, raised on the line the board gives it
 * at init (ISA IRQ 4 on the IO-APIC, hv_io.c), never by name.
 */
#ifndef MACHINE_HV_VUART_H
#define MACHINE_HV_VUART_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"

/** The guest's interrupt line: @raise(@pin). */
void hv_vuart_init(void (*raise)(unsigned pin), unsigned pin);
/** An access to COM1 (0x3F8-0x3FF) from @vmpl: true when the virtual
 * UART answered it, false when it goes to QEMU's UART as it is. */
bool hv_vuart_io(unsigned vmpl, uint16_t port, unsigned size, bool in,
		 uint32_t *val);
/** Whether the guest enabled COM1's "received data" interrupt. */
bool hv_vuart_rx_enabled(void);
/** On any vCPU every @interval TSC cycles or so: write out partial lines
 * older than @interval (a prompt, echoed keys); and at most once per
 * @interval over all vCPUs, raise the line if the guest wants to hear of
 * received data and the UART has some. */
void hv_vuart_poll(uint64_t interval);
/** Write out every partial line (before the VM ends). */
void hv_vuart_flush(void);

#endif /* MACHINE_HV_VUART_H */
