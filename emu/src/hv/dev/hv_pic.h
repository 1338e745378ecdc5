/* SPDX-License-Identifier: MIT */
/*
 * The guest's 8259 PICs (ports 0x20/0x21, 0xA0/0xA1, ELCR 0x4D0/0x4D1):
 * virtual, because the physical ones are the machine's, masked, and an
 * unmasked one would interrupt the machine with a vector the guest
 * chose. Register state only (Linux probes the mask register, programs
 * the ICWs and masks every line once its IO-APIC takes over); no
 * interrupt is ever raised through it.
 */
#ifndef MACHINE_HV_PIC_H
#define MACHINE_HV_PIC_H

#include <stdbool.h>
#include <stdint.h>

/** Whether @port is the PICs'; then IN fills *val, OUT takes it. */
bool hv_pic_io(uint16_t port, bool in, uint32_t *val);

#endif /* MACHINE_HV_PIC_H */
