/* SPDX-License-Identifier: MIT */
/*
 * A guest vCPU as the emu platform runs it. Its architectural state is
 * the VMSA page, as on SNP hardware: before each VMRUN the VMSA is loaded
 * into this CPU's VMCB, after each #VMEXIT it is stored back, so the
 * platform-independent request code reads and writes the same VMSA fields
 * on emu, snp and sim. The VMCB, GPR block and emulated GHCB MSR are this
 * layer's own. One struct emu_vcpu per SVSM CPU: the vCPU it runs.
 */
#ifndef EMU_VCPU_H
#define EMU_VCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/snp.h"

#include "emu_cpu.h"
#include "vmcb.h"

struct emu_vcpu {
	struct vmcb *vmcb;
	struct svm_gprs gprs;
	uint64_t vmsa_gpa;	/* 0: no vCPU loaded on this CPU */
	struct snp_vmsa *vmsa;	/* identity mapping of vmsa_gpa */
	uint64_t ghcb_msr;	/* the guest's GHCB MSR (0xC0010130) */
	uint64_t ghcb_gpa;	/* registered GHCB page, 0 if none */
	uint64_t pending_event; /* EVENTINJ for the next VMRUN */
	uint64_t last_npf_gpa;	/* a #NPF retried without a change */
	uint64_t exits;
	/* The VMSA this CPU marked in use at VMRUN, 0 if none: the page the
	 * host may write (RIP, exit code: the hardware's part of an exit)
	 * until emu_vcpu_release(). */
	uint64_t held_gpa;
};

/** Allocate this CPU's VMCB, host save area and HSAVE page; enable SVM. */
void emu_vcpu_cpu_init(struct emu_cpu *cpu);
/** Serve the guest vCPUs given to this CPU, for ever. */
void emu_cpu_loop(struct emu_cpu *cpu) __attribute__((noreturn));
/** Run the VMSA at @gpa on this CPU (boot vCPU, AP creation). */
bool emu_vcpu_load(struct emu_cpu *cpu, uint64_t gpa);
void emu_vcpu_unload(struct emu_cpu *cpu);
/**
 * The VMSA stops being in use: once its exit is handled, or before the
 * SVSM serves its call (on hardware a VMPL1 VMSA does not run while VMPL0
 * serves it). After this the host writes nothing to it: DELETE_VCPU may
 * hand the page back to the guest at any moment.
 */
void emu_vcpu_release(struct emu_vcpu *v);

/** Queue exception @vector for the guest. The error code is architecturally
 * delivered; QEMU drops it for vector 29 (docs/emu.md). */
void emu_inject_exception(struct emu_vcpu *v, unsigned vector, bool has_error,
			  uint32_t error);

/* Exit handlers (exit_*.c, vmgexit.c). They act on the stored VMSA. */
void exit_vmmcall(struct emu_cpu *cpu, struct emu_vcpu *v);
void exit_msr(struct emu_vcpu *v, bool write);
void exit_npf(struct emu_vcpu *v, uint64_t info1, uint64_t gpa);
void exit_ud(struct emu_vcpu *v);

/* #VC error codes the platform delivers (AMD APM vol. 2 15.35.5). */
#define VC_NPF 0x400u
#define VC_PAGE_NOT_VALIDATED 0x404u
#define VEC_UD 6u
#define VEC_GP 13u
#define VEC_VC 29u

#endif /* EMU_VCPU_H */
