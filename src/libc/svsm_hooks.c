/* SPDX-License-Identifier: MIT */
/*
 * The libc layer's hooks in the firmware: the linked libraries' stderr
 * goes to the SVSM log, entropy and time come from the platform, and a
 * broken invariant inside a library (assert, abort, fortify) is the
 * SVSM's panic. (The hosted tests of the layer supply their own hooks.)
 */
#include "svsm/check.h"
#include "svsm/log.h"
#include "svsm/plat.h"

#include "libc_internal.h"

void libc_hook_log(const char *s, size_t len)
{
	/* Libraries end their lines with '\n'; the log adds its own. */
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r')) {
		len--;
	}
	if (len > 0) {
		LOG_WARNING("lib: %.*s", (int)(len > 400 ? 400 : len), s);
	}
}

bool libc_hook_entropy(void *buf, size_t len)
{
	return plat_entropy(buf, len);
}

uint64_t libc_hook_clock_ns(void)
{
	return plat_clock_ns();
}

void libc_hook_fatal(const char *what, const char *detail)
{
	panic("libc: %s: %s", what, detail != NULL ? detail : "");
}
