/* SPDX-License-Identifier: MIT */
/* The machine's ends (stop.h). */
#include "stop.h"

#include <stdarg.h>

#include "svsm/std.h"

#include "arch.h"
#include "layout.h"
#include "machine.h"

static void (*bad_end_report)(void);
static bool stop_requested;

void machine_on_bad_end(void (*report)(void))
{
	__atomic_store_n(&bad_end_report, report, __ATOMIC_RELEASE);
}

void machine_stop_request(void)
{
	__atomic_store_n(&stop_requested, true, __ATOMIC_RELEASE);
}

bool machine_stop_requested(void)
{
	return __atomic_load_n(&stop_requested, __ATOMIC_ACQUIRE);
}

/* Whether @value ends a run badly (machine_exits.h's bad column). */
static bool bad_end(unsigned value)
{
#define MACHINE_EXIT_BAD(name, status, bad, what)                              \
	if (value == MACHINE_EXIT_##name) {                                    \
		return (bad) != 0;                                             \
	}
	MACHINE_EXITS(MACHINE_EXIT_BAD)
#undef MACHINE_EXIT_BAD
	return false;
}

void machine_exit(unsigned value)
{
	void (*report)(void) =
		__atomic_load_n(&bad_end_report, __ATOMIC_ACQUIRE);

	/* A run that ends badly says where each vCPU was. */
	if (bad_end(value) && report != NULL) {
		report();
	}
	outb(MACHINE_EXIT_PORT, (uint8_t)value);
	halt_forever();
}

void machine_panic(const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	(void)fmt_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	mlog("PANIC: %s", why);
	machine_exit(MACHINE_EXIT_MACHINE_PANIC);
}
