/* SPDX-License-Identifier: MIT */
/*
 * The snp firmware as Linux's loader (src/plat/snp/linux_boot.c) on the
 * simulated machine: a layout as csvsm-igvm --linux writes it, scaled to
 * the simulator's 64 MiB (the SVSM at 16 MiB, the kernel at 20 MiB).
 * Truths: boot.rst's 64-bit protocol (entry + 0x200, RSI = boot_params,
 * __BOOT_CS 0x10), zero-page.rst offsets, the RMP model's permissions
 * (bit 0 R, 1 W, 2 X-user, 3 X-super), Linux's need that every e820 RAM
 * page be validated before entry.
 */
#include <string.h>

#include "svsm/le.h"
#include "svsm/terminate.h"

#include "abi/csvsm_boot.h"
#include "abi/linux_boot.h"
#include "abi/snp.h"

#include "../framework/test.h"
#include "guest.h"

#define MIB (1ull << 20)
#define PAGE 4096ull
#define KERNEL (20 * MIB)
#define KERNEL_SIZE (64 * PAGE + 0x123)
#define INIT_SIZE (8 * MIB)
#define INITRD (28 * MIB)
#define INITRD_SIZE (3 * PAGE)
#define LOADER 0x70000ull

static struct csvsm_boot_params layout;
static uint8_t hdr[PAGE];
static uint8_t kernel[(KERNEL_SIZE + PAGE - 1) & ~(PAGE - 1)];

static void make_hdr(void)
{
	memset(hdr, 0, sizeof(hdr));
	hdr[LINUX_HDR_SETUP_SECTS] = 4;
	le_put32(hdr + LINUX_HDR_SYSSIZE, KERNEL_SIZE / 16);
	le_put16(hdr + LINUX_HDR_BOOT_FLAG, LINUX_BOOT_FLAG);
	hdr[LINUX_HDR_JUMP] = 0xEB;
	hdr[LINUX_HDR_JUMP + 1] = 0x6A;
	le_put32(hdr + LINUX_HDR_HEADER, LINUX_HDRS_MAGIC);
	le_put16(hdr + LINUX_HDR_VERSION, 0x20F);
	hdr[LINUX_HDR_LOADFLAGS] = LINUX_LOADFLAGS_LOADED_HIGH;
	le_put32(hdr + LINUX_HDR_INITRD_ADDR_MAX, 0x7FFFFFFF);
	le_put32(hdr + LINUX_HDR_KERNEL_ALIGNMENT, 0x200000);
	hdr[LINUX_HDR_RELOCATABLE] = 1;
	le_put16(hdr + LINUX_HDR_XLOADFLAGS, 0x3);
	le_put32(hdr + LINUX_HDR_CMDLINE_SIZE, 2047);
	le_put64(hdr + LINUX_HDR_PREF_ADDRESS, 16 * MIB);
	le_put32(hdr + LINUX_HDR_INIT_SIZE, INIT_SIZE);
}

static void linux_config(struct sim_config *cfg)
{
	struct csvsm_boot_params *p = &layout;

	tm_need_snp(); /* the loader boots the snp way only */

	make_hdr();
	memset(kernel, 0xC3, sizeof(kernel));
	memset(p, 0, sizeof(*p));
	p->guest_entry_rip = KERNEL + LINUX_ENTRY64_OFFSET;
	p->linux_pml5_gpa = LOADER + 8 * PAGE;
	p->guest_cr3 = (LOADER + 9 * PAGE) | (1ull << 51);
	p->linux_zero_page_gpa = LOADER;
	p->linux_setup_data_gpa = LOADER + PAGE;
	p->linux_cmdline_gpa = LOADER + 2 * PAGE;
	p->linux_cmdline_size = 1;
	p->linux_gdt_gpa = LOADER + 3 * PAGE;
	p->linux_setup_hdr_gpa = LOADER + 4 * PAGE;
	p->guest_secrets_gpa = LOADER + 5 * PAGE;
	p->guest_cpuid_gpa = LOADER + 6 * PAGE;
	p->guest_caa_gpa = LOADER + 7 * PAGE;
	p->linux_loader_gpa = LOADER;
	p->linux_loader_size = 15 * PAGE;
	p->linux_kernel_gpa = KERNEL;
	p->linux_kernel_size = KERNEL_SIZE;
	p->linux_initrd_gpa = INITRD;
	p->linux_initrd_size = INITRD_SIZE;
	p->linux_acpi_gpa = 0x80000;
	p->linux_acpi_size = 0x20000;

	sim_config_default(cfg);
	cfg->snp_ghcb = true;
	cfg->rmp_2m = true;
	cfg->guest_entry_mode = CSVSM_GUEST_ENTRY_LINUX;
	cfg->guest_secrets_gpa = p->guest_secrets_gpa;
	cfg->guest_caa_gpa = p->guest_caa_gpa;
	cfg->guest_fw = kernel;
	cfg->guest_fw_gpa = KERNEL;
	cfg->guest_fw_size = (KERNEL_SIZE + PAGE - 1) & ~(PAGE - 1);
	cfg->guest_fw_launch[0].gpa = LOADER;
	cfg->guest_fw_launch[0].size = 15 * PAGE;
	cfg->guest_fw_launch[1].gpa = INITRD;
	cfg->guest_fw_launch[1].size = INITRD_SIZE;
	cfg->linux_layout = p;
	cfg->linux_setup_hdr = hdr;
}

