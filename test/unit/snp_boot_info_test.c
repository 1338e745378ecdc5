/* SPDX-License-Identifier: MIT */
/*
 * The snp platform's boot information (src/plat/snp/boot_info.c): the
 * loader's memory map is hostile, csvsm's boot parameters are measured but
 * still checked. Truths: the IGVM memory map entry layout, and the layout
 * csvsm-igvm writes (tools/igvm, checked by test/igvm/igvm_check.py).
 */
#include <string.h>

#include "../../src/plat/snp/snp_boot.h"
#include "../framework/test.h"

#define MIB (1ull << 20)

static struct igvm_memory_map_entry map[8];

static void entry(unsigned i, uint64_t base, uint64_t size, uint16_t type)
{
	map[i] = (struct igvm_memory_map_entry){.starting_gpa_page_number =
							base / 4096,
						.number_of_pages = size / 4096,
						.entry_type = type};
}

static const char *parse(unsigned entries, struct mem_range *ram, unsigned *n)
{
	return snp_memory_map((const uint8_t *)map, entries * sizeof(map[0]),
			      ram, 4, n);
}

/* What csvsm-igvm writes for the emu ELF and Debian's OVMF, plus a CA. */
static void igvm_params(struct csvsm_boot_params *p)
{
	memset(p, 0, sizeof(*p));
	p->magic = CSVSM_BOOT_MAGIC;
	p->version = CSVSM_BOOT_VERSION;
	p->svsm_base = 0x200000;
	p->svsm_size = 6 * MIB; /* up to OVMF's SEC memory at 8 MiB */
	p->psp_secrets_gpa = 0x684000;
	p->svsm_cpuid_gpa = 0x685000;
	p->memory_map_gpa = 0x686000;
	p->vp_count_gpa = 0x687000;
	p->svsm_shared_gpa = 0x689000;
	p->svsm_heap_gpa = 0x691000;
	p->guest_secrets_gpa = 0x80d000;
	p->guest_cpuid_gpa = 0x80e000;
	p->guest_caa_gpa = 0x80f000;
	p->guest_firmware_base = 0xffe00000;
	p->guest_firmware_size = 2 * MIB;
	p->guest_entry_rip = 0xFFF0;
	p->guest_vmpl = 1;
	p->guest_sev_features = 1; /* SNPActive */
}

TEST(snp_boot_info, memory_map_ram_ranges)
{
	struct mem_range ram[4];
	unsigned n = 9;

	memset(map, 0, sizeof(map));
	entry(0, 0, 0x80000000ull, 0);
	entry(1, 0x80000000ull, 0x1000000, 1); /* reserved: skipped */
	entry(2, 0x100000000ull, 0x40000000, 0);
	EXPECT_TRUE(parse(4, ram, &n) == NULL);
	ASSERT_EQ(n, 2);
	EXPECT_EQ(gpa_val(ram[1].base), 0x100000000ull);
	EXPECT_EQ(ram[1].size, 0x40000000);
}

TEST(snp_boot_info, hostile_memory_maps_are_refused)
{
	struct mem_range ram[4];
	unsigned n;

	memset(map, 0, sizeof(map));
	EXPECT_TRUE(parse(1, ram, &n) != NULL); /* empty */
	entry(0, 0, 0x100000, 0);
	EXPECT_TRUE(parse(1, ram, &n) != NULL); /* no closing entry */
	entry(1, 0x80000, 0x100000, 0);
	EXPECT_TRUE(parse(3, ram, &n) != NULL); /* overlapping */
	entry(0, 0x200000, 0x100000, 0);
	entry(1, 0x100000, 0x1000, 0);
	EXPECT_TRUE(parse(3, ram, &n) != NULL); /* unsorted */
	memset(map, 0, sizeof(map));
	map[0].starting_gpa_page_number = (1ull << 40) - 1;
	map[0].number_of_pages = 2;
	EXPECT_TRUE(parse(2, ram, &n) != NULL); /* past 52 bits */
	map[0].starting_gpa_page_number = 0;
	map[0].number_of_pages = ~0ull;
	EXPECT_TRUE(parse(2, ram, &n) != NULL); /* wraps */
	memset(map, 0, sizeof(map));
	for (n = 0; n < 5; n++) {
		entry(n, n * 0x200000ull, 0x100000, 0);
	}
	EXPECT_TRUE(parse(6, ram, &n) != NULL); /* more than 4 ranges */
}

