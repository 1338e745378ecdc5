/* SPDX-License-Identifier: MIT */
/*
 * Levelled logging. ERROR means an SVSM bug. Guest or hypervisor misbehaviour
 * logs at NOTICE at most, through LOG_GUEST(), which is rate-limited so a
 * hostile guest cannot flood the console. Secrets never reach a log line.
 */
#ifndef SVSM_LOG_H
#define SVSM_LOG_H

#include <stdbool.h>

enum log_level {
	LOG_LEVEL_ERROR = 1,
	LOG_LEVEL_NOTICE = 2,
	LOG_LEVEL_WARNING = 3,
	LOG_LEVEL_INFO = 4,
	LOG_LEVEL_VERBOSE = 5,
};

#ifndef LOG_LEVEL_MAX
#define LOG_LEVEL_MAX LOG_LEVEL_VERBOSE
#endif

void log_printf(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** Run-time threshold; messages above it are dropped. */
void log_set_level(enum log_level level);
/** Token-bucket limiter for guest-driven messages; true if one may print. */
bool log_guest_allowed(void);

#define LOG_AT(level, ...)                                                     \
	do {                                                                   \
		if ((level) <= LOG_LEVEL_MAX) {                                \
			log_printf((level), __VA_ARGS__);                      \
		}                                                              \
	} while (0)

#define LOG_ERROR(...) LOG_AT(LOG_LEVEL_ERROR, __VA_ARGS__)
#define LOG_NOTICE(...) LOG_AT(LOG_LEVEL_NOTICE, __VA_ARGS__)
#define LOG_WARNING(...) LOG_AT(LOG_LEVEL_WARNING, __VA_ARGS__)
#define LOG_INFO(...) LOG_AT(LOG_LEVEL_INFO, __VA_ARGS__)
#define LOG_VERBOSE(...) LOG_AT(LOG_LEVEL_VERBOSE, __VA_ARGS__)

/* Bad guest input: NOTICE, rate-limited, with the function that refused it. */
#define LOG_GUEST(fmt, ...)                                                    \
	do {                                                                   \
		if (log_guest_allowed()) {                                     \
			LOG_NOTICE("guest: %s: " fmt, __func__,                \
				   ##__VA_ARGS__);                             \
		}                                                              \
	} while (0)

#endif /* SVSM_LOG_H */