static uint8_t vmpl1(struct sim_machine *m, uint64_t gpa)
{
	struct sim_rmp_info i;

	ASSERT_TRUE(sim_rmp_query(m, gpa, &i));
	return i.perms[1];
}

static bool validated(struct sim_machine *m, uint64_t gpa)
{
	struct sim_rmp_info i;

	ASSERT_TRUE(sim_rmp_query(m, gpa, &i));
	return i.validated;
}

/* With @rmp_2m the hypervisor backs RAM with 2 MiB RMP entries (the SVSM
 * validates 2 MiB at a time where nothing was launched), else 4 KiB
 * entries (every 2 MiB PVALIDATE fails with SIZEMISMATCH first). */
static void load(bool rmp_2m)
{
	static uint8_t bp[PAGE], sd[PAGE];
	struct sim_config cfg;
	struct sim_machine *m;
	struct snp_vmsa v;
	uint64_t gpa;
	unsigned n;

	linux_config(&cfg);
	cfg.rmp_2m = rmp_2m;
	m = tm_create(&cfg);
	ASSERT_EQ(sim_vmsa_read(m, 0, &v), SIM_OK);
	EXPECT_EQ(v.rip, KERNEL + 0x200);
	EXPECT_EQ(v.rsi, LOADER);
	EXPECT_EQ(v.cs.selector, 0x10);
	EXPECT_EQ(v.ds.selector, 0x18);
	EXPECT_EQ(v.ss.selector, 0x18);
	EXPECT_EQ(v.cs.attrib & 0x200, 0x200); /* L: 64-bit code */
	EXPECT_EQ(v.gdtr.base, LOADER + 3 * PAGE);
	EXPECT_EQ(v.gdtr.limit, 0x1F);
	EXPECT_EQ(v.cr3, layout.guest_cr3); /* no LA57 in its CPUID page */
	EXPECT_EQ(v.cr4 & 0x1000, 0);
	EXPECT_EQ(v.efer & 0x1500, 0x1500); /* SVME, LME, LMA */
	EXPECT_EQ(v.rflags & 0x200, 0);	    /* interrupts off */
	EXPECT_EQ(v.vmpl, 1);
	EXPECT_EQ(v.sev_features, SEV_FEAT_SNP_ACTIVE);

	/* Every e820 RAM page validated and the guest's: low memory, the
	 * kernel (launched), beyond init_size, the top of RAM. */
	for (gpa = 0; gpa < 64 * MIB; gpa += PAGE) {
		bool svsm = gpa >= 16 * MIB && gpa < 20 * MIB;
		bool loader = gpa >= LOADER && gpa < LOADER + 15 * PAGE;
		bool acpi = gpa >= 0x80000 && gpa < 0xA0000;

		if (svsm) {
			EXPECT_EQ(vmpl1(m, gpa), 0);
		} else if (loader || acpi) {
			EXPECT_EQ(vmpl1(m, gpa) & 3, 3);
			EXPECT_EQ(vmpl1(m, gpa) & 0xC, 0);
		} else if (vmpl1(m, gpa) != 0xF || !validated(m, gpa)) {
			EXPECT_EQ(gpa, ~0ull); /* names the first bad page */
			break;
		}
	}

	ASSERT_EQ(sim_mem_read(m, LOADER, bp, PAGE), SIM_OK);
	EXPECT_EQ(le_get16(bp + LINUX_HDR_BOOT_FLAG), LINUX_BOOT_FLAG);
	EXPECT_EQ(bp[LINUX_HDR_TYPE_OF_LOADER], 0xFF);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_CMD_LINE_PTR), LOADER + 2 * PAGE);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_RAMDISK_IMAGE), INITRD);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_RAMDISK_SIZE), INITRD_SIZE);
	EXPECT_EQ(le_get64(bp + LINUX_HDR_SETUP_DATA), LOADER + PAGE);
	EXPECT_EQ(le_get32(bp + LINUX_HDR_INIT_SIZE), INIT_SIZE);
	n = bp[LINUX_BP_E820_ENTRIES];
	/* RAM, loader, RAM, ACPI, RAM, SVSM, RAM */
	ASSERT_EQ(n, 7u);
	EXPECT_EQ(le_get64(bp + LINUX_BP_E820_TABLE + 5 * 20), 16 * MIB);
	EXPECT_EQ(le_get32(bp + LINUX_BP_E820_TABLE + 5 * 20 + 16),
		  LINUX_E820_RESERVED);
	EXPECT_EQ(le_get64(bp + LINUX_BP_E820_TABLE + 6 * 20 + 8), 44 * MIB);

	/* The ACPI region (no tables: the stub loader) and the BIOS data
	 * area read as zeros, not the machine's stale bytes. */
	{
		static const uint8_t zero[PAGE];

		ASSERT_EQ(sim_mem_read(m, 0x9F000, sd, PAGE), SIM_OK);
		EXPECT_EQ(memcmp(sd, zero, PAGE), 0);
		ASSERT_EQ(sim_mem_read(m, 0, sd, PAGE), SIM_OK);
		EXPECT_EQ(memcmp(sd, zero, PAGE), 0);
	}
	ASSERT_EQ(sim_mem_read(m, LOADER + PAGE, sd, PAGE), SIM_OK);
	EXPECT_EQ(le_get32(sd + 8), LINUX_SETUP_CC_BLOB);
	EXPECT_EQ(le_get32(sd + le_get32(sd + 16) - LOADER - PAGE),
		  LINUX_CC_BLOB_MAGIC);

	/* The guest's secrets page names the SVSM and its CA for Linux's
	 * svsm_setup_ca. */
	{
		struct snp_secrets_page s;

		ASSERT_EQ(sim_mem_read(m, LOADER + 5 * PAGE, &s, sizeof(s)),
			  SIM_OK);
		EXPECT_EQ(s.svsm_size, 4 * MIB);
		EXPECT_EQ(s.svsm_caa, LOADER + 7 * PAGE);
		EXPECT_EQ(s.svsm_guest_vmpl, 1);
	}
}

