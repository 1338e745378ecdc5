/* SPDX-License-Identifier: MIT */
/*
 * The emulated SEV-SNP machine: one physical CPU per QEMU CPU, one guest
 * vCPU per CPU (vCPU i on the CPU with APIC ID i, as KVM pins nothing but
 * QEMU numbers both from 0). Three roles, apart in code as they are apart
 * on hardware, each a directory of emu/src:
 *   hw/: the hardware: the VMPLs, the RMP and its checks, the C-bit,
 *     SEV-ES state protection, and what SEV-ES does without the host
 *     (#VC, the SNP instructions); it offers the host world.h, rmp.h and
 *     cpuid.h, nothing else;
 *   psp/: the launch, with what the VMM (main.c) hands it from the
 *     hypervisor, and guest requests;
 *   hv/: KVM's part (hv.c over model/kvm), owning each vCPU's run loop
 *     (hv_vcpu_run), which calls the hardware (world_run) and gets back
 *     automatic exits, never a call; hv/dev/ its device models, which
 *     the loop asks.
 * This directory, machine/, is the host the three run on (its console,
 * stop path, memory, local APIC, QEMU's devices) and, on top, the VMM
 * (main.c) that wires them.
 * The hypervisor sees a vCPU only through the GHCB and the exits the
 * hardware returns; struct mcpu is opaque to it, so it cannot read a
 * VMSA or a VMCB's save area.
 */
#ifndef MACHINE_H
#define MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/spinlock.h"

#include "abi/snp.h"

#include "ap_post.h"
#include "trap.h"

/* The machine's shared state is under the SVSM's spinlocks (the base
 * floor's svsm/spinlock.h: one lock, one implementation). */

#define MACHINE_MAX_CPUS 16u
#define MACHINE_VMPLS 4u
_Static_assert(MACHINE_VMPLS == AP_POST_VMPLS, "a post slot per VMPL");
#define PAGE SNP_PAGE_SIZE

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
