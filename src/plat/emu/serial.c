/* SPDX-License-Identifier: MIT */
/*
 * The console: COM1 (16550 at 0x3F8), which QEMU connects to -serial.
 * One lock for all CPUs; log.c writes one whole line per call.
 */
#include "svsm/log.h"
#include "svsm/plat.h"
#include "svsm/spinlock.h"
#include "svsm/terminate.h"

#include "arch.h"
#include "emu_cpu.h"
#include "layout.h"

#define COM1 0x3F8
#define LSR_THR_EMPTY 0x20

static struct spinlock console_lock;

void serial_init(void)
{
	spin_init(&console_lock);
	outb(COM1 + 1, 0x00); /* no interrupts */
	outb(COM1 + 3, 0x80); /* DLAB */
	outb(COM1 + 0, 0x01); /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03); /* 8N1 */
	outb(COM1 + 2, 0xC7); /* FIFO on, cleared */
	outb(COM1 + 4, 0x0B);
}

static void serial_putc(char c)
{
	unsigned spins = 0;

	/* Bounded: a missing UART must not hang the SVSM. */
	while ((inb(COM1 + 5) & LSR_THR_EMPTY) == 0 && spins++ < 100000) {
		cpu_relax();
	}
	outb(COM1, (uint8_t)c);
}

void plat_console_write(const char *s, size_t len)
{
	size_t i;

	spin_lock(&console_lock);
	for (i = 0; i < len; i++) {
		if (s[i] == '\n') {
			serial_putc('\r');
		}
		serial_putc(s[i]);
	}
	spin_unlock(&console_lock);
}

/*
 * QEMU plays the hypervisor's part of termination: isa-debug-exit ends the
 * VM with a status naming the class (layout.h). The reason is logged first.
 */
void plat_terminate(uint32_t reason_set, uint32_t reason_code)
{
	bool panic =
		reason_set == TERM_SET_CSVSM && reason_code == TERM_CSVSM_PANIC;

	LOG_NOTICE("terminate: reason set %u code %u", reason_set, reason_code);
	outb(EMU_EXIT_PORT, panic ? EMU_EXIT_SVSM_PANIC : EMU_EXIT_SVSM_TERM);
	halt_forever();
}
