/* SPDX-License-Identifier: MIT */
/*
 * The hooks the shared libraries the machine links need: the formatter
 * and allocator (src/lib, src/mem, src/libc) and libcrypto for the PSP
 * model. This file is the machine's only user of svsm/plat.h: those
 * libraries were written for the SVSM and call the platform through it.
 * Their failures are the machine's own bugs: a panic.
 */
#include "svsm/plat.h"
#include "svsm/std.h"

#include "arch.h"
#include "fpu.h"
#include "lapic.h"
#include "machine.h"
#include "stop.h"
#include "trap.h"

void plat_console_write(const char *s, size_t len)
{
	console_write(s, len);
}

void plat_terminate(uint32_t reason_set, uint32_t reason_code)
{
	machine_panic("library failure: reason set %u code %u", reason_set,
		      reason_code);
}

void arch_trap(struct trap_frame *f)
{
	if (f->vector == X86_VEC_WAKEUP) {
		lapic_eoi();
		return;
	}
	if (f->vector == X86_VEC_SPURIOUS) {
		return;
	}
	if (f->vector == X86_VEC_NMI) {
		machine_stop_request(); /* the host asks for a stop */
		return;
	}
	machine_panic("exception %llu (error %llx) at %llx, CR2 %llx",
		      (unsigned long long)f->vector,
		      (unsigned long long)f->error, (unsigned long long)f->rip,
		      (unsigned long long)read_cr2());
}

/*
 * libcrypto's SIMD code runs in the machine between two VMRUNs, while the
 * registers hold a guest VMPL's x87/SSE/AVX state (world.c keeps it
 * there): save that state and XCR0 around it, per CPU, never nested.
 */
static uint8_t simd_area[MACHINE_MAX_CPUS][4096] __attribute__((aligned(64)));
static uint64_t simd_xcr0[MACHINE_MAX_CPUS];
static bool simd_in[MACHINE_MAX_CPUS];

void plat_simd_begin(void)
{
	unsigned i = mcpu_index(mcpu_this());

	MCHECK(!simd_in[i]);
	simd_in[i] = true;
	simd_xcr0[i] = fpu_xcr0();
	fpu_save_all(simd_area[i]); /* XCR0 is XCR0_ALL: libcrypto's AVX */
}

void plat_simd_end(void)
{
	unsigned i = mcpu_index(mcpu_this());

	MCHECK(simd_in[i]);
	fpu_load_all(simd_area[i]);
	xsetbv(0, simd_xcr0[i]);
	simd_in[i] = false;
}

/* The allocator's "no CPU" check reads this: the machine's CPU block. */
const void *plat_cpu_self(void)
{
	return mcpu_this();
}

bool machine_entropy(void *buf, size_t len)
{
	return plat_entropy(buf, len);
}

/* Pages lent by a guest (src/mem/lent.c) never reach the machine's heap. */
void *plat_map_private(gpa_t gpa, size_t len)
{
	machine_panic("lent memory in the machine (%llx, %zu)",
		      (unsigned long long)gpa_val(gpa), len);
}

void plat_unmap_private(void *va, size_t len)
{
	machine_panic("lent memory in the machine (%p, %zu)", va, len);
}
