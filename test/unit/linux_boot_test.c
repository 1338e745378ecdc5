/* SPDX-License-Identifier: MIT */
/*
 * The snp firmware's Linux loader builders (src/plat/snp/linux_*.c) and
 * the bzImage header parser (src/lib/bzimage.c). Truths: boot.rst and
 * zero-page.rst offsets, Linux's cc_blob_sev_info and setup_data, and
 * the layout csvsm-igvm --linux writes (test/igvm/igvm_check.py).
 */
#include <string.h>

#include "svsm/bzimage.h"
#include "svsm/le.h"

#include "../../src/plat/snp/linux/linux_boot.h"
#include "../../src/plat/snp/vc.h"
#include "../framework/test.h"

#define MIB (1ull << 20)
#define PAGE 4096u

static uint8_t hdr[PAGE];

/* A 2.15 header as Debian's 7.3 kernel has it. */
static void make_hdr(void)
{
	memset(hdr, 0, sizeof(hdr));
	hdr[LINUX_HDR_SETUP_SECTS] = 39;
	le_put32(hdr + LINUX_HDR_SYSSIZE, 0xdd000);
	le_put16(hdr + LINUX_HDR_BOOT_FLAG, LINUX_BOOT_FLAG);
	hdr[LINUX_HDR_JUMP] = 0xEB;
	hdr[LINUX_HDR_JUMP + 1] = 0x6A;
	le_put32(hdr + LINUX_HDR_HEADER, LINUX_HDRS_MAGIC);
	le_put16(hdr + LINUX_HDR_VERSION, 0x20F);
	le_put16(hdr + LINUX_HDR_KERNEL_VERSION, 0x400);
	hdr[LINUX_HDR_LOADFLAGS] =
		LINUX_LOADFLAGS_LOADED_HIGH | LINUX_LOADFLAGS_CAN_USE_HEAP;
	le_put32(hdr + LINUX_HDR_INITRD_ADDR_MAX, 0x7FFFFFFF);
	le_put32(hdr + LINUX_HDR_KERNEL_ALIGNMENT, 0x200000);
	hdr[LINUX_HDR_RELOCATABLE] = 1;
	le_put16(hdr + LINUX_HDR_XLOADFLAGS, 0x7F);
	le_put32(hdr + LINUX_HDR_CMDLINE_SIZE, 2047);
	le_put64(hdr + LINUX_HDR_PREF_ADDRESS, 0x1000000);
	le_put32(hdr + LINUX_HDR_INIT_SIZE, 0x3e4e000);
}

/* What csvsm-igvm --linux writes around a 16 MiB SVSM at 16 MiB. */
static void linux_params(struct csvsm_boot_params *p)
{
	memset(p, 0, sizeof(*p));
	p->svsm_base = 16 * MIB;
	p->svsm_size = 16 * MIB;
	p->guest_entry_mode = CSVSM_GUEST_ENTRY_LINUX;
	p->linux_kernel_gpa = 32 * MIB;
	p->linux_kernel_size = 0xdd07c0;
	p->guest_entry_rip = 32 * MIB + 0x200;
	p->linux_initrd_gpa = 96 * MIB;
	p->linux_initrd_size = 0x103d84;
	p->linux_loader_gpa = 0x70000;
	p->linux_loader_size = 15 * PAGE;
	p->linux_zero_page_gpa = 0x70000;
	p->linux_setup_data_gpa = 0x71000;
	p->linux_cmdline_gpa = 0x72000;
	p->linux_cmdline_size = 20;
	p->linux_gdt_gpa = 0x73000;
	p->linux_setup_hdr_gpa = 0x74000;
	p->guest_secrets_gpa = 0x75000;
	p->guest_cpuid_gpa = 0x76000;
	p->guest_caa_gpa = 0x77000;
	p->linux_pml5_gpa = 0x78000;
	p->guest_cr3 = 0x79000 | (1ull << 51);
	p->linux_acpi_gpa = 0x80000;
	p->linux_acpi_size = 0x20000;
}

