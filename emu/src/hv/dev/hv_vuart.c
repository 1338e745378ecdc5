/* SPDX-License-Identifier: MIT */
#include "hv_vuart.h"

#include "svsm/std.h"

#include "arch.h"

#define COM1 0x3F8u
#define COM1_IER (COM1 + 1)
#define COM1_IIR (COM1 + 2) /* FCR when written */
#define COM1_LCR (COM1 + 3)
#define IER_RDI 0x01u
#define IIR_NO_INT 0x01u
#define IIR_THRI 0x02u
#define IIR_RDI 0x04u
#define IIR_FIFO 0xC0u
#define FCR_ENABLE 0x01u
#define LSR_DR 0x01u
#define COM1_LSR (COM1 + 5)
#define IER_THRI 0x02u
#define LCR_DLAB 0x80u
#define LSR_IDLE 0x60u	  /* THR empty, transmitter empty */
#define LSR_RX_BITS 0x1Fu /* data ready, overrun, parity, framing, break */
#define LINE_MAX 240u

struct line {
	char buf[LINE_MAX];
	unsigned len;
	uint64_t since; /* TSC of the first byte */
};

/* One line per VMPL, not per vCPU: the guest's UART output is one stream
 * in the order of its writes, whichever vCPU makes them (Linux's console
 * moves between CPUs mid-line), and a VMPL's lines never mix into
 * another's. Under lines_lock, taken before the console's lock. */
static struct line lines[MACHINE_VMPLS];
static struct spinlock lines_lock;

/* The guest's interrupt line, as the board wired it (hv_vuart_init). */
static void (*irq_raise)(unsigned pin);
static unsigned irq_pin;

void hv_vuart_init(void (*raise)(unsigned pin), unsigned pin)
{
	irq_raise = raise;
	irq_pin = pin;
}

/* COM1's line control and interrupt enable as the guest wrote them: the
 * bytes it sends never reach the UART, so the hypervisor raises its
 * "transmitter empty" interrupt itself (on the line it was given). */
static uint8_t com1_lcr, com1_ier, com1_fcr;

/* A write to COM1's THR or IER: whether it is the line's data (else the
 * divisor latch, with DLAB set, goes to the UART). */
static bool com1_dlab(void)
{
	return (__atomic_load_n(&com1_lcr, __ATOMIC_RELAXED) & LCR_DLAB) != 0;
}

static void line_flush(struct line *l);

/* The TSC of the last look at the UART's receiver, by any vCPU. */
static uint64_t com1_polled;

static void com1_thre(void)
{
	if ((__atomic_load_n(&com1_ier, __ATOMIC_RELAXED) & IER_THRI) != 0) {
		irq_raise(irq_pin);
	}
}

bool hv_vuart_rx_enabled(void)
{
	return (__atomic_load_n(&com1_ier, __ATOMIC_RELAXED) & IER_RDI) != 0;
}

/*
 * The user's keys arrive at QEMU's UART, whose own interrupt (ISA IRQ 4)
 * the machine does not take: its line is QEMU's IO-APIC's, and the
 * machine's local APICs mask LINT0. So the machine looks at the UART's
 * LSR.DR every @interval TSC cycles, on whichever vCPU comes first, and
 * while the guest enabled the "received data" interrupt and data waits,
 * raises the guest's line (ISA IRQ 4), as KVM's virtual UART raises its line.
 * The guest reads the byte itself (RBR and LSR go to the UART); an edge while
 * it is still reading costs it one interrupt with nothing to do. The machine's
 * own lines only write the UART's THR, so they never consume or add to what the
 * user typed.
 */
void hv_vuart_poll(uint64_t interval)
{
	uint64_t now = rdtsc();
	uint64_t last = __atomic_load_n(&com1_polled, __ATOMIC_RELAXED);
	unsigned v;

	/* A shell's prompt and the echo of the keys typed are partial lines:
	 * out once they have waited @interval. */
	spin_lock(&lines_lock);
	for (v = 0; v < MACHINE_VMPLS; v++) {
		struct line *l = &lines[v];

		if (l->len > 0 && now - l->since >= interval) {
			line_flush(l);
		}
	}
	spin_unlock(&lines_lock);
	if (!hv_vuart_rx_enabled() || now - last < interval ||
	    !__atomic_compare_exchange_n(&com1_polled, &last, now, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		return;
	}
	if ((inb(COM1_LSR) & LSR_DR) != 0) {
		irq_raise(irq_pin);
	}
}

static void line_flush(struct line *l)
{
	if (l->len > 0) {
		console_write(l->buf, l->len);
		l->len = 0;
	}
}

static void com1_byte(unsigned vmpl, char ch)
{
	struct line *l = &lines[vmpl];

	if (ch == '\r') {
		return;
	}
	spin_lock(&lines_lock);
	if (l->len == 0) {
		l->since = rdtsc();
	}
	l->buf[l->len++] = ch;
	if (ch == '\n' || l->len == LINE_MAX) {
		line_flush(l);
	}
	spin_unlock(&lines_lock);
}

void hv_vuart_flush(void)
{
	unsigned v;

	spin_lock(&lines_lock);
	for (v = 0; v < MACHINE_VMPLS; v++) {
		line_flush(&lines[v]);
	}
	spin_unlock(&lines_lock);
}

bool hv_vuart_io(unsigned vmpl, uint16_t port, unsigned size, bool in,
		 uint32_t *val)
{
	if (port == COM1 && !in && size == 1 && !com1_dlab()) {
		com1_byte(vmpl, (char)*val);
		com1_thre(); /* sent at once: empty again */
		return true;
	}
	/* The interrupt identification is the guest's UART's, not the
	 * physical one's (whose THR the machine's own console keeps busy):
	 * received data if any, else "transmitter empty" if enabled. */
	if (port == COM1_IIR && size == 1) {
		uint8_t ier = __atomic_load_n(&com1_ier, __ATOMIC_RELAXED);
		uint8_t fifo = (__atomic_load_n(&com1_fcr, __ATOMIC_RELAXED) &
				FCR_ENABLE) != 0
				       ? IIR_FIFO
				       : 0;

		if (!in) {
			__atomic_store_n(&com1_fcr, (uint8_t)*val,
					 __ATOMIC_RELAXED);
			outb(port, (uint8_t)*val);
		} else if ((ier & IER_RDI) != 0 && (inb(COM1_LSR) & LSR_DR)) {
			*val = IIR_RDI | fifo;
		} else {
			*val = ((ier & IER_THRI) != 0 ? IIR_THRI : IIR_NO_INT) |
			       fifo;
		}
		return true;
	}
	if (port == COM1_LCR && !in && size == 1) {
		__atomic_store_n(&com1_lcr, (uint8_t)*val, __ATOMIC_RELAXED);
	}
	if (port == COM1_IER && !in && size == 1 && !com1_dlab()) {
		__atomic_store_n(&com1_ier, (uint8_t)*val, __ATOMIC_RELAXED);
		outb(port, (uint8_t)*val);
		com1_thre(); /* THRI enabled with THR empty: at once */
		return true;
	}
	/* The transmitter is the guest's (always empty), the receiver the
	 * UART's: data ready and its errors. */
	if (port == COM1_LSR && in && size == 1) {
		*val = LSR_IDLE | (inb(COM1_LSR) & LSR_RX_BITS);
		return true;
	}
	return false; /* the rest is QEMU's UART's, as it is */
}
