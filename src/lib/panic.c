/* SPDX-License-Identifier: MIT */
/*
 * A broken SVSM invariant: say what broke, then terminate. Never returns and
 * never serves another request (docs/error-handling.md, class c).
 */
#include "svsm/check.h"
#include "svsm/plat.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

void panic(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	plat_console_write("[csvsm] PANIC: ", 15);
	plat_console_write(line, (size_t)n < sizeof(line) ? (size_t)n
							  : sizeof(line) - 1);
	plat_console_write("\n", 1);
	plat_terminate(TERM_SET_CSVSM, TERM_CSVSM_PANIC);
}
