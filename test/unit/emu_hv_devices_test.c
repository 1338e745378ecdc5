/* SPDX-License-Identifier: MIT */
/*
 * emu's hypervisor devices for the guest, their pure parts: the fw_cfg
 * view (which of QEMU's files the guest sees, its directory and etc/e820,
 * QEMU's x86 Linux loader keys from a bzImage, offsets as QEMU moves them)
 * and the q35 PCI configuration space (mechanism 1, ECAM, PMBASE). emu's
 * files are not part of the hosted build; these two depend on nothing of
 * the machine's, so the test compiles them in.
 */
#include "../../emu/src/hv/dev/hv_fwcfg_view.c"
#include "../../emu/src/hv/dev/hv_pci.c"
#include "../framework/test.h"

#define MIB (1024ull * 1024ull)

static struct hv_fwcfg_file file(const char *name, uint16_t key, uint32_t size)
{
	struct hv_fwcfg_file f;

	memset(&f, 0, sizeof(f));
	f.size_be = __builtin_bswap32(size);
	f.key_be = __builtin_bswap16(key);
	memcpy(f.name, name, strlen(name));
	return f;
}

TEST(emu_fwcfg, hidden_files)
{
	char full[HV_FWCFG_NAME_MAX];

	EXPECT_TRUE(hv_fwcfg_hidden("opt/csvsm/igvm"));
	EXPECT_TRUE(hv_fwcfg_hidden("opt/csvsm/hv"));
	EXPECT_TRUE(hv_fwcfg_hidden("opt/csvsm/guest/kernel"));
	EXPECT_TRUE(hv_fwcfg_hidden("opt/csvsm/guest/cmdline"));
	EXPECT_TRUE(hv_fwcfg_hidden("etc/e820"));
	EXPECT_TRUE(hv_fwcfg_hidden("genroms/pvh.bin"));
	EXPECT_FALSE(hv_fwcfg_hidden("opt/csvsm/guest-end"));
	EXPECT_FALSE(hv_fwcfg_hidden("opt/csvsm/igvm2"));
	EXPECT_FALSE(hv_fwcfg_hidden("etc/e8200"));
	EXPECT_FALSE(hv_fwcfg_hidden("etc/acpi/tables"));
	EXPECT_FALSE(hv_fwcfg_hidden("bootorder"));
	/* A name with no NUL in its 56 bytes is not a name. */
	memset(full, 'a', sizeof(full));
	EXPECT_TRUE(hv_fwcfg_hidden(full));
}

TEST(emu_fwcfg, directory_filters_and_inserts_in_order)
{
	const struct hv_fwcfg_file qemu[] = {
		file("bootorder", 0x20, 0),
		file("etc/acpi/rsdp", 0x21, 36),
		file("etc/acpi/tables", 0x22, 0x20000),
		file("etc/e820", 0x23, 40),
		file("etc/table-loader", 0x24, 4096),
		file("genroms/pvh.bin", 0x25, 1536),
		file("opt/csvsm/guest-end", 0x26, 8),
		file("opt/csvsm/guest/kernel", 0x27, 10 * MIB),
		file("opt/csvsm/igvm", 0x28, 3 * MIB),
	};
	const struct hv_fwcfg_file e820 = file("etc/e820", 0x3FF0, 20);
	static const char *const want[] = {
		"bootorder", "etc/acpi/rsdp",	 "etc/acpi/tables",
		"etc/e820",  "etc/table-loader", "opt/csvsm/guest-end",
	};
	static const uint16_t keys[] = {0x20, 0x21, 0x22, 0x3FF0, 0x24, 0x26};
	struct hv_fwcfg_file out[10];
	uint32_t n, i;

	n = hv_fwcfg_dir(qemu, 9, &e820, 1, out, 10);
	ASSERT_EQ(n, 6);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(strcmp(out[i].name, want[i]), 0);
		EXPECT_EQ(__builtin_bswap16(out[i].key_be), keys[i]);
	}
	EXPECT_EQ(__builtin_bswap32(out[3].size_be), 20);
	EXPECT_EQ(__builtin_bswap32(out[2].size_be), 0x20000);
	/* The synthetic file goes last when it sorts last, and never past
	 * the room given. */
	n = hv_fwcfg_dir(qemu, 2, &e820, 1, out, 10);
	ASSERT_EQ(n, 3);
	EXPECT_EQ(strcmp(out[2].name, "etc/e820"), 0);
	EXPECT_EQ(hv_fwcfg_dir(qemu, 9, &e820, 1, out, 3), 3);
}

