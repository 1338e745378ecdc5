/* SPDX-License-Identifier: MIT */
#include "hv_io.h"

#include "svsm/std.h"

#include "arch.h"
#include "chipset.h"
#include "host_pci.h"
#include "hv_fwcfg.h"
#include "hv_ioapic.h"
#include "hv_pci.h"
#include "hv_pic.h"
#include "layout.h"

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
#define COM1_IRQ 4u /* IO-APIC pin of ISA IRQ 4 */
#define IER_THRI 0x02u
#define LCR_DLAB 0x80u
#define LSR_IDLE 0x60u	  /* THR empty, transmitter empty */
#define LSR_RX_BITS 0x1Fu /* data ready, overrun, parity, framing, break */
#define LINE_MAX 240u
#define PM1_CNT_OFF 4u
#define PM1_SLP_EN (1u << 13)
#define PORT_RESET_CONTROL 0xCF9u
#define RESET_CPU (1u << 2)
#define PORT_KBC_COMMAND 0x64u
#define KBC_PULSE_RESET 0xFEu
#define PORT_SYSCTL_A 0x92u
#define SYSCTL_A_RESET 1u
#define SYSCTL_A_A20 2u
/* OVMF's ResetShutdown writes PM1_CNT at a fixed 0x604 (PMBASE 0x600,
 * its own default), whatever PMBASE says. */
#define OVMF_PM1_CNT 0x604u
#define APM_CNT 0xB2u
#define APM_STS 0xB3u
/* The FADT's ACPI_ENABLE and ACPI_DISABLE for SMI_CMD on QEMU's q35
 * (ICH9_APM_ACPI_ENABLE/DISABLE), and PM1_CNT's SCI_EN. */
#define APM_ACPI_ENABLE 0x02u
#define APM_ACPI_DISABLE 0x03u
#define PM1_SCI_EN 1u

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
static struct mlock lines_lock;
static uint16_t pm1_cnt; /* 0: none found */
static uint16_t pm_base; /* QEMU's ICH9 PM block; 0: none found */
/* COM1's line control and interrupt enable as the guest wrote them: the
 * bytes it sends never reach the UART, so the hypervisor raises its
 * "transmitter empty" interrupt itself (on IO-APIC pin 4). */
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
		hv_ioapic_raise(COM1_IRQ);
	}
}

bool hv_io_rx_enabled(void)
{
	return (__atomic_load_n(&com1_ier, __ATOMIC_RELAXED) & IER_RDI) != 0;
}

/*
 * The user's keys arrive at QEMU's UART, whose own interrupt (ISA IRQ 4)
 * the machine does not take: its line is QEMU's IO-APIC's, and the
 * machine's local APICs mask LINT0. So the machine looks at the UART's
 * LSR.DR every @interval TSC cycles, on whichever vCPU comes first, and
 * while the guest enabled the "received data" interrupt and data waits,
 * raises the guest's pin 4, as KVM's virtual UART raises its line. The
 * guest reads the byte itself (RBR and LSR go to the UART); an edge
 * while it is still reading costs it one interrupt with nothing to do.
 * The machine's own lines only write the UART's THR, so they never
 * consume or add to what the user typed.
 */
