/* SPDX-License-Identifier: MIT */
/*
 * The emulated SEV-SNP machine: one physical CPU per QEMU CPU, one guest
 * vCPU per CPU (vCPU i on the CPU with APIC ID i, as KVM pins nothing but
 * QEMU numbers both from 0). Three roles, apart in code as they are apart
 * on hardware:
 *   hardware (world.c, mcpu.h, rmp.c, npt.c, insn.c, insn_decode.c,
 *     xsave.c, vc.c, walk.c, cpuid.c, memcrypt.c, svm_run.S): the VMPLs,
 *     the RMP and its checks, the C-bit, SEV-ES state protection, and
 *     what SEV-ES does without the host (#VC, the SNP instructions);
 *   PSP (psp.c, chip_identity.c): the launch, with what the VMM (main.c)
 *     hands it from the hypervisor, and guest requests;
 *   hypervisor (hv.c over model/kvm, hv_vcpu.c, and its device models
 *     hv_apic.c, hv_ioapic.c, hv_pic.c, hv_io.c, hv_vuart.c, hv_pci.c,
 *     hv_mmio.c, hv_msr.c, hv_kvmclock.c, hv_cpuid.c, hv_fwcfg*.c,
 *     hv_vblk.c, hv_dma.c): KVM's part, the KVM model sim uses too, and
 *     QEMU's devices. It owns each vCPU's run loop (hv_vcpu_run) and
 *     calls the hardware (world_run), which returns automatic exits and
 *     never calls back.
 * The rest is the host the three run on: main.c (the VMM's launch),
 * cpus.c, lapic.c, mm.c, guest_mem.c, fwcfg.c, chipset.c, host_*.c,
 * console.c, instrument.c, postmortem.c.
 * The hypervisor sees a vCPU only through the GHCB and the exits the
 * hardware returns; struct mcpu is opaque to it, so it cannot read a
 * VMSA or a VMCB's save area.
 */
#ifndef MACHINE_H
#define MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/snp.h"

#include "ap_post.h"
#include "trap.h"

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

/* A physical CPU's SVM state: the hardware's (mcpu.h), opaque to the
 * hypervisor, which names it only to hand it to world_*() (world.h). */
struct mcpu;

struct mcpu *mcpu_this(void);
struct mcpu *mcpu_by_apic(uint32_t apic_id);
unsigned mcpu_count(void);
/** @c's index: CPU i runs vCPU i. */
unsigned mcpu_index(const struct mcpu *c);

/* The guest's RAM: guest physical [0, guest_ram_size). The guest's memory
 * is that and the loader's windows (guest_mem.h). */
extern uint64_t guest_ram_size;
/* RAM above the low limit (q35's max-ram-below-4g): guest physical
 * [4 GiB, 4 GiB + guest_ram_high); 0: none. */
extern uint64_t guest_ram_high;

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
