/* SPDX-License-Identifier: MIT */
#include "hv_io.h"

#include "arch.h"
#include "hv.h"
#include "layout.h"

#define COM1 0x3F8u
#define COM1_LSR (COM1 + 5)
#define LSR_IDLE 0x60u /* THR empty, transmitter empty */
#define LINE_MAX 240u

struct line {
	char buf[LINE_MAX];
	unsigned len;
};

static struct line lines[MACHINE_MAX_CPUS][MACHINE_VMPLS];

static void line_flush(struct line *l)
{
	if (l->len > 0) {
		console_write(l->buf, l->len);
		l->len = 0;
	}
}

static void com1_byte(struct mcpu *c, unsigned vmpl, char ch)
{
	struct line *l = &lines[c->index][vmpl];

	if (ch == '\r') {
		return;
	}
	l->buf[l->len++] = ch;
	if (ch == '\n' || l->len == LINE_MAX) {
		line_flush(l);
	}
}

void hv_io_flush(void)
{
	unsigned i, v;

	for (i = 0; i < MACHINE_MAX_CPUS; i++) {
		for (v = 0; v < MACHINE_VMPLS; v++) {
			line_flush(&lines[i][v]);
		}
	}
}

void hv_io(struct mcpu *c, unsigned vmpl, uint16_t port, unsigned size, bool in,
	   uint32_t *val)
{
	if (port == COM1 && !in && size == 1) {
		com1_byte(c, vmpl, (char)*val);
		return;
	}
	if (port == COM1_LSR && in && size == 1) {
		*val = LSR_IDLE;
		return;
	}
	if (port == MACHINE_EXIT_PORT && !in) {
		hv_stop(*val & 0xFFu);
	}
	/* Everything else goes to QEMU's devices as it is. */
	switch (size) {
	case 1:
		if (in) {
			*val = inb(port);
		} else {
			outb(port, (uint8_t)*val);
		}
		break;
	case 2:
		if (in) {
			uint16_t v;

			__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
			*val = v;
		} else {
			outw(port, (uint16_t)*val);
		}
		break;
	default:
		if (in) {
			__asm__ volatile("inl %1, %0"
					 : "=a"(*val)
					 : "Nd"(port));
		} else {
			__asm__ volatile("outl %0, %1" ::"a"(*val), "Nd"(port));
		}
		break;
	}
}