TEST(bzimage, parses_a_2_15_header)
{
	struct bzimage_hdr h;

	make_hdr();
	ASSERT_TRUE(bzimage_parse(hdr, sizeof(hdr), &h) == NULL);
	EXPECT_EQ(h.hdr_end, 0x26Cu);
	EXPECT_EQ(h.setup_size, 40u * 512);
	EXPECT_EQ(h.version, 0x20Fu);
	EXPECT_EQ(h.kernel_alignment, 0x200000u);
	EXPECT_EQ(h.init_size, 0x3e4e000u);
	EXPECT_EQ(h.pref_address, 0x1000000ull);
	EXPECT_EQ(h.cmdline_size, 2047u);
}

TEST(bzimage, refuses_what_cannot_boot_64_bit)
{
	struct bzimage_hdr h;

	make_hdr();
	EXPECT_TRUE(bzimage_parse(hdr, 0x263, &h) != NULL);
	hdr[LINUX_HDR_BOOT_FLAG] = 0;
	EXPECT_TRUE(bzimage_parse(hdr, sizeof(hdr), &h) != NULL);
	make_hdr();
	le_put16(hdr + LINUX_HDR_VERSION, 0x20B);
	EXPECT_TRUE(bzimage_parse(hdr, sizeof(hdr), &h) != NULL);
	make_hdr();
	le_put16(hdr + LINUX_HDR_XLOADFLAGS, 0x2);
	EXPECT_TRUE(bzimage_parse(hdr, sizeof(hdr), &h) != NULL);
	make_hdr();
	le_put32(hdr + LINUX_HDR_KERNEL_ALIGNMENT, 0x300000);
	EXPECT_TRUE(bzimage_parse(hdr, sizeof(hdr), &h) != NULL);
	make_hdr();
	hdr[LINUX_HDR_JUMP + 1] = 0xF0; /* a header past 0x290 */
	EXPECT_TRUE(bzimage_parse(hdr, sizeof(hdr), &h) != NULL);
	make_hdr();
	hdr[LINUX_HDR_JUMP + 1] = 0x40; /* ends before init_size */
	EXPECT_TRUE(bzimage_parse(hdr, sizeof(hdr), &h) != NULL);
	make_hdr();
	le_put32(hdr + LINUX_HDR_INIT_SIZE, 0);
	EXPECT_TRUE(bzimage_parse(hdr, sizeof(hdr), &h) != NULL);
}

TEST(bzimage, release)
{
	static uint8_t file[40 * 512];
	struct bzimage_hdr h;
	unsigned major = 0, minor = 0;

	make_hdr();
	memcpy(file, hdr, sizeof(hdr));
	memcpy(file + 0x600, "7.3.4+deb13-amd64 (debian", 26);
	ASSERT_TRUE(bzimage_parse(file, sizeof(file), &h) == NULL);
	ASSERT_TRUE(bzimage_release(file, sizeof(file), &h, &major, &minor) ==
		    NULL);
	EXPECT_EQ(major, 7u);
	EXPECT_EQ(minor, 3u);
	memcpy(file + 0x600, "6.", 3);
	EXPECT_TRUE(bzimage_release(file, sizeof(file), &h, &major, &minor) !=
		    NULL);
	/* The string runs to the end of the setup code: refused, no read
	 * past it. */
	memset(file + 0x600, '1', sizeof(file) - 0x600);
	EXPECT_TRUE(bzimage_release(file, sizeof(file), &h, &major, &minor) !=
		    NULL);
	le_put16(file + LINUX_HDR_KERNEL_VERSION, 0x7000);
	ASSERT_TRUE(bzimage_parse(file, sizeof(file), &h) == NULL);
	EXPECT_TRUE(bzimage_release(file, sizeof(file), &h, &major, &minor) !=
		    NULL);
}

static struct linux_e820_entry e820[LINUX_E820_MAX];

static const struct linux_hole holes[3] = {
	{0x70000, 15 * PAGE, LINUX_E820_RESERVED},
	{0x80000, 0x20000, LINUX_E820_ACPI},
	{16 * MIB, 16 * MIB, LINUX_E820_RESERVED},
};