TEST(snp_linux, loads_linux_on_2m_rmp_entries)
{
	load(true);
}

TEST(snp_linux, loads_linux_on_4k_rmp_entries)
{
	load(false);
}

static void expect_refused(const struct sim_config *cfg, uint32_t code)
{
	uint32_t set = 0, got = 0;

	EXPECT_TRUE(sim_create(cfg) == NULL);
	EXPECT_TRUE(sim_last_boot_failure(&set, &got));
	EXPECT_EQ(set, TERM_SET_CSVSM);
	EXPECT_EQ(got, code);
}

TEST(snp_linux, a_map_without_room_for_the_kernel_terminates)
{
	struct sim_config cfg;

	/* The host claims 24 MiB: init_size runs past its RAM. */
	linux_config(&cfg);
	cfg.guest_mem_size = 24 * MIB;
	cfg.guest_fw_launch[1].size = 0;
	layout.linux_initrd_size = 0;
	expect_refused(&cfg, TERM_CSVSM_LINUX_MEMORY_MAP);
}

TEST(snp_linux, a_kernel_that_cannot_run_is_refused)
{
	struct sim_config cfg;

	linux_config(&cfg);
	le_put16(hdr + LINUX_HDR_XLOADFLAGS, 0x2); /* no 64-bit entry */
	expect_refused(&cfg, TERM_CSVSM_BAD_BOOT_INFO);
	linux_config(&cfg);
	layout.linux_cmdline_size = 3000; /* over cmdline_size */
	expect_refused(&cfg, TERM_CSVSM_BAD_BOOT_INFO);
	linux_config(&cfg);
	layout.linux_kernel_gpa = 16 * MIB; /* the SVSM's */
	layout.guest_entry_rip = 16 * MIB + 0x200;
	expect_refused(&cfg, TERM_CSVSM_BAD_BOOT_INFO);
}
