/* SPDX-License-Identifier: MIT */
/*
 * Class (b), one door: the hypervisor misbehaved. Say so at NOTICE (it is
 * not an SVSM bug, so never ERROR), name the reason and the function that
 * saw it, then end the VM (docs/error-handling.md).
 */
#include "svsm/terminate.h"

#include "svsm/log.h"
#include "svsm/plat.h"
#include "svsm/std.h"

void terminate_hv_via(void (*term)(uint32_t set, uint32_t code), uint32_t set,
		      uint32_t code, const char *name, const char *func,
		      const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	(void)fmt_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	LOG_NOTICE("terminate: %s (set %u code %u) in %s: %s", name, set, code,
		   func, why);
	term(set, code);
	for (;;) {
		/* @term does not return; nor does this. */
	}
}