TEST(snp_boot_info, parameters_become_boot_info)
{
	struct csvsm_boot_params p;
	struct mem_range ram[2] = {{gpa_init(0), 0x80000000ull}};
	struct svsm_boot_info info;
	unsigned n = 1;

	igvm_params(&p);
	/* OVMF at 4 GiB - 2 MiB is outside the loader's RAM: refused until
	 * the launched volume is added as RAM. */
	EXPECT_TRUE(snp_boot_info(&p, ram, 1, &info) != NULL);
	ASSERT_TRUE(snp_launch_ram(&p, ram, 2, &n) == NULL);
	ASSERT_EQ(n, 2);
	EXPECT_EQ(gpa_val(ram[1].base), 0xffe00000);
	EXPECT_EQ(ram[1].size, 2 * MIB);
	ASSERT_TRUE(snp_boot_info(&p, ram, 2, &info) == NULL);
	EXPECT_EQ(gpa_val(info.svsm.base), 0x200000);
	EXPECT_EQ(info.svsm.size, 6 * MIB);
	EXPECT_EQ(gpa_val(info.heap.base), 0x691000);
	EXPECT_EQ(gpa_val(info.heap.base) + info.heap.size, 0x800000);
	EXPECT_EQ(gpa_val(info.psp_secrets), 0x684000);
	EXPECT_EQ(gpa_val(info.guest_secrets), 0x80d000);
	EXPECT_EQ(gpa_val(info.guest_caa), 0x80f000);
	EXPECT_EQ(info.guest_vmpl, 1);
	EXPECT_EQ(info.guest_entry.mode, SVSM_GUEST_ENTRY_RESET);
	EXPECT_EQ(info.guest_entry.rip, 0xFFF0);
}

TEST(snp_boot_info, the_launched_firmware_becomes_ram)
{
	struct csvsm_boot_params p;
	struct mem_range ram[3];
	unsigned n;

	igvm_params(&p);
	/* Already inside a range: unchanged. */
	ram[0] = (struct mem_range){gpa_init(0), 0x100000000ull};
	n = 1;
	EXPECT_TRUE(snp_launch_ram(&p, ram, 3, &n) == NULL);
	EXPECT_EQ(n, 1);
	/* Between two ranges: inserted in order. */
	ram[0] = (struct mem_range){gpa_init(0), 0x80000000ull};
	ram[1] = (struct mem_range){gpa_init(0x100000000ull), 0x40000000};
	n = 2;
	EXPECT_TRUE(snp_launch_ram(&p, ram, 3, &n) == NULL);
	ASSERT_EQ(n, 3);
	EXPECT_EQ(gpa_val(ram[1].base), 0xffe00000);
	EXPECT_EQ(gpa_val(ram[2].base), 0x100000000ull);
	/* Straddling a range, past 4 GiB, misaligned, no room: refused. */
	ram[0] = (struct mem_range){gpa_init(0), 0xfff00000ull};
	n = 1;
	EXPECT_TRUE(snp_launch_ram(&p, ram, 3, &n) != NULL);
	ram[0] = (struct mem_range){gpa_init(0), 0x80000000ull};
	p.guest_firmware_base = 0xfff00000;
	EXPECT_TRUE(snp_launch_ram(&p, ram, 3, &n) != NULL);
	p.guest_firmware_base = 0xffe00800;
	EXPECT_TRUE(snp_launch_ram(&p, ram, 3, &n) != NULL);
	igvm_params(&p);
	EXPECT_TRUE(snp_launch_ram(&p, ram, 1, &n) != NULL);
	/* No firmware: nothing to add. */
	p.guest_firmware_size = 0;
	EXPECT_TRUE(snp_launch_ram(&p, ram, 1, &n) == NULL);
	EXPECT_EQ(n, 1);
}

TEST(snp_boot_info, inconsistent_parameters_are_refused)
{
	struct csvsm_boot_params p;
	/* RAM, then the launched firmware (snp_launch_ram's result). */
	struct mem_range ram[2] = {{gpa_init(0), 0x80000000ull},
				   {gpa_init(0xffe00000), 2 * MIB}};
	struct mem_range small[2] = {{gpa_init(0), 0x800000ull},
				     {gpa_init(0xffe00000), 2 * MIB}};
	struct svsm_boot_info info;

	igvm_params(&p);
	/* Each refusal below differs from this accepted baseline in one
	 * field. */
	ASSERT_TRUE(snp_boot_info(&p, ram, 2, &info) == NULL);
	EXPECT_TRUE(snp_boot_info(&p, ram, 1, &info) != NULL); /* no FV */
	EXPECT_TRUE(snp_boot_info(&p, small, 2, &info) != NULL);
	igvm_params(&p);
	p.magic = 0;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.svsm_base = 0x201000;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.psp_secrets_gpa = 0x2000000; /* outside the region */
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.guest_secrets_gpa = 0x300000; /* inside the region */
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.guest_caa_gpa = 0; /* Debian 12's OVMF names no CA */
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.guest_firmware_base = 0x400000; /* inside the SVSM region */
	p.guest_firmware_size = 0x100000;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.guest_caa_gpa = p.guest_secrets_gpa;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.svsm_shared_gpa = 0x68c000; /* runs into the heap */
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.svsm_shared_gpa = p.psp_secrets_gpa; /* VMPCK0 would be shared */
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.memory_map_gpa = 0x700000; /* inside the heap */
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.guest_vmpl = 0;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
}

