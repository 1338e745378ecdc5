/* SPDX-License-Identifier: MIT */
/*
 * Entropy and time for the firmware platforms (plat_entropy,
 * plat_clock_ns, plat_delay_ns). On snp RDRAND is the CPU's DRNG, which the
 * hypervisor cannot intercept; on emu it is QEMU's (seeded from the host's
 * getrandom): under emulation the host sees everything anyway, which the
 * threat model for emu states.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/plat.h"

#include "arch.h"

/* Intel's guidance for RDRAND: retry a transient underflow ten times. */
#define RDRAND_RETRIES 10u

static bool rdrand64(uint64_t *v)
{
	for (unsigned i = 0; i < RDRAND_RETRIES; i++) {
		bool ok;

		__asm__ volatile("rdrand %0" : "=r"(*v), "=@ccc"(ok));
		if (ok) {
			return true;
		}
	}
	return false;
}

bool plat_entropy(void *buf, size_t len)
{
	unsigned char *p = buf;

	if ((cpuid(1, 0).ecx & (1u << 30)) == 0) { /* no RDRAND: no entropy */
		return false;
	}
	while (len > 0) {
		uint64_t v;
		size_t n = len < sizeof(v) ? len : sizeof(v);

		if (!rdrand64(&v)) {
			return false;
		}
		__builtin_memcpy(p, &v, n);
		p += n;
		len -= n;
	}
	return true;
}

/*
 * TSC ticks taken as nanoseconds: monotonic, with a rate that is only
 * approximately right (a GHz-class TSC; on snp without Secure TSC the
 * hypervisor can also skew it). Nothing in the SVSM needs more than
 * ordering and rough timeouts.
 */
uint64_t plat_clock_ns(void)
{
	return rdtsc();
}

/*
 * A spin on the same clock. A hypervisor that freezes or slows the TSC
 * makes this wait longer (it could as well stop running the vCPU); one
 * that speeds it up makes it shorter. Only availability depends on it.
 */
void plat_delay_ns(uint64_t ns)
{
	uint64_t start = plat_clock_ns();

	while (plat_clock_ns() - start < ns) {
		__asm__ volatile("pause");
	}
}
