/* SPDX-License-Identifier: MIT */
/*
 * How a guest OS ends a VM on a PC (Linux: acpi_power_off, the FADT's
 * reset register): ACPI PM1a_CNT with SLP_EN, or 0xCF9. A run asks for
 * it with QEMU's "-fw_cfg name=opt/csvsm/guest-end,string=poweroff" (or
 * "reset"), read through fw_cfg's ports as port I/O through the GHCB;
 * the machine must end with its power-off or reset status. With
 * "triple-fault" it ends in a triple fault, which the machine must
 * end as hardware does (a shutdown), not loop on. With
 * "terminate-private-ghcb" it asks for termination after making its
 * registered GHCB private: the hypervisor must not read that page.
 */
#include "svsm/std.h"

#include "abi/fw_cfg.h"

#include "guest.h"
#include "port_io.h"

/* q35's PM1a_CNT as its FADT names it (the BIOS sets PMBASE 0x600). */
#define PM1A_CNT 0x604u
#define PM1_SLP_EN (1u << 13)
#define RESET_CONTROL 0xCF9u
#define RESET_HARD 0x6u

static void read_bytes(uint8_t *buf, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		buf[i] = in8(FW_CFG_PORT_DATA);
	}
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static bool same(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* The fw_cfg file @name's first bytes into @out (NUL-terminated). */
static bool fwcfg_string(const char *name, char *out, unsigned max)
{
	uint8_t hdr[4], e[sizeof(struct fw_cfg_file)];
	uint32_t count, i;

	out16(FW_CFG_PORT_SEL, FW_CFG_FILE_DIR);
	read_bytes(hdr, 4);
	count = be32(hdr);
	for (i = 0; i < count && i < 64; i++) {
		uint32_t size;

		read_bytes(e, sizeof(e));
		e[sizeof(e) - 1] = 0;
		if (!same((const char *)e + offsetof(struct fw_cfg_file, name),
			  name)) {
			continue;
		}
		size = be32(e);
		out16(FW_CFG_PORT_SEL, (uint16_t)(e[4] << 8 | e[5]));
		if (size >= max) {
			size = max - 1;
		}
		read_bytes((uint8_t *)out, size);
		out[size] = '\0';
		return true;
	}
	return false;
}

/*
 * What a kernel that lost track of its VMPL does (Linux 6.16-6.18's
 * decompressor, docs/linux.md): PVALIDATE at VMPL1 (#GP), here with no
 * IDT to take it: the #GP cannot be delivered (#GP), the #DF neither:
 * hardware shuts the VM down, and so must the machine.
 */
static void pvalidate_without_idt(void)
{
	static const struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) none = {0, 0};
	static uint8_t page[4096] __attribute__((aligned(4096)));

	__asm__ volatile("lidt %0\n\t"
			 ".byte 0xF2, 0x0F, 0x01, 0xFF" /* PVALIDATE */
			 :
			 : "m"(none), "a"(page), "c"(0), "d"(1)
			 : "memory", "cc");
}

void guest_end_if_asked(void)
{
	char how[32];

	if (!fwcfg_string("opt/csvsm/guest-end", how, sizeof(how))) {
		return;
	}
	g_print("[guest] %u passed, %u failed; ending with %s\n", g_passed(),
		g_failures(), how);
	if (same(how, "poweroff")) {
		out16(PM1A_CNT, PM1_SLP_EN); /* S5: SLP_TYP 0 on q35 */
	} else if (same(how, "reset")) {
		out8(RESET_CONTROL, RESET_HARD);
	} else if (same(how, "triple-fault")) {
		pvalidate_without_idt();
	} else if (same(how, "terminate-private-ghcb")) {
		ghcb_terminate_private(0x5EC12E75EC12E7ull);
	}
	CHECK_THAT(false, "the machine did not end the VM");
	g_exit(false);
}