void hv_io_poll(uint64_t interval)
{
	uint64_t now = rdtsc();
	uint64_t last = __atomic_load_n(&com1_polled, __ATOMIC_RELAXED);
	unsigned v;

	/* A shell's prompt and the echo of the keys typed are partial lines:
	 * out once they have waited @interval. */
	mlock_take(&lines_lock);
	for (v = 0; v < MACHINE_VMPLS; v++) {
		struct line *l = &lines[v];

		if (l->len > 0 && now - l->since >= interval) {
			line_flush(l);
		}
	}
	mlock_drop(&lines_lock);
	if (!hv_io_rx_enabled() || now - last < interval ||
	    !__atomic_compare_exchange_n(&com1_polled, &last, now, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		return;
	}
	if ((inb(COM1_LSR) & LSR_DR) != 0) {
		hv_ioapic_raise(COM1_IRQ);
	}
}

void hv_io_init(void)
{
	uint16_t base = chipset_pm_base();

	host_pci_masters_off();
	if (base != 0) {
		pm1_cnt = (uint16_t)(base + PM1_CNT_OFF);
		pm_base = (uint16_t)base;
	}
	mlog("hypervisor: ACPI PM block at 0x%x", base);
	hv_pci_init((uint16_t)base);
	hv_fwcfg_init();
}

/* The guest's port on QEMU's PM block: where the guest's PMBASE put it
 * (hv_pci.c), and OVMF's fixed PM1_CNT. */
static uint16_t pm_port(uint16_t port)
{
	port = hv_pci_pm_port(port);
	if (pm1_cnt != 0 && port >= OVMF_PM1_CNT && port < OVMF_PM1_CNT + 2) {
		port = (uint16_t)(pm1_cnt + (port - OVMF_PM1_CNT));
	}
	return port;
}

/* What ends the VM as power-off or reset; the machine cannot suspend, so
 * any sleep state is power-off. True: the VM is to stop. */
static bool power(struct hv_vcpu *c, unsigned vmpl, uint16_t port,
		  unsigned size, uint32_t val)
{
	const char *what = NULL;
	unsigned status = MACHINE_EXIT_GUEST_RESET;

	if (pm1_cnt != 0 && port == pm1_cnt && size >= 2 &&
	    (val & PM1_SLP_EN) != 0) {
		what = "ACPI power-off";
		status = MACHINE_EXIT_GUEST_POWEROFF;
	} else if (port == PORT_RESET_CONTROL && size == 1 &&
		   (val & RESET_CPU) != 0) {
		what = "reset (0xCF9)";
	} else if (port == PORT_KBC_COMMAND && size == 1 &&
		   (val & 0xFFu) == KBC_PULSE_RESET) {
		what = "reset (keyboard controller)";
	} else if (port == PORT_SYSCTL_A && size == 1 &&
		   (val & SYSCTL_A_RESET) != 0) {
		what = "reset (port 0x92)";
	}
	if (what != NULL) {
		hv_io_flush();
		mlog("vCPU %u VMPL%u: %s", c->index, vmpl, what);
		hv_vcpu_stop(c, status);
		return true;
	}
	return false;
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
	mlock_take(&lines_lock);
	if (l->len == 0) {
		l->since = rdtsc();
	}
	l->buf[l->len++] = ch;
	if (ch == '\n' || l->len == LINE_MAX) {
		line_flush(l);
	}
	mlock_drop(&lines_lock);
}

void hv_io_flush(void)
{
	unsigned v;

	mlock_take(&lines_lock);
	for (v = 0; v < MACHINE_VMPLS; v++) {
		line_flush(&lines[v]);
	}
	mlock_drop(&lines_lock);
}

/*
 * The ports of QEMU's devices the guest gets, forwarded as they are:
 * COM1 (but for what hv_io keeps above: THR, IER, IIR/FCR, LSR), the
 * PIT and the RTC; and the ACPI part of the ICH9 PM block, which the
 * guest's FADT names (PM1 events and control, the PM timer, GPE0: PMBASE
 * + 0x00 to + 0x2F), at its real address. Not its SMI_EN, SMI_STS and
 * TCO registers (+ 0x30 to + 0x7F: which events raise an SMI into the
 * firmware below the machine, and the TCO watchdog). Every other port
 * has no device (qemu_port): the 8042 and port 0x92 (A20 gates of the
 * real CPU), the ISA DMA controller, the BARs of QEMU's PCI devices (the
 * AHCI's index/data pair reaches its DMA engine), the CPU hotplug block,
 * APM (an SMI).
 */
struct port_range {
	uint16_t first, last;
};
static const struct port_range qemu_ports[] = {
	{0x40u, 0x43u},	   /* PIT */
	{0x70u, 0x71u},	   /* RTC (CMOS index and data) */
	{COM1, COM1 + 7u}, /* COM1 */
};
#define PM_ACPI_SIZE 0x30u

static bool in_range(uint32_t first, uint32_t last, uint16_t port,
		     unsigned size)
{
	return port >= first && (uint32_t)port + size - 1 <= last;
}

static bool qemu_port(uint16_t port, unsigned size)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(qemu_ports); i++) {
		if (in_range(qemu_ports[i].first, qemu_ports[i].last, port,
			     size)) {
			return true;
		}
	}
	return pm_base != 0 &&
	       in_range(pm_base, pm_base + PM_ACPI_SIZE - 1u, port, size);
}

/* One bit per port: logged once; PORTS_LOGGED ports in all. */
static uint8_t port_logged[0x10000 / 8];
static unsigned ports_logged;
#define PORTS_LOGGED 64u

