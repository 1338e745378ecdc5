/* SPDX-License-Identifier: MIT */
/*
 * The guest reaches no real device (issue 29): port I/O the hypervisor
 * does not emulate goes nowhere (reads all ones, writes dropped), so no
 * device of QEMU's q35 under the machine can be driven by the guest: not
 * the ISA DMA controller, not the AHCI (whose I/O BAR is an index/data
 * window onto its DMA engine), not the keyboard controller's or port
 * 0x92's A20 gate, not the ICH9 TCO watchdog. The devices the guest does
 * get (COM1, the PIT, the RTC, the PM block's ACPI part) still answer.
 *
 * The A20 check runs last: on a machine that lets the guest write the
 * real port 0x92, it turns the A20 gate off under the machine itself.
 */
#include "guest.h"
#include "port_io.h"

#define NO_DEVICE8 0xFFu
#define NO_DEVICE32 0xFFFFFFFFu

/* The 8237 ISA DMA controller (QEMU's i8257 at 0x00-0x0F): channel 0's
 * address register, written and read back low byte then high byte (the
 * flip-flop cleared first). A device would keep the address; none reads
 * all ones. */
#define DMA_CH0_ADDR 0x00u
#define DMA_CLEAR_FLIPFLOP 0x0Cu
static void unknown_port(void)
{
	uint8_t lo, hi;

	out8(DMA_CLEAR_FLIPFLOP, 0);
	out8(DMA_CH0_ADDR, 0x5A);
	out8(DMA_CH0_ADDR, 0xA5);
	out8(DMA_CLEAR_FLIPFLOP, 0);
	lo = in8(DMA_CH0_ADDR);
	hi = in8(DMA_CH0_ADDR);
	CHECK_EQ(lo, NO_DEVICE8);
	CHECK_EQ(hi, NO_DEVICE8);
}

/* The PCI I/O window where the BIOS below the machine put QEMU's BARs
 * (SeaBIOS allocates from 0xC000): the AHCI's index/data pair (BAR4),
 * which reaches every AHCI register, command list and FIS bases
 * included, and so its DMA into any host memory. No port there answers. */
#define PCI_IO_FIRST 0xC000u
#define PCI_IO_END 0x10000u
#define AHCI_IDP_INDEX 0x10u /* QEMU's ICH9 AHCI: index at BAR4 + 0x10 */
#define AHCI_IDP_DATA 0x14u
#define AHCI_VS 0x10u /* the AHCI version register */
static void pci_io_window(void)
{
	unsigned port, answered = 0;

	for (port = PCI_IO_FIRST; port < PCI_IO_END; port += 4) {
		uint32_t v = in32((uint16_t)port);

		if (v != NO_DEVICE32) {
			if (answered < 4) {
				g_print("  port %x reads %x\n", port, v);
			}
			answered++;
		}
	}
	CHECK_EQ(answered, 0);
	/* The first BAR that answers, taken for the AHCI's index/data pair
	 * (SeaBIOS puts it first): its version register through it. */
	for (port = PCI_IO_FIRST; port < PCI_IO_END - 0x20u; port += 0x20u) {
		if (in32((uint16_t)port) != NO_DEVICE32) {
			out32((uint16_t)(port + AHCI_IDP_INDEX), AHCI_VS);
			g_print("  BAR at %x: AHCI version (through its "
				"index/data "
				"pair) %x\n",
				port, in32((uint16_t)(port + AHCI_IDP_DATA)));
			break;
		}
	}
}

/* The ICH9 TCO watchdog at the PM block + 0x60 (TCO_RLD, TCO1_CNT at
 * + 0x68): no device, and a write that would start it does not take. */
#define LPC_PMBASE_ADDR 0x8000F840u
#define TCO_RLD 0x60u
#define TCO1_CNT 0x68u
static void tco_watchdog(void)
{
	uint16_t pmbase;

	out32(0xCF8, LPC_PMBASE_ADDR);
	pmbase = (uint16_t)(in32(0xCFC) & 0xFF80u);
	CHECK_THAT(pmbase != 0, "the LPC names a PM block");
	CHECK_EQ(in32((uint16_t)(pmbase + TCO_RLD)), NO_DEVICE32);
	out32((uint16_t)(pmbase + TCO1_CNT), 0); /* TCO_TMR_HLT clear */
	CHECK_EQ(in32((uint16_t)(pmbase + TCO1_CNT)), NO_DEVICE32);
}

/* The 8042 keyboard controller (0x60, 0x64), whose output port holds an
 * A20 gate: no device. Its one command the machine takes is the reset
 * pulse (0xFE, power.c's test); 0xD0 (read the output port) is dropped. */
#define KBC_DATA 0x60u
#define KBC_STATUS 0x64u
#define KBC_READ_OUTPUT 0xD0u
static void keyboard_controller(void)
{
	CHECK_EQ(in8(KBC_STATUS), NO_DEVICE8);
	out8(KBC_STATUS, KBC_READ_OUTPUT);
	CHECK_EQ(in8(KBC_DATA), NO_DEVICE8);
}

/* The devices the guest keeps: COM1 (its scratch register), the RTC
 * (status register A's divider bits), the PM timer ticking, the PIT's
 * channel 0 counting. */
#define COM1_SCR 0x3FFu
#define RTC_INDEX 0x70u
#define RTC_DATA 0x71u
#define RTC_REG_A 0x0Au
#define PM_TMR 0x08u
static void guest_devices(void)
{
	uint16_t pmbase;
	uint32_t t0;
	unsigned i;
	bool ticked = false;

	out8(COM1_SCR, 0x5A);
	CHECK_EQ(in8(COM1_SCR), 0x5A);
	out8(RTC_INDEX, RTC_REG_A);
	CHECK_EQ(in8(RTC_DATA) & 0x70u, 0x20u); /* 32.768 kHz divider */
	out32(0xCF8, LPC_PMBASE_ADDR);
	pmbase = (uint16_t)(in32(0xCFC) & 0xFF80u);
	t0 = in32((uint16_t)(pmbase + PM_TMR));
	for (i = 0; i < 1000 && !ticked; i++) {
		ticked = in32((uint16_t)(pmbase + PM_TMR)) != t0;
	}
	CHECK_THAT(ticked, "the PM timer ticks");
}

/* Port 0x92 (system control port A): bit 1 is the A20 gate, bit 0 the
 * reset. The guest's port reads A20 on and a write of 0 leaves it on:
 * the real gate is the machine's (A20 off would fold every host address
 * the machine's own code runs at). */
#define PORT_SYSCTL_A 0x92u
#define SYSCTL_A_A20 0x02u
static void a20_gate(void)
{
	CHECK_EQ(in8(PORT_SYSCTL_A) & SYSCTL_A_A20, SYSCTL_A_A20);
	g_print("  writing 0 to port 0x92 (A20 off, no reset)\n");
	out8(PORT_SYSCTL_A, 0);
	CHECK_EQ(in8(PORT_SYSCTL_A) & SYSCTL_A_A20, SYSCTL_A_A20);
}

void tests_dev(void)
{
	g_section("devices: only what the hypervisor emulates");
	guest_devices();
	unknown_port();
	pci_io_window();
	tco_watchdog();
	keyboard_controller();
	a20_gate();
}
