/* SPDX-License-Identifier: MIT */
/*
 * The machine's console. COM1 is shared by three writers: the machine's
 * own lines ("emu: ..."), and the lines the hypervisor role forwards from
 * the SVSM and the guest (hv_io.c). One lock, whole lines. The lowest
 * file of the machine: it calls none of the others (its ends are
 * stop.c's).
 */
#include <stdarg.h>

#include "svsm/std.h"

#include "arch.h"
#include "machine.h"

#define COM1 0x3F8
#define LSR_THR_EMPTY 0x20

static struct spinlock console_lock;

bool str_eq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static void serial_putc(char c)
{
	unsigned spins = 0;

	/* Bounded: a missing UART must not hang the machine. */
	while ((inb(COM1 + 5) & LSR_THR_EMPTY) == 0 && spins++ < 100000) {
		cpu_relax();
	}
	outb(COM1, (uint8_t)c);
}

void console_write(const char *s, size_t len)
{
	size_t i;

	spin_lock(&console_lock);
	for (i = 0; i < len; i++) {
		serial_putc(s[i]);
	}
	spin_unlock(&console_lock);
}

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	char line[256];
	size_t n = 0;
	int k;

	k = fmt_snprintf(line, sizeof(line), "%s", prefix);
	n = k > 0 ? (size_t)k : 0;
	k = fmt_vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	n += k > 0 ? (size_t)k : 0;
	if (n > sizeof(line) - 2) {
		n = sizeof(line) - 2;
	}
	line[n++] = '\n';
	console_write(line, n);
}

void mlog(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("emu: ", fmt, ap);
	va_end(ap);
}