TEST(snp_boot_info, boot_pages_are_aligned_and_distinct)
{
	struct csvsm_boot_params p;
	struct mem_range ram[2] = {{gpa_init(0), 0x80000000ull},
				   {gpa_init(0xffe00000), 2 * MIB}};
	struct svsm_boot_info info;

	/* page_in() answers "not inside" for an unaligned address, so an
	 * unaligned guest page inside the region passed as outside it. */
	igvm_params(&p);
	p.guest_secrets_gpa = 0x300020;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.guest_secrets_gpa = 0x80d010; /* outside, still not a page */
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.guest_caa_gpa = 0x300ff8;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.guest_cpuid_gpa = 0x80e001;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.guest_cpuid_gpa = 0x300000; /* inside the region */
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	/* No two of the SVSM's boot pages on one page. */
	igvm_params(&p);
	p.vp_count_gpa = p.psp_secrets_gpa;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.memory_map_gpa = p.svsm_cpuid_gpa;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	p.svsm_cpuid_gpa = p.psp_secrets_gpa;
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	igvm_params(&p);
	ASSERT_TRUE(snp_boot_info(&p, ram, 2, &info) == NULL);
}

/*
 * fuzz-snp_boot_info's first crash (test/fuzz/regress/fuzz-snp_boot_info/
 * crash-1-unaligned-guest-secrets.bin): a memory map, then boot
 * parameters with the guest's secrets page at 0x18_0000_0020, inside the
 * SVSM region and not page aligned, and the PSP secrets and VP-count
 * pages both at 0x9_0000_0000. Fed as the fuzzer feeds it.
 */
static const uint8_t crash_1[200] = {
	0x32, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xd0, 0xf0, 0xff,
	0x0f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00,
	0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a, 0x00, 0xc8,
	0x43, 0x53, 0x56, 0x4d, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xfb,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x3a, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xb4, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
	0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a, 0x00, 0x00,
	0x43, 0x53, 0x56, 0x4d, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x09, 0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x10, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

TEST(snp_boot_info, fuzz_crash_1_is_refused)
{
	struct mem_range ram[MEMMAP_MAX_RAM];
	struct csvsm_boot_params p;
	struct svsm_boot_info info;
	/* The parameters of version 2 (0x98 bytes), which the crash had;
	 * the fields after them zero, as the layout adds them. */
	size_t map_len = sizeof(crash_1) - 0x98;
	unsigned n = 0;

	ASSERT_TRUE(snp_memory_map(crash_1, map_len, ram, MEMMAP_MAX_RAM, &n) ==
		    NULL);
	memset(&p, 0, sizeof(p));
	memcpy(&p, crash_1 + map_len, 0x98);
	p.version = CSVSM_BOOT_VERSION;
	ASSERT_TRUE(snp_launch_ram(&p, ram, MEMMAP_MAX_RAM, &n) == NULL);
	EXPECT_TRUE(snp_boot_info(&p, ram, n, &info) != NULL);
	/* Either fault alone is refused too. */
	p.vp_count_gpa += 0x1000;
	EXPECT_TRUE(snp_boot_info(&p, ram, n, &info) != NULL);
	p.vp_count_gpa -= 0x1000;
	p.guest_secrets_gpa -= 0x20;
	p.guest_caa_gpa &= ~0xfffull;
	EXPECT_TRUE(snp_boot_info(&p, ram, n, &info) != NULL);
}

/* The region where csvsm-igvm puts it now, at 512 GiB apart from all RAM
 * (memory the image requires of its loader), is accepted; one partly in
 * RAM, the SVSM's and the guest's at once, is refused. */
static void move_region(struct csvsm_boot_params *p, uint64_t to)
{
	uint64_t d = to - p->svsm_base;

	p->svsm_base += d;
	p->psp_secrets_gpa += d;
	p->svsm_cpuid_gpa += d;
	p->memory_map_gpa += d;
	p->vp_count_gpa += d;
	p->svsm_shared_gpa += d;
	p->svsm_heap_gpa += d;
}

TEST(snp_boot_info, a_region_apart_from_ram_is_accepted)
{
	struct csvsm_boot_params p;
	struct mem_range ram[2] = {{gpa_init(0), 0x80000000ull},
				   {gpa_init(0xffe00000), 2 * MIB}};
	struct svsm_boot_info info;

	igvm_params(&p);
	move_region(&p, 512ull << 30);
	ASSERT_TRUE(snp_boot_info(&p, ram, 2, &info) == NULL);
	EXPECT_EQ(gpa_val(info.svsm.base), 512ull << 30);
	/* Straddling RAM's end: the first 2 MiB RAM, the rest not. */
	igvm_params(&p);
	move_region(&p, 0x80000000ull - 2 * MIB);
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
	/* Beyond 52 bits. */
	igvm_params(&p);
	move_region(&p, (1ull << 52) - 2 * MIB);
	EXPECT_TRUE(snp_boot_info(&p, ram, 2, &info) != NULL);
}