TEST(emu_fwcfg, directory_drops_a_qemu_file_on_a_synthetic_key)
{
	const struct hv_fwcfg_file qemu[] = {
		file("etc/boot-fail-wait", 0x20, 4),
		file("etc/smbios/smbios-tables", 0x3FF0, 100),
	};
	const struct hv_fwcfg_file e820 = file("etc/e820", 0x3FF0, 20);
	struct hv_fwcfg_file out[4];

	ASSERT_EQ(hv_fwcfg_dir(qemu, 2, &e820, 1, out, 4), 2);
	EXPECT_EQ(strcmp(out[0].name, "etc/boot-fail-wait"), 0);
	EXPECT_EQ(strcmp(out[1].name, "etc/e820"), 0);
}

TEST(emu_fwcfg, e820_lists_guest_ram)
{
	uint8_t buf[2 * HV_FWCFG_E820_ENTRY];
	uint64_t addr, len;
	uint32_t type;

	ASSERT_EQ(hv_fwcfg_e820(0x1E000000ull, 0, buf, 20), 20);
	memcpy(&addr, buf, 8);
	memcpy(&len, buf + 8, 8);
	memcpy(&type, buf + 16, 4);
	EXPECT_EQ(addr, 0);
	EXPECT_EQ(len, 0x1E000000ull);
	EXPECT_EQ(type, 1);
	EXPECT_EQ(hv_fwcfg_e820(0x1E000000ull, 0, buf, 19), 0);
	/* RAM above the low limit (q35's max-ram-below-4g): from 4 GiB. */
	ASSERT_EQ(hv_fwcfg_e820(0x20000000ull, 0x10000000ull, buf, sizeof(buf)),
		  40);
	memcpy(&addr, buf + 20, 8);
	memcpy(&len, buf + 28, 8);
	memcpy(&type, buf + 36, 4);
	EXPECT_EQ(addr, 0x100000000ull);
	EXPECT_EQ(len, 0x10000000ull);
	EXPECT_EQ(type, 1);
	EXPECT_EQ(hv_fwcfg_e820(0x20000000ull, 0x10000000ull, buf, 39), 0);
}

/* A bzImage's first bytes: boot protocol 2.15, loaded high. */
static void bzimage(uint8_t *h, uint8_t setup_sects)
{
	memset(h, 0, HV_FWCFG_LINUX_HDR);
	h[0x1F1] = setup_sects;
	h[0x1FE] = 0x55;
	h[0x1FF] = 0xAA;
	memcpy(h + 0x202, "HdrS", 4);
	h[0x206] = 0x0F;
	h[0x207] = 0x02;
	h[0x211] = 0x01;
	h[0x22C] = 0xFF; /* initrd_addr_max 0x7FFFFFFF */
	h[0x22D] = 0xFF;
	h[0x22E] = 0xFF;
	h[0x22F] = 0x7F;
}

