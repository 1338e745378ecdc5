/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor's vCPU: what KVM keeps for one vCPU (its struct
 * kvm_vcpu, bhyve's struct vcpu), in one place. Its hardware part (@hw)
 * is the world switch's: only world_*() take it, so nothing here reads
 * a VMSA; what the hypervisor sets for the hardware is @ctl, one per
 * VMPL, the part of the VMCB KVM writes, which the hardware checks.
 *
 * Concurrency: vCPU i runs only on CPU i and is changed only there,
 * except @posts (other CPUs' AP Creation, under @post_lock) and the
 * APIC's IRR (hv_apic.h).
 */
#ifndef MACHINE_HV_VCPU_H
#define MACHINE_HV_VCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "model/kvm.h"

#include "hv/dev/hv_apic_regs.h"
#include "hw/world.h"
#include "machine/ap_post.h"
#include "machine/machine.h"

struct hv_vcpu {
	/* The KVM model's part: its vCPU list is an array of its own
	 * (struct kvm's vcpus), this the entry of the same index. */
	struct kvm_vcpu *kvm;
	unsigned index; /* vCPU i, on CPU i */
	uint32_t apic_id;
	unsigned vmpl; /* the VMPL it runs at (SNP Run VMPL) */
	bool halted;   /* HLT: waits for an interrupt or a new VMSA */
	bool held;     /* AP HLT loop: waits for a new VMSA only */
	/* The VMPL whose VMGEXIT is served now (the ops are per vCPU), and
	 * the GHCB MSR it came with (for the log when the guest is ended). */
	unsigned exit_vmpl;
	uint64_t exit_msr;
	struct world_ctl ctl[MACHINE_VMPLS];
	/* VMSAs other CPUs posted for this vCPU (AP Creation), one slot
	 * per VMPL (ap_post.h), taken at the next loop turn. */
	struct ap_posts posts;
	struct spinlock post_lock;
	struct vapic apic; /* VMPL1's local APIC (hv_apic.c) */
	uint64_t hwcr;	   /* MSR HWCR as the guest set it (hv_msr.c) */
	/* kvmclock's MSRs as the guest wrote them (hv_kvmclock.c). */
	uint64_t kvmclock_system_time;
	uint64_t kvmclock_wall_clock;
	struct mcpu *hw; /* the CPU it runs on: only world_*() take it */
	/* A device asked the VM to stop (power-off, reset, isa-debug-exit)
	 * with this status: the loop stops it once the exit is handled. */
	bool stop;
	unsigned stop_status;
};

/** A device asks to stop the VM with @status (layout.h), as bhyve's
 * VM_EXITCODE_SUSPENDED: the loop acts on it. The first request stands
 * (a REP OUTSB to isa-debug-exit stops with its first byte, as the
 * device stops QEMU at once). */
static inline void hv_vcpu_stop(struct hv_vcpu *v, unsigned status)
{
	if (!v->stop) {
		v->stop = true;
		v->stop_status = status;
	}
}

/** @n vCPUs, vCPU i on the CPU with APIC ID i (machine.h). */
void hv_vcpus_init(unsigned n);
/** vCPU @index (0 .. mcpu_count() - 1). */
struct hv_vcpu *hv_vcpu_at(unsigned index);
/** The vCPU with APIC ID @apic_id, or NULL. */
struct hv_vcpu *hv_vcpu_by_apic(uint32_t apic_id);
/** The vCPU this CPU runs. */
struct hv_vcpu *hv_vcpu_this(void);

#endif /* MACHINE_HV_VCPU_H */
