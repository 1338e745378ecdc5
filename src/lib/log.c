/* SPDX-License-Identifier: MIT */
#include "svsm/log.h"

#include "svsm/plat.h"
#include "svsm/std.h"

#define LOG_LINE_MAX 256u
/* Guest-driven messages: the first LOG_GUEST_BURST, then one in 1024. */
#define LOG_GUEST_BURST 32u
#define LOG_GUEST_PERIOD 1024u

static enum log_level log_threshold = LOG_LEVEL_INFO;
static unsigned long log_guest_seen;

static const char *const level_names[] = {
	[LOG_LEVEL_ERROR] = "ERROR",	 [LOG_LEVEL_NOTICE] = "NOTICE",
	[LOG_LEVEL_WARNING] = "WARNING", [LOG_LEVEL_INFO] = "INFO",
	[LOG_LEVEL_VERBOSE] = "VERBOSE",
};

void log_set_level(enum log_level level)
{
	log_threshold = level;
	log_guest_seen = 0;
}

bool log_guest_allowed(void)
{
	unsigned long n =
		__atomic_fetch_add(&log_guest_seen, 1, __ATOMIC_RELAXED);

	return n < LOG_GUEST_BURST || n % LOG_GUEST_PERIOD == 0;
}

void log_printf(enum log_level level, const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	va_list ap;
	int n;
	size_t len;

	if (level > log_threshold) {
		return;
	}
	n = fmt_snprintf(line, sizeof(line),
			 "[csvsm] %s: ", level_names[level]);
	len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
	va_start(ap, fmt);
	/* One write per line, newline included: CPUs share the console. */
	n = fmt_vsnprintf(line + len, sizeof(line) - 1 - len, fmt, ap);
	va_end(ap);
	len += (size_t)n < sizeof(line) - 1 - len ? (size_t)n
						  : sizeof(line) - 2 - len;
	line[len++] = '\n';
	plat_console_write(line, len);
}