TEST(emu_fwcfg, linux_keys_from_a_bzimage)
{
	uint8_t h[HV_FWCFG_LINUX_HDR];
	struct hv_fwcfg_linux l;
	const uint64_t ram = 480 * MIB, initrd = 30 * MIB + 5;

	bzimage(h, 27);
	ASSERT_TRUE(hv_fwcfg_linux(h, sizeof(h), 10 * MIB, initrd, 11, ram,
				   &l) == NULL);
	EXPECT_EQ(l.setup_size, 28 * 512);
	EXPECT_EQ(l.kernel_size, 10 * MIB - 28 * 512);
	EXPECT_EQ(l.initrd_size, initrd);
	EXPECT_EQ(l.cmdline_size, 12);
	EXPECT_EQ(l.setup_addr, 0x10000);
	EXPECT_EQ(l.kernel_addr, 0x100000);
	EXPECT_EQ(l.cmdline_addr, 0x20000);
	/* Below the top of RAM less QEMU's ACPI area, page-aligned. */
	EXPECT_EQ(l.initrd_addr, (ram - 0x28000 - 1 - initrd) & ~0xFFFull);

	/* setup_sects 0 means 4; no initrd, no command line. */
	bzimage(h, 0);
	ASSERT_TRUE(hv_fwcfg_linux(h, sizeof(h), 1 * MIB, 0, 0, ram, &l) ==
		    NULL);
	EXPECT_EQ(l.setup_size, 5 * 512);
	EXPECT_EQ(l.kernel_size, 1 * MIB - 5 * 512);
	EXPECT_EQ(l.initrd_size, 0);
	EXPECT_EQ(l.initrd_addr, 0);
	EXPECT_EQ(l.cmdline_size, 1);
}

TEST(emu_fwcfg, malformed_kernels_are_not_presented)
{
	uint8_t h[HV_FWCFG_LINUX_HDR];
	struct hv_fwcfg_linux l;

	bzimage(h, 27);
	h[0x202] = 'X';
	EXPECT_TRUE(hv_fwcfg_linux(h, sizeof(h), 10 * MIB, 0, 0, 0, &l) !=
		    NULL);
	EXPECT_EQ(l.kernel_size, 0);
	EXPECT_EQ(l.setup_size, 0);
	EXPECT_EQ(l.cmdline_size, 0);
	bzimage(h, 27);
	h[0x1FE] = 0;
	EXPECT_TRUE(hv_fwcfg_linux(h, sizeof(h), 10 * MIB, 0, 0, 0, &l) !=
		    NULL);
	/* A setup as long as the file, a short file, an old protocol. */
	bzimage(h, 27);
	EXPECT_TRUE(hv_fwcfg_linux(h, sizeof(h), 28 * 512, 0, 0, 0, &l) !=
		    NULL);
	EXPECT_TRUE(hv_fwcfg_linux(h, 0x100, 0x100, 0, 0, 0, &l) != NULL);
	h[0x207] = 0x01;
	EXPECT_TRUE(hv_fwcfg_linux(h, sizeof(h), 10 * MIB, 0, 0, 0, &l) !=
		    NULL);
	EXPECT_EQ(l.kernel_size, 0);
}

TEST(emu_fwcfg, offsets_move_as_qemu_moves_them)
{
	uint32_t avail;

	EXPECT_EQ(hv_fwcfg_advance(10, 0, 4, &avail), 4);
	EXPECT_EQ(avail, 4);
	EXPECT_EQ(hv_fwcfg_advance(10, 8, 4, &avail), 10);
	EXPECT_EQ(avail, 2);
	EXPECT_EQ(hv_fwcfg_advance(10, 10, 4, &avail), 10);
	EXPECT_EQ(avail, 0);
	EXPECT_EQ(hv_fwcfg_advance(0, 0, 1, &avail), 0);
	EXPECT_EQ(avail, 0);
}

#define BDF(dev, fn) ((uint32_t)((dev) << 3 | (fn)))

static uint32_t mech1(uint32_t bdf, uint32_t reg, uint16_t port, unsigned size)
{
	uint32_t v = 0x80000000u | bdf << 8 | (reg & 0xFCu);

	hv_pci_io(HV_PCI_CONF_ADDR, 4, false, &v);
	hv_pci_io(port, size, true, &v);
	return v;
}