TEST(linux_e820, emu_map)
{
	struct mem_range ram[1] = {{gpa_init(0), 894 * MIB}};
	unsigned n = 0;

	ASSERT_TRUE(linux_e820_build(ram, 1, holes, 3, e820, LINUX_E820_MAX,
				     &n) == NULL);
	ASSERT_EQ(n, 7u);
	EXPECT_TRUE(e820[0].addr == 0 && e820[0].size == 0x70000 &&
		    e820[0].type == LINUX_E820_RAM);
	EXPECT_TRUE(e820[1].addr == 0x70000 &&
		    e820[1].type == LINUX_E820_RESERVED);
	EXPECT_TRUE(e820[2].addr == 0x7F000 && e820[2].size == 0x1000 &&
		    e820[2].type == LINUX_E820_RAM);
	EXPECT_TRUE(e820[3].addr == 0x80000 && e820[3].type == LINUX_E820_ACPI);
	EXPECT_TRUE(e820[4].addr == 0xA0000 &&
		    e820[4].size == 16 * MIB - 0xA0000);
	EXPECT_TRUE(e820[5].addr == 16 * MIB &&
		    e820[5].type == LINUX_E820_RESERVED);
	EXPECT_TRUE(e820[6].addr == 32 * MIB && e820[6].size == 862 * MIB);
	EXPECT_TRUE(linux_e820_is_ram(e820, n, 32 * MIB, 0x3e4e000));
	EXPECT_FALSE(linux_e820_is_ram(e820, n, 15 * MIB, 2 * MIB));
	EXPECT_FALSE(linux_e820_is_ram(e820, n, 0x70000, PAGE));
	EXPECT_FALSE(linux_e820_is_ram(e820, n, 800 * MIB, 100 * MIB));
}

TEST(linux_e820, adjacent_host_ranges_merge)
{
	struct mem_range ram[3] = {{gpa_init(0), MIB},
				   {gpa_init(MIB), 63 * MIB},
				   {gpa_init(4096 * MIB), 64 * MIB}};
	unsigned n = 0;

	ASSERT_TRUE(linux_e820_build(ram, 3, holes, 3, e820, LINUX_E820_MAX,
				     &n) == NULL);
	ASSERT_EQ(n, 8u);
	EXPECT_TRUE(e820[4].addr == 0xA0000 &&
		    e820[4].size == 16 * MIB - 0xA0000);
	EXPECT_TRUE(e820[6].addr == 32 * MIB && e820[6].size == 32 * MIB);
	EXPECT_TRUE(e820[7].addr == 4096 * MIB);
}

TEST(linux_e820, hostile_maps_are_refused)
{
	struct mem_range gap[2] = {{gpa_init(0), 0x70000},
				   {gpa_init(MIB), 63 * MIB}};
	struct mem_range straddle[2] = {{gpa_init(0), 0x78000},
					{gpa_init(0x78000), 64 * MIB}};
	struct mem_range overlap[2] = {{gpa_init(0), 64 * MIB},
				       {gpa_init(32 * MIB), 64 * MIB}};
	struct mem_range low[1] = {{gpa_init(0), 20 * MIB}};
	struct mem_range ok[1] = {{gpa_init(0), 64 * MIB}};
	unsigned n = 0;

	/* The loader's pages not RAM in the host's map. */
	EXPECT_TRUE(linux_e820_build(gap, 2, holes, 3, e820, LINUX_E820_MAX,
				     &n) != NULL);
	EXPECT_TRUE(linux_e820_build(straddle, 2, holes, 3, e820,
				     LINUX_E820_MAX, &n) != NULL);
	EXPECT_TRUE(linux_e820_build(overlap, 2, holes, 3, e820, LINUX_E820_MAX,
				     &n) != NULL);
	/* The SVSM region runs past the host's RAM. */
	EXPECT_TRUE(linux_e820_build(low, 1, holes, 3, e820, LINUX_E820_MAX,
				     &n) != NULL);
	/* Too many entries for the table. */
	EXPECT_TRUE(linux_e820_build(ok, 1, holes, 3, e820, 4, &n) != NULL);
	/* Unsorted holes: an internal error, still refused. */
	{
		struct linux_hole h[2] = {holes[1], holes[0]};

		EXPECT_TRUE(linux_e820_build(ok, 1, h, 2, e820, LINUX_E820_MAX,
					     &n) != NULL);
	}
	/* No holes, one range: fewer than two entries. */
	EXPECT_TRUE(linux_e820_build(ok, 1, holes, 0, e820, LINUX_E820_MAX,
				     &n) != NULL);
}

