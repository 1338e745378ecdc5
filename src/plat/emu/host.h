/* SPDX-License-Identifier: MIT */
/*
 * The host-facing side of emu: what a hypervisor does for the guest on
 * real SNP hardware, done here by the SVSM because under QEMU it is also
 * the host. Interrupts and idling, HLT, AP creation, page-state changes,
 * termination, and (for a later issue: an unmodified Linux guest) device
 * emulation. Port I/O is not intercepted and goes to QEMU's devices; MMIO
 * outside guest RAM is not forwarded yet and faults (#VC) in the guest.
 * This module follows the guest's requests honestly; hostile-hypervisor
 * behaviour is the sim platform's to model.
 */
#ifndef EMU_HOST_H
#define EMU_HOST_H

#include <stdint.h>

#include "emu_vcpu.h"

/** Take a pending interrupt (INTR exit, or IPI while idle). */
void host_interrupt(struct emu_cpu *cpu);
/** Wait for work: sleep until an IPI. */
void host_idle(struct emu_cpu *cpu);
/** Apply AP-creation requests other CPUs posted for this CPU. */
void host_poll_requests(struct emu_cpu *cpu);
/** HLT: no interrupts are delivered to the guest yet, so it stops. */
void host_hlt(struct emu_cpu *cpu, struct emu_vcpu *v);
/** The vCPU cannot go on (triple fault, VMRUN refused): end the VM. */
void host_guest_shutdown(struct emu_cpu *cpu, struct emu_vcpu *v,
			 const char *why) __attribute__((noreturn));
/** GHCB termination request: end the VM. */
void host_guest_terminate(uint32_t set, uint32_t code)
	__attribute__((noreturn));

/* SNP AP Creation (NAE 0x8000_0013): request codes. */
#define AP_CREATE_ON_INIT 0u
#define AP_CREATE 1u
#define AP_DESTROY 2u
/** Returns 0, or a GHCB "invalid input" error. */
uint64_t host_ap_creation(struct emu_cpu *cpu, uint32_t request,
			  uint32_t apic_id, uint64_t vmsa_gpa);

#endif /* EMU_HOST_H */