TEST(emu_pci, q35_functions_and_nothing_else)
{
	hv_pci_init(0x600);
	EXPECT_EQ(hv_pci_cfg_read(BDF(0, 0), 0, 4), 0x29C08086u);
	EXPECT_EQ(hv_pci_cfg_read(BDF(0, 0), 8, 4), 0x06000000u);
	EXPECT_EQ(hv_pci_cfg_read(BDF(0, 0), 0x0E, 1), 0);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0, 4), 0x29188086u);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 8, 4), 0x06010002u);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x0E, 1), 0x80);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x2C, 4), 0x11001AF4u);
	/* No BARs. */
	hv_pci_cfg_write(BDF(31, 0), 0x10, 4, 0xFFFFFFFFu);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x10, 4), 0);
	EXPECT_EQ(hv_pci_cfg_read(BDF(1, 0), 0, 4), 0xFFFFFFFFu);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 1), 0, 2), 0xFFFFu);
	EXPECT_EQ(hv_pci_cfg_read(1u << 8, 0, 4), 0xFFFFFFFFu);
	/* Read-only: the IDs stay. */
	hv_pci_cfg_write(BDF(0, 0), 0, 4, 0x12345678u);
	EXPECT_EQ(hv_pci_cfg_read(BDF(0, 0), 0, 4), 0x29C08086u);
}

TEST(emu_pci, lpc_pmbase_and_storage)
{
	hv_pci_init(0x600);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x40, 4), 0x601);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x44, 1) & 0x80, 0x80);
	EXPECT_EQ(hv_pci_pm_port(0x604), 0x604);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x60, 4), 0x80808080u);
	hv_pci_cfg_write(BDF(31, 0), 0x60, 1, 0x0B);
	hv_pci_cfg_write(BDF(31, 0), 0x68, 4, 0x0A0B0A0Bu);
	hv_pci_cfg_write(BDF(31, 0), 0xF0, 4, 0xFED1C001u);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x60, 4), 0x8080800Bu);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x68, 4), 0x0A0B0A0Bu);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0xF0, 4), 0xFED1C001u);

	/* The guest moves PMBASE: its window leads to the real block. */
	hv_pci_cfg_write(BDF(31, 0), 0x40, 4, 0xB000);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x40, 4), 0xB001);
	EXPECT_EQ(hv_pci_pm_port(0xB008), 0x608);
	EXPECT_EQ(hv_pci_pm_port(0xB07F), 0x67F);
	EXPECT_EQ(hv_pci_pm_port(0xB080), 0xB080);
	EXPECT_EQ(hv_pci_pm_port(0x608), 0x608);
	/* ACPI_EN off: the block is not decoded at the guest's base. */
	hv_pci_cfg_write(BDF(31, 0), 0x44, 1, 0);
	EXPECT_EQ(hv_pci_pm_port(0xB008), 0xB008);

	/* No PM block found: PMBASE unset, ACPI_EN clear (OVMF sets it). */
	hv_pci_init(0);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x40, 4), 1);
	EXPECT_EQ(hv_pci_cfg_read(BDF(31, 0), 0x44, 1), 0);
}

TEST(emu_pci, mechanism_1)
{
	uint32_t v = 0x80000000u;

	hv_pci_init(0x600);
	EXPECT_TRUE(hv_pci_port(0xCF8, 4));
	EXPECT_TRUE(hv_pci_port(0xCFC, 1));
	EXPECT_TRUE(hv_pci_port(0xCFE, 2));
	EXPECT_TRUE(hv_pci_port(0xCF8, 1));
	EXPECT_FALSE(hv_pci_port(0xCF9, 1)); /* the reset control */
	EXPECT_FALSE(hv_pci_port(0xCF4, 4));
	EXPECT_FALSE(hv_pci_port(0xD00, 1));

	EXPECT_EQ(mech1(BDF(0, 0), 0, 0xCFC, 4), 0x29C08086u);
	EXPECT_EQ(mech1(BDF(0, 0), 0, 0xCFE, 2), 0x29C0);
	EXPECT_EQ(mech1(BDF(0, 0), 0, 0xCFD, 1), 0x80);
	EXPECT_EQ(mech1(BDF(31, 0), 0x0C, 0xCFE, 1), 0x80);
	EXPECT_EQ(mech1(BDF(2, 0), 0, 0xCFC, 4), 0xFFFFFFFFu);
	/* The address register reads back; without bit 31, no cycles. */
	hv_pci_io(HV_PCI_CONF_ADDR, 4, false, &v);
	hv_pci_io(HV_PCI_CONF_ADDR, 4, true, &v);
	EXPECT_EQ(v, 0x80000000u);
	v = 0;
	hv_pci_io(HV_PCI_CONF_ADDR, 4, false, &v);
	hv_pci_io(HV_PCI_CONF_DATA, 4, true, &v);
	EXPECT_EQ(v, 0xFFFFFFFFu);
	/* Data past the dword: no device. */
	EXPECT_EQ(mech1(BDF(0, 0), 0, 0xCFE, 4), 0xFFFFFFFFu);
	/* OVMF's PCIEXBAR sequence through the ports. */
	v = 0x80000000u | 0x60;
	hv_pci_io(HV_PCI_CONF_ADDR, 4, false, &v);
	v = 0xE0000001u;
	hv_pci_io(HV_PCI_CONF_DATA, 4, false, &v);
	EXPECT_EQ(hv_pci_cfg_read(BDF(0, 0), 0x60, 4), 0xE0000001u);
}

