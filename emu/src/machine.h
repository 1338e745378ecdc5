/* SPDX-License-Identifier: MIT */
/*
 * The emulated SEV-SNP machine: one physical CPU per QEMU CPU, one guest
 * vCPU per CPU (vCPU i on the CPU with APIC ID i, as KVM pins nothing but
 * QEMU numbers both from 0). Three roles, apart in code as they are apart
 * on hardware:
 *   hardware (world.c, rmp.c, npt.c, insn.c, vc.c, walk.c, cpuid.c): the
 *     VMPLs, the RMP and its checks, the C-bit, SEV-ES state protection;
 *   PSP (psp.c): the launch, with what the VMM (main.c) hands it from
 *     the hypervisor, and guest requests;
 *   hypervisor (hv.c over model/kvm, hv_io.c, hv_cpuid.c): KVM's
 *     part, the KVM model sim uses too.
 * The hypervisor sees a vCPU only through the GHCB and the exit codes the
 * hardware gives it; it never reads a VMSA.
 */
#ifndef MACHINE_H
#define MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/snp.h"

#include "ap_post.h"
#include "trap.h"
#include "vmcb.h"

/* A spinlock for the machine's shared state. */
struct mlock {
	volatile uint32_t v;
};
void mlock_take(struct mlock *l);
void mlock_drop(struct mlock *l);

#define MACHINE_MAX_CPUS 16u
#define MACHINE_VMPLS 4u
_Static_assert(MACHINE_VMPLS == AP_POST_VMPLS, "a post slot per VMPL");
#define PAGE 4096ull

/* The guest vCPU's state the hardware keeps besides its VMSAs (which
 * the hypervisor names, struct world_ctl): the VMPL that ran last, and
 * what SEV-ES keeps in the VMSA that QEMU cannot: the GHCB MSR. */
struct mvcpu {
	unsigned vmpl;
	uint64_t ghcb_msr[MACHINE_VMPLS];
	/* A VMGEXIT was handed to the hypervisor: its answer (the GHCB
	 * MSR) is loaded at that VMPL's next VMRUN, and only then. */
	bool ghcb_reply_due[MACHINE_VMPLS];
	/* TSC_AUX per VMPL (SEV-ES keeps it per VMSA; never intercepted,
	 * as KVM leaves it to a guest with RDTSCP). */
	uint64_t tsc_aux[MACHINE_VMPLS];
	uint64_t exits[MACHINE_VMPLS];
};

/* SVM state per physical CPU: one VMCB per VMPL (ASID = VMPL + 1). */
struct mcpu {
	unsigned index;
	uint32_t apic_id;
	struct x86_cpu_tables tables;
	void *hsave;
	void *host_save;
	struct vmcb *vmcb[MACHINE_VMPLS];
	struct svm_gprs gprs;
	struct mvcpu vcpu;
	/* An exception the hardware raises at the next VMRUN. */
	uint64_t pending_event;
	uint64_t tsc_aux_loaded; /* TSC_AUX in this CPU's register */
	/* TLB shoot-down (rmp.c). */
	bool in_guest;
	uint64_t flush_gen_seen;
	uint64_t npf_retry_gpa;
	bool flush_self; /* flush this CPU's guest TLB at the next VMRUN */
	bool online;
	/* The x87/SSE/AVX state of each VMPL's VMSA (SEV-ES keeps it in the
	 * VMSA; QEMU's VMRUN leaves it in the registers): XSAVE areas, and
	 * the VMPL whose state the registers hold now. */
	void *fpu[MACHINE_VMPLS + 1]; /* [MACHINE_VMPLS]: nobody's */
	unsigned fpu_vmpl;
	uint64_t held_vmsa; /* the VMSA marked in use, 0 = none */
};

struct mcpu *mcpu_this(void);
struct mcpu *mcpu_by_apic(uint32_t apic_id);
unsigned mcpu_count(void);

/* The guest's RAM: guest physical [0, guest_ram_size). The guest's memory
 * is that and the loader's windows (guest_mem.h). */
extern uint64_t guest_ram_size;
/* RAM above the low limit (q35's max-ram-below-4g): guest physical
 * [4 GiB, 4 GiB + guest_ram_high); 0: none. */
extern uint64_t guest_ram_high;
/** Host pointer to guest physical @gpa (C-bit stripped), or NULL when
 * [@gpa, @gpa + @len) is not in one bank of guest memory. */
void *guest_ptr(uint64_t gpa, uint64_t len);

/* The machine's own memory: pages from its heap, zeroed; never freed. */
void mm_init(uint64_t base, uint64_t end);
void *mm_alloc_pages(uint64_t count);
/** Random bytes from the CPU's DRNG (RDRAND); false if there is none. */
bool machine_entropy(void *buf, size_t len);

/** NUL-terminated strings equal. */
bool str_eq(const char *a, const char *b);

/* The machine's console: "emu: " lines on COM1, whole lines per call. */
void mlog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Write raw bytes to COM1 under the console lock. */
void console_write(const char *s, size_t len);
/** Stop QEMU with isa-debug-exit @value (layout.h). */
void machine_exit(unsigned value) __attribute__((noreturn));
/** A broken invariant of the machine itself. */
void machine_panic(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
#define MCHECK(c)                                                              \
	do {                                                                   \
		if (!(c)) {                                                    \
			machine_panic("%s:%d: %s", __FILE__, __LINE__, #c);    \
		}                                                              \
	} while (0)

#endif /* MACHINE_H */