TEST(linux_layout, the_tools_layout_passes)
{
	struct csvsm_boot_params p;
	struct bzimage_hdr h;

	linux_params(&p);
	make_hdr();
	EXPECT_TRUE(linux_layout_check(&p) == NULL);
	EXPECT_TRUE(linux_kernel_check(&p, hdr, &h) == NULL);
}

TEST(linux_layout, broken_layouts_are_refused)
{
	struct csvsm_boot_params p;

	linux_params(&p);
	p.guest_entry_rip += 1;
	EXPECT_TRUE(linux_layout_check(&p) != NULL);
	linux_params(&p);
	p.guest_secrets_gpa = 0x90000;
	EXPECT_TRUE(linux_layout_check(&p) != NULL);
	linux_params(&p);
	p.guest_caa_gpa = p.linux_gdt_gpa;
	EXPECT_TRUE(linux_layout_check(&p) != NULL);
	linux_params(&p);
	p.linux_kernel_gpa = 16 * MIB;
	p.guest_entry_rip = 16 * MIB + 0x200;
	EXPECT_TRUE(linux_layout_check(&p) != NULL);
	linux_params(&p);
	p.linux_initrd_gpa = 32 * MIB + 4 * MIB;
	EXPECT_TRUE(linux_layout_check(&p) != NULL);
	linux_params(&p);
	p.linux_initrd_gpa = 0xFFFFF000;
	EXPECT_TRUE(linux_layout_check(&p) != NULL);
	linux_params(&p);
	p.linux_cmdline_size = PAGE + 1;
	EXPECT_TRUE(linux_layout_check(&p) != NULL);
	linux_params(&p);
	p.guest_cr3 = 0x7F000;
	EXPECT_TRUE(linux_layout_check(&p) != NULL);
	linux_params(&p);
	p.linux_pml5_gpa = p.linux_gdt_gpa;
	EXPECT_TRUE(linux_layout_check(&p) != NULL);
	linux_params(&p);
	p.linux_pml5_gpa = 0; /* optional */
	EXPECT_TRUE(linux_layout_check(&p) == NULL);
}

/* The zero page, setup_data and command line are RAM, as boot loaders
 * place them; every other loader page is reserved, in maximal runs. */
TEST(linux_layout, loader_pages_linux_takes_as_ram)
{
	struct csvsm_boot_params p;
	struct linux_hole h[LINUX_LOADER_HOLES_MAX];
	unsigned n;

	linux_params(&p);
	EXPECT_TRUE(linux_loader_page_is_ram(&p, 0x70000));
	EXPECT_TRUE(linux_loader_page_is_ram(&p, 0x71000));
	EXPECT_TRUE(linux_loader_page_is_ram(&p, 0x72000));
	EXPECT_FALSE(linux_loader_page_is_ram(&p, 0x73000));
	EXPECT_FALSE(linux_loader_page_is_ram(&p, 0x75000)); /* secrets */
	EXPECT_FALSE(linux_loader_page_is_ram(&p, 0x77000)); /* the CA */
	n = linux_loader_holes(&p, h);
	ASSERT_EQ(n, 1u);
	EXPECT_EQ(h[0].base, 0x73000ull);
	EXPECT_EQ(h[0].size, 12ull * PAGE);
	EXPECT_EQ(h[0].type, (uint32_t)LINUX_E820_RESERVED);
	/* Scattered RAM pages: four runs around them. */
	p.linux_zero_page_gpa = 0x71000;
	p.linux_setup_data_gpa = 0x74000;
	p.linux_cmdline_gpa = 0x7E000;
	p.linux_gdt_gpa = 0x70000;
	p.linux_setup_hdr_gpa = 0x72000;
	EXPECT_TRUE(linux_layout_check(&p) == NULL);
	n = linux_loader_holes(&p, h);
	ASSERT_EQ(n, 3u);
	EXPECT_EQ(h[0].base, 0x70000ull);
	EXPECT_EQ(h[0].size, 1ull * PAGE);
	EXPECT_EQ(h[1].base, 0x72000ull);
	EXPECT_EQ(h[1].size, 2ull * PAGE);
	EXPECT_EQ(h[2].base, 0x75000ull);
	EXPECT_EQ(h[2].size, 9ull * PAGE);
}