TEST(emu_pci, ecam_where_pciexbar_puts_it)
{
	uint8_t d[8];
	uint32_t v;

	hv_pci_init(0x600);
	EXPECT_FALSE(hv_pci_ecam(0xE0000000ull, 4, false, d));
	hv_pci_cfg_write(BDF(0, 0), 0x60, 4, 0);
	hv_pci_cfg_write(BDF(0, 0), 0x64, 4, 0);
	hv_pci_cfg_write(BDF(0, 0), 0x60, 4, 0xE0000001u);
	ASSERT_TRUE(hv_pci_ecam(0xE0000000ull, 4, false, d));
	memcpy(&v, d, 4);
	EXPECT_EQ(v, 0x29C08086u);
	ASSERT_TRUE(hv_pci_ecam(0xE00F8002ull, 2, false, d));
	EXPECT_EQ(d[0] | d[1] << 8, 0x2918);
	ASSERT_TRUE(hv_pci_ecam(0xE00F8000ull, 8, false, d));
	memcpy(&v, d + 4, 4);
	EXPECT_EQ(v, 0x00000007u); /* command, status */
	/* Extended space, other buses: all ones; the last byte of the
	 * window is in it, the next is not. */
	ASSERT_TRUE(hv_pci_ecam(0xE0000100ull, 4, false, d));
	memcpy(&v, d, 4);
	EXPECT_EQ(v, 0xFFFFFFFFu);
	ASSERT_TRUE(hv_pci_ecam(0xEFFFFFFFull, 1, false, d));
	EXPECT_EQ(d[0], 0xFF);
	EXPECT_FALSE(hv_pci_ecam(0xF0000000ull, 1, false, d));
	EXPECT_FALSE(hv_pci_ecam(0xEFFFFFFEull, 4, false, d));
	/* A write through ECAM: PMBASE of 00:1f.0. */
	v = 0xC001;
	memcpy(d, &v, 4);
	ASSERT_TRUE(hv_pci_ecam(0xE00F8040ull, 4, true, d));
	EXPECT_EQ(hv_pci_pm_port(0xC004), 0x604);
	/* Base bits under the length are masked: 64 MiB at 0xE4000000. */
	hv_pci_cfg_write(BDF(0, 0), 0x60, 4, 0xE4000005u);
	EXPECT_FALSE(hv_pci_ecam(0xE0000000ull, 4, false, d));
	ASSERT_TRUE(hv_pci_ecam(0xE4000000ull, 4, false, d));
	EXPECT_FALSE(hv_pci_ecam(0xE8000000ull, 4, false, d));
	/* Read-only bits of PCIEXBAR; the reserved length: off. */
	hv_pci_cfg_write(BDF(0, 0), 0x60, 4, 0xFFFFFFFFu);
	EXPECT_EQ(hv_pci_cfg_read(BDF(0, 0), 0x60, 4), 0xFC000007u);
	EXPECT_FALSE(hv_pci_ecam(0xFC000000ull, 4, false, d));
}