/* No device: reads all ones, writes dropped, the first access to each
 * port logged, up to PORTS_LOGGED ports (a guest probing for devices is
 * no error, and a scan of the whole space must not flood the log). */
static void no_device(struct hv_vcpu *c, unsigned vmpl, uint16_t port,
		      unsigned size, bool in, uint32_t *val)
{
	uint8_t bit = (uint8_t)(1u << (port % 8));
	unsigned n;

	if (in) {
		*val = 0xFFFFFFFFu;
	}
	if ((__atomic_fetch_or(&port_logged[port / 8], bit, __ATOMIC_RELAXED) &
	     bit) != 0) {
		return;
	}
	n = __atomic_fetch_add(&ports_logged, 1u, __ATOMIC_RELAXED);
	if (n < PORTS_LOGGED) {
		mlog("hypervisor: vCPU %u VMPL%u: port 0x%x (%s, %u bytes): "
		     "no device%s",
		     c->index, vmpl, port, in ? "in" : "out", size,
		     n + 1 == PORTS_LOGGED ? " (no more ports logged)" : "");
	}
}

static void qemu_io(uint16_t port, unsigned size, bool in, uint32_t *val)
{
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
			*val = inw(port);
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

/*
 * The guest's SMI_CMD write: QEMU's ICH9 answers ACPI_ENABLE/DISABLE by
 * setting/clearing SCI_EN in PM1_CNT (and raises an SMI, which here would
 * enter the firmware below the machine, so the port itself stays closed).
 * Done here without the SMI, so Linux sees ACPI mode as on a KVM host.
 */
static void apm_command(uint8_t cmd)
{
	uint16_t cnt;

	if (pm1_cnt == 0 ||
	    (cmd != APM_ACPI_ENABLE && cmd != APM_ACPI_DISABLE)) {
		return;
	}
	cnt = inw(pm1_cnt) & (uint16_t)~PM1_SLP_EN;
	cnt = cmd == APM_ACPI_ENABLE ? (uint16_t)(cnt | PM1_SCI_EN)
				     : (uint16_t)(cnt & ~PM1_SCI_EN);
	outw(pm1_cnt, cnt);
}

void hv_io(struct hv_vcpu *c, unsigned vmpl, uint16_t port, unsigned size,
	   bool in, uint32_t *val)
{
	if (port == COM1 && !in && size == 1 && !com1_dlab()) {
		com1_byte(vmpl, (char)*val);
		com1_thre(); /* sent at once: empty again */
		return;
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
		return;
	}
	if (port == COM1_LCR && !in && size == 1) {
		__atomic_store_n(&com1_lcr, (uint8_t)*val, __ATOMIC_RELAXED);
	}
	if (port == COM1_IER && !in && size == 1 && !com1_dlab()) {
		__atomic_store_n(&com1_ier, (uint8_t)*val, __ATOMIC_RELAXED);
		outb(port, (uint8_t)*val);
		com1_thre(); /* THRI enabled with THR empty: at once */
		return;
	}
	/* The transmitter is the guest's (always empty), the receiver the
	 * UART's: data ready and its errors. */
	if (port == COM1_LSR && in && size == 1) {
		*val = LSR_IDLE | (inb(COM1_LSR) & LSR_RX_BITS);
		return;
	}
	if (port == MACHINE_EXIT_PORT && !in) {
		hv_vcpu_stop(c, *val & 0xFFu);
		return;
	}
	port = pm_port(port);
	if (!in && power(c, vmpl, port, size, *val)) {
		return;
	}
	if (size == 1 && hv_pic_io(port, in, val)) {
		return;
	}
	if (port == APM_CNT && size == 1 && !in) {
		apm_command((uint8_t)*val);
		return;
	}
	if (hv_fwcfg_port(port)) {
		hv_fwcfg_io(port, size, in, val);
		return;
	}
	if (hv_pci_port(port, size)) {
		hv_pci_io(port, size, in, val);
		return;
	}
	/* Port 0x92: the guest's reads A20 on, always; a write's reset bit
	 * ended the VM above, its A20 bit is dropped (the real gate would
	 * fold the machine's own addresses). */
	if (port == PORT_SYSCTL_A && size == 1) {
		if (in) {
			*val = SYSCTL_A_A20;
		}
		return;
	}
	if (qemu_port(port, size)) {
		qemu_io(port, size, in, val);
		return;
	}
	no_device(c, vmpl, port, size, in, val);
}
