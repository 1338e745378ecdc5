/* SPDX-License-Identifier: MIT */
#include "host_pci.h"

#include <stdbool.h>

#include "arch.h"
#include "machine.h"

#define CONF_ADDR 0xCF8u
#define CONF_DATA 0xCFCu
#define CONF_ENABLE (1u << 31)
#define REG_ID 0x00u
#define REG_COMMAND 0x04u /* the command register, low half of the dword */
#define REG_HEADER 0x0Cu  /* header type in bits 23:16 */
#define CMD_BUS_MASTER (1u << 2)
#define HEADER_MULTIFUNCTION (1u << 23)
#define BUSES 256u
#define DEVICES 32u
#define FUNCTIONS 8u

static void conf_select(uint32_t bdf, uint32_t reg)
{
	uint32_t addr = CONF_ENABLE | bdf << 8 | (reg & 0xFCu);

	outl(CONF_ADDR, addr);
}

uint32_t host_pci_read32(uint32_t bdf, uint32_t reg)
{
	conf_select(bdf, reg);
	return inl(CONF_DATA);
}

void host_pci_write32(uint32_t bdf, uint32_t reg, uint32_t v)
{
	conf_select(bdf, reg);
	outl(CONF_DATA, v);
}

/* One function: bus mastering off if it was on. Bits 31:16 of the
 * command dword are the status register, whose bits are cleared by
 * writing ones: written as zeros, they stay. */
static void master_off(uint32_t bdf, uint32_t id)
{
	uint32_t cmd = host_pci_read32(bdf, REG_COMMAND);

	if ((cmd & CMD_BUS_MASTER) == 0) {
		return;
	}
	host_pci_write32(bdf, REG_COMMAND, cmd & 0xFFFFu & ~CMD_BUS_MASTER);
	cmd = host_pci_read32(bdf, REG_COMMAND);
	mlog("machine: bus mastering %s on QEMU's %02x:%02x.%x (%04x:%04x)",
	     (cmd & CMD_BUS_MASTER) == 0 ? "off" : "STILL ON", bdf >> 8,
	     (bdf >> 3) & 31u, bdf & 7u, id & 0xFFFFu, id >> 16);
}

void host_pci_masters_off(void)
{
	uint32_t bus, dev, fn;

	for (bus = 0; bus < BUSES; bus++) {
		for (dev = 0; dev < DEVICES; dev++) {
			for (fn = 0; fn < FUNCTIONS; fn++) {
				uint32_t bdf = bus << 8 | dev << 3 | fn;
				uint32_t id = host_pci_read32(bdf, REG_ID);

				if ((id & 0xFFFFu) == 0xFFFFu) {
					if (fn == 0) {
						break; /* no device */
					}
					continue;
				}
				master_off(bdf, id);
				if (fn == 0 &&
				    (host_pci_read32(bdf, REG_HEADER) &
				     HEADER_MULTIFUNCTION) == 0) {
					break;
				}
			}
		}
	}
}