TEST(linux_layout, kernel_against_its_header)
{
	struct csvsm_boot_params p;
	struct bzimage_hdr h;

	make_hdr();
	linux_params(&p);
	p.linux_kernel_gpa = 33 * MIB; /* not at kernel_alignment */
	EXPECT_TRUE(linux_kernel_check(&p, hdr, &h) != NULL);
	linux_params(&p);
	p.linux_initrd_gpa = 64 * MIB; /* inside init_size */
	EXPECT_TRUE(linux_kernel_check(&p, hdr, &h) != NULL);
	linux_params(&p);
	p.linux_cmdline_size = 2049;
	EXPECT_TRUE(linux_kernel_check(&p, hdr, &h) != NULL);
	linux_params(&p);
	hdr[LINUX_HDR_RELOCATABLE] = 0; /* moved, though not relocatable */
	EXPECT_TRUE(linux_kernel_check(&p, hdr, &h) != NULL);
}

TEST(linux_zero_page, as_boot_rst_says)
{
	static uint8_t bp[PAGE];
	struct linux_e820_entry e[2] = {
		{0, 0x70000, LINUX_E820_RAM},
		{0x70000, 0x10000, LINUX_E820_RESERVED}};
	struct bzimage_hdr h;
	struct linux_zero_page_in in = {.setup_hdr = hdr,
					.hdr = &h,
					.cmdline_gpa = 0x72000,
					.initrd_gpa = 0x106000000ull,
					.initrd_size = 0x103d84,
					.setup_data_gpa = 0x71000,
					.acpi_rsdp = 0x80000,
					.e820 = e,
					.e820_count = 2};

	make_hdr();
	hdr[0x300] = 0x5A; /* past the header: not copied */
	ASSERT_TRUE(bzimage_parse(hdr, sizeof(hdr), &h) == NULL);
	memset(bp, 0xCC, sizeof(bp));
	linux_zero_page_build(bp, &in);
	EXPECT_EQ(memcmp(bp + 0x1F1, hdr + 0x1F1, 0x210 - 0x1F1), 0);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_INIT_SIZE), 0x3e4e000u);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_KERNEL_ALIGNMENT), 0x200000u);
	EXPECT_EQ(bp[0x300], 0);
	EXPECT_EQ(bp[0], 0);
	EXPECT_EQ(bp[LINUX_HDR_TYPE_OF_LOADER], 0xFF);
	EXPECT_EQ(bp[LINUX_HDR_LOADFLAGS], LINUX_LOADFLAGS_LOADED_HIGH);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_CMD_LINE_PTR), 0x72000u);
	EXPECT_EQ(le_get32(bp + LINUX_BP_EXT_CMD_LINE_PTR), 0u);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_RAMDISK_IMAGE), 0x06000000u);
	EXPECT_EQ(le_get32(bp + LINUX_BP_EXT_RAMDISK_IMAGE), 1u);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_RAMDISK_SIZE), 0x103d84u);
	EXPECT_EQ(le_get32(bp + LINUX_BP_EXT_RAMDISK_SIZE), 0u);
	EXPECT_EQ(le_get64(bp + LINUX_HDR_SETUP_DATA), 0x71000ull);
	EXPECT_EQ(le_get64(bp + LINUX_BP_ACPI_RSDP_ADDR), 0x80000ull);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_HARDWARE_SUBARCH), 0u);
	EXPECT_EQ(bp[LINUX_BP_E820_ENTRIES], 2);
	EXPECT_EQ(bp[LINUX_BP_SENTINEL], 0);
	EXPECT_EQ(le_get64(bp + LINUX_BP_E820_TABLE + 20), 0x70000ull);
	EXPECT_EQ(le_get32(bp + LINUX_BP_E820_TABLE + 36), LINUX_E820_RESERVED);
	EXPECT_EQ(le_get32(bp + LINUX_BP_CC_BLOB_ADDRESS), 0u);
}

