/* SPDX-License-Identifier: MIT */
#include "hv_io.h"

#include "svsm/std.h"

#include "arch.h"
#include "hv/dev/hv_fwcfg.h"
#include "hv/dev/hv_ioapic.h"
#include "hv/dev/hv_pci.h"
#include "hv/dev/hv_pic.h"
#include "hv/dev/hv_vuart.h"
#include "machine/chipset.h"
#include "machine/host_pci.h"
#include "machine/layout.h"

#define COM1 0x3F8u
#define COM1_IRQ 4u /* IO-APIC pin of ISA IRQ 4 */
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

static uint16_t pm1_cnt; /* 0: none found */
static uint16_t pm_base; /* QEMU's ICH9 PM block; 0: none found */
void hv_io_init(void)
{
	uint16_t base = chipset_pm_base();

	host_pci_masters_off();
	if (base != 0) {
		pm1_cnt = (uint16_t)(base + PM1_CNT_OFF);
		pm_base = (uint16_t)base;
	}
	hv_vuart_init(hv_ioapic_raise, COM1_IRQ);
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
		hv_vuart_flush();
		mlog("vCPU %u VMPL%u: %s", c->index, vmpl, what);
		hv_vcpu_stop(c, status);
		return true;
	}
	return false;
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
			*val = inl(port);
		} else {
			outl(port, (uint32_t)*val);
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

/* The port devices: each answers an access in its range, or declines it
 * (false: not its size or direction) to the next. */
typedef bool (*ioport_fn)(uint16_t port, unsigned size, bool in, uint32_t *val);

static bool pic_io(uint16_t port, unsigned size, bool in, uint32_t *val)
{
	return size == 1 && hv_pic_io(port, in, val);
}

static bool apm_io(uint16_t port, unsigned size, bool in, uint32_t *val)
{
	if (port != APM_CNT || size != 1 || in) {
		return false;
	}
	apm_command((uint8_t)*val);
	return true;
}

static bool fwcfg_io(uint16_t port, unsigned size, bool in, uint32_t *val)
{
	if (!hv_fwcfg_port(port)) {
		return false;
	}
	hv_fwcfg_io(port, size, in, val);
	return true;
}

static bool pci_io(uint16_t port, unsigned size, bool in, uint32_t *val)
{
	if (!hv_pci_port(port, size)) {
		return false;
	}
	hv_pci_io(port, size, in, val);
	return true;
}

/* Port 0x92: the guest's reads A20 on, always; a write's reset bit ended
 * the VM (power), its A20 bit is dropped (the real gate would fold the
 * machine's own addresses). */
static bool sysctl_a_io(uint16_t port, unsigned size, bool in, uint32_t *val)
{
	if (port != PORT_SYSCTL_A || size != 1) {
		return false;
	}
	if (in) {
		*val = SYSCTL_A_A20;
	}
	return true;
}

/* The hypervisor's port devices, in the order they are asked (bhyve's
 * ioport_handler[], Firecracker's io_bus); an access that overlaps
 * [first, last] asks the device. The dynamic ones come before (COM1,
 * isa-debug-exit, power-off and reset on the guest's PM block) and the
 * default after: QEMU's device as it is, or none. */
static const struct ioport {
	uint16_t first, last;
	ioport_fn io;
} ioports[] = {
	{0x20u, 0x21u, pic_io},	    /* master PIC */
	{0xA0u, 0xA1u, pic_io},	    /* slave PIC */
	{0x4D0u, 0x4D1u, pic_io},   /* ELCR */
	{APM_CNT, APM_CNT, apm_io}, /* SMI_CMD */
	{HV_FWCFG_PORT_SEL, HV_FWCFG_PORT_LAST, fwcfg_io},
	{HV_PCI_CONF_ADDR, HV_PCI_CONF_DATA + 3u, pci_io},
	{PORT_SYSCTL_A, PORT_SYSCTL_A, sysctl_a_io},
};

void hv_io(struct hv_vcpu *c, unsigned vmpl, uint16_t port, unsigned size,
	   bool in, uint32_t *val)
{
	uint32_t last;
	unsigned i;

	if (hv_vuart_io(vmpl, port, size, in, val)) {
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
	last = (uint32_t)port + size - 1;
	for (i = 0; i < ARRAY_SIZE(ioports); i++) {
		if (last >= ioports[i].first && port <= ioports[i].last &&
		    ioports[i].io(port, size, in, val)) {
			return;
		}
	}
	if (qemu_port(port, size)) {
		qemu_io(port, size, in, val);
		return;
	}
	no_device(c, vmpl, port, size, in, val);
}