TEST(linux_zero_page, cc_blob_through_setup_data)
{
	static uint8_t pg[PAGE];
	uint32_t blob;

	memset(pg, 0xCC, sizeof(pg));
	linux_setup_data_build(pg, 0x71000, 0x75000, 0x76000);
	EXPECT_EQ(le_get64(pg), 0ull); /* the last node */
	EXPECT_EQ(le_get32(pg + 8), LINUX_SETUP_CC_BLOB);
	blob = le_get32(pg + 16);
	ASSERT_TRUE(blob > 0x71000 && blob < 0x72000 - 0x28);
	blob -= 0x71000;
	/* The node's data covers the blob (0x28 bytes): Linux reserves
	 * setup_data, and the page is RAM. */
	EXPECT_EQ(le_get32(pg + 12), blob + 0x28 - 16);
	EXPECT_EQ(le_get32(pg + blob), 0x45444d41u);
	EXPECT_EQ(le_get64(pg + blob + 0x08), 0x75000ull);
	EXPECT_EQ(le_get32(pg + blob + 0x10), 4096u);
	EXPECT_EQ(le_get64(pg + blob + 0x18), 0x76000ull);
	EXPECT_EQ(le_get32(pg + blob + 0x20), 4096u);
}

/* The event log node: chained after the CC blob node, which stays
 * first and whole; the log's bytes (already written) untouched. */
TEST(linux_zero_page, the_log_node_follows_the_cc_blob)
{
	static uint8_t pg[4096], before[4096];
	uint32_t blob;

	linux_setup_data_build(pg, 0x71000, 0x75000, 0x76000);
	memset(pg + LINUX_SETUP_LOG_OFFSET + 16, 0xA5, 100);
	memcpy(before, pg, sizeof(pg));
	linux_setup_data_chain_log(pg, 0x71000, 100);
	EXPECT_EQ(le_get64(pg), 0x71000ull + LINUX_SETUP_LOG_OFFSET);
	EXPECT_EQ(le_get32(pg + 8), LINUX_SETUP_CC_BLOB);
	blob = le_get32(pg + 16) - 0x71000;
	EXPECT_EQ(memcmp(pg + 8, before + 8, LINUX_SETUP_LOG_OFFSET - 8), 0);
	EXPECT_TRUE(blob + 0x28 <= LINUX_SETUP_LOG_OFFSET);
	EXPECT_EQ(le_get64(pg + LINUX_SETUP_LOG_OFFSET), 0ull);
	EXPECT_EQ(le_get32(pg + LINUX_SETUP_LOG_OFFSET + 8), 0x4353564Cu);
	EXPECT_EQ(le_get32(pg + LINUX_SETUP_LOG_OFFSET + 12), 100u);
	EXPECT_EQ(memcmp(pg + LINUX_SETUP_LOG_OFFSET + 16,
			 before + LINUX_SETUP_LOG_OFFSET + 16,
			 4096 - LINUX_SETUP_LOG_OFFSET - 16),
		  0);
	EXPECT_EQ(LINUX_SETUP_LOG_MAX, 4096u - 0x110);
}

/* A CPUID page with leaf 0 (max 0xD) and leaf 7, LA57 as @la57. */
static void la57_table(struct snp_cpuid_table *t, bool la57)
{
	memset(t, 0, sizeof(*t));
	t->count = 2;
	t->fn[0].eax_in = 0;
	t->fn[0].eax = 0xD;
	t->fn[1].eax_in = 7;
	t->fn[1].ecx = la57 ? 1u << 16 : 0;
}

TEST(linux_layout, five_level_entry_when_linux_will_want_it)
{
	static struct snp_cpuid_table t;
	static const char plain[] = "console=ttyS0 nokaslr";
	static const char off[] = "console=ttyS0 no5lvl nokaslr";
	static const char last[] = "nokaslr no5lvl";
	static const char other[] = "xno5lvl no5lvlx";

	la57_table(&t, true);
	EXPECT_TRUE(
		linux_wants_la57(&t, (const uint8_t *)plain, sizeof(plain)));
	EXPECT_FALSE(linux_wants_la57(&t, (const uint8_t *)off, sizeof(off)));
	EXPECT_FALSE(
		linux_wants_la57(&t, (const uint8_t *)last, sizeof(last) - 1));
	EXPECT_TRUE(
		linux_wants_la57(&t, (const uint8_t *)other, sizeof(other)));
	la57_table(&t, false);
	EXPECT_FALSE(
		linux_wants_la57(&t, (const uint8_t *)plain, sizeof(plain)));
	t.count = 0; /* unusable: Linux stops anyway; no LA57 */
	EXPECT_FALSE(
		linux_wants_la57(&t, (const uint8_t *)plain, sizeof(plain)));
}
