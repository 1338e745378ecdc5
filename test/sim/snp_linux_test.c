/* SPDX-License-Identifier: MIT */
/*
 * The snp firmware as Linux's loader (src/plat/snp/linux/linux_boot.c) on the
 * simulated machine: a layout as csvsm-igvm --linux writes it, scaled to
 * the simulator's 64 MiB (the SVSM at 16 MiB, the kernel at 20 MiB).
 * Truths: boot.rst's 64-bit protocol (entry + 0x200, RSI = boot_params,
 * __BOOT_CS 0x10; with --linux-entry startup_64 the entry inside the
 * loaded kernel proper, its whole span RAM), zero-page.rst offsets, the RMP
 * model's permissions (bit 0 R, 1 W, 2 X-user, 3 X-super), Linux's need that
 * every e820 RAM page be validated before entry.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/le.h"
#include "svsm/terminate.h"

#include "abi/csvsm_boot.h"
#include "abi/linux_boot.h"
#include "abi/snp.h"
#include "abi/svsm_call.h"

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
	 * zero page, setup_data and command line (RAM, as boot loaders
	 * place them), the kernel (launched), beyond init_size, the top of
	 * RAM; the other loader pages reserved, read/write. */
	for (gpa = 0; gpa < 64 * MIB; gpa += PAGE) {
		bool svsm = gpa >= 16 * MIB && gpa < 20 * MIB;
		bool loader =
			gpa >= LOADER + 3 * PAGE && gpa < LOADER + 15 * PAGE;
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
	EXPECT_EQ(le_get64(bp + LINUX_BP_E820_TABLE + 8), LOADER + 3 * PAGE);
	EXPECT_EQ(le_get32(bp + LINUX_BP_E820_TABLE + 16), LINUX_E820_RAM);
	EXPECT_EQ(le_get64(bp + LINUX_BP_E820_TABLE + 20), LOADER + 3 * PAGE);
	EXPECT_EQ(le_get32(bp + LINUX_BP_E820_TABLE + 20 + 16),
		  LINUX_E820_RESERVED);
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

/* Measured boot: SHA-256 with libcrypto (the test's own truth). */
static void sha256(const void *a, size_t alen, const void *b, size_t blen,
		   uint8_t out[32])
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	ASSERT_TRUE(c != NULL);
	ASSERT_EQ(EVP_DigestInit_ex(c, EVP_sha256(), NULL), 1);
	ASSERT_EQ(EVP_DigestUpdate(c, a, alen), 1);
	if (blen != 0) {
		ASSERT_EQ(EVP_DigestUpdate(c, b, blen), 1);
	}
	ASSERT_EQ(EVP_DigestFinal_ex(c, out, NULL), 1);
	EVP_MD_CTX_free(c);
}

static void extend(uint8_t pcr[32], const uint8_t d[32])
{
	sha256(pcr, 32, d, 32, pcr);
}

/* PCRs 8 and 9 of the SHA-256 bank, as the guest reads them. */
static void read_pcrs(struct sim_machine *m, uint8_t p8[32], uint8_t p9[32])
{
	/* TPM2_PCR_Read: one selection, SHA-256, 3 bytes, PCRs 8 and 9. */
	static const uint8_t cmd[] = {0x80, 0x01, 0,	0, 0, 20, 0,
				      0,    0x01, 0x7E, 0, 0, 0,  1,
				      0x00, 0x0B, 3,	0, 3, 0};
	uint8_t rsp[512];
	uint32_t len = 0, result = ~0u;

	ASSERT_EQ(sim_vtpm_command(m, 0, 30 * MIB, cmd, sizeof(cmd), rsp,
				   sizeof(rsp), &len, &result),
		  SIM_OK);
	ASSERT_EQ(result, SVSM_SUCCESS);
	/* header 10, update counter 4, selection 10, count 4, then two
	 * TPM2B_DIGESTs of 32 bytes. */
	ASSERT_EQ(len, 10u + 4 + 10 + 4 + 2 * 34);
	ASSERT_EQ(rsp[6] | rsp[7] | rsp[8] | rsp[9], 0);
	ASSERT_EQ(rsp[27], 2);
	ASSERT_EQ(rsp[29], 32);
	memcpy(p8, rsp + 30, 32);
	ASSERT_EQ(rsp[63], 32);
	memcpy(p9, rsp + 64, 32);
}

struct log_event {
	uint32_t pcr, type;
	const uint8_t *sha256;
	const uint8_t *data;
	uint32_t len;
};

/* Walk the TCG2 log (@log, @len): the Spec ID event, then up to @max
 * events; returns how many, each with its SHA-256 digest. */
static unsigned parse_log(const uint8_t *log, size_t len, struct log_event *ev,
			  unsigned max)
{
	size_t off, spec_len;
	unsigned nalg, i, n = 0;

	ASSERT_TRUE(len >= 32 + 16);
	EXPECT_EQ(le_get32(log), 0u);
	EXPECT_EQ(le_get32(log + 4), 3u); /* EV_NO_ACTION */
	spec_len = le_get32(log + 28);
	EXPECT_EQ(memcmp(log + 32, "Spec ID Event03", 16), 0);
	nalg = le_get32(log + 32 + 24);
	ASSERT_TRUE(nalg >= 1 && nalg <= 4);
	ASSERT_EQ(spec_len, 16u + 12 + 4 * nalg + 1);
	off = 32 + spec_len;
	while (off < len && n < max) {
		unsigned count;

		ASSERT_TRUE(len - off >= 12);
		ev[n].pcr = le_get32(log + off);
		ev[n].type = le_get32(log + off + 4);
		count = le_get32(log + off + 8);
		ASSERT_EQ(count, nalg);
		off += 12;
		ev[n].sha256 = NULL;
		for (i = 0; i < count; i++) {
			uint16_t alg = le_get16(log + off);
			size_t dl = alg == 4	 ? 20
				    : alg == 0xB ? 32
				    : alg == 0xC ? 48
						 : 64;

			if (alg == 0xB) {
				ev[n].sha256 = log + off + 2;
			}
			off += 2 + dl;
		}
		ASSERT_TRUE(ev[n].sha256 != NULL && len - off >= 4);
		ev[n].len = le_get32(log + off);
		ev[n].data = log + off + 4;
		off += 4 + ev[n].len;
		ASSERT_TRUE(off <= len);
		n++;
	}
	EXPECT_EQ(off, len);
	return n;
}

TEST(snp_linux, measures_kernel_initrd_and_command_line_into_pcrs_8_9)
{
	static uint8_t sd[PAGE], buf[PAGE], initrd[INITRD_SIZE];
	struct log_event ev[4];
	struct sim_config cfg;
	struct sim_machine *m;
	uint8_t want8[32] = {0}, want9[32] = {0}, d[32], p8[32], p9[32];
	uint64_t log_node;
	size_t cmd_len;

	linux_config(&cfg);
	cfg.vtpm = true;
	m = tm_create(&cfg);

	/* The truth: the launched bytes, hashed here. */
	sha256(kernel, KERNEL_SIZE, NULL, 0, d);
	extend(want9, d);
	ASSERT_EQ(sim_mem_read(m, INITRD, initrd, INITRD_SIZE), SIM_OK);
	sha256(initrd, INITRD_SIZE, NULL, 0, d);
	extend(want9, d);
	ASSERT_EQ(sim_mem_read(m, LOADER + 2 * PAGE, buf, PAGE), SIM_OK);
	cmd_len = strnlen((const char *)buf, layout.linux_cmdline_size);
	sha256(buf, cmd_len, NULL, 0, d);
	extend(want8, d);

	read_pcrs(m, p8, p9);
	EXPECT_EQ(memcmp(p8, want8, 32), 0);
	EXPECT_EQ(memcmp(p9, want9, 32), 0);

	/* setup_data: the CC blob node first and whole, then the log. */
	ASSERT_EQ(sim_mem_read(m, LOADER + PAGE, sd, PAGE), SIM_OK);
	EXPECT_EQ(le_get32(sd + 8), LINUX_SETUP_CC_BLOB);
	/* The node's data: the u32, then the blob, all Linux reserves. */
	EXPECT_EQ(le_get32(sd + 12),
		  le_get32(sd + 16) - LOADER - PAGE + 0x28 - 16);
	EXPECT_EQ(le_get32(sd + le_get32(sd + 16) - LOADER - PAGE),
		  LINUX_CC_BLOB_MAGIC);
	log_node = le_get64(sd);
	ASSERT_EQ(log_node, LOADER + PAGE + LINUX_SETUP_LOG_OFFSET);
	EXPECT_EQ(le_get64(sd + LINUX_SETUP_LOG_OFFSET), 0u);
	EXPECT_EQ(le_get32(sd + LINUX_SETUP_LOG_OFFSET + 8),
		  LINUX_SETUP_CSVSM_TCG_LOG);
	{
		uint32_t len = le_get32(sd + LINUX_SETUP_LOG_OFFSET + 12);
		uint8_t replay8[32] = {0}, replay9[32] = {0};
		unsigned n, i;

		ASSERT_TRUE(len <= LINUX_SETUP_LOG_MAX);
		/* For tpm2_eventlog (test/igvm/igvm_check.py replays it). */
		if (getenv("CSVSM_TCG_LOG_OUT") != NULL) {
			FILE *f = fopen(getenv("CSVSM_TCG_LOG_OUT"), "wb");

			ASSERT_TRUE(f != NULL);
			ASSERT_EQ(fwrite(sd + LINUX_SETUP_LOG_OFFSET + 16, 1,
					 len, f),
				  len);
			fclose(f);
		}
		n = parse_log(sd + LINUX_SETUP_LOG_OFFSET + 16, len, ev, 4);
		ASSERT_EQ(n, 3u);
		EXPECT_EQ(ev[0].pcr, 9u);
		EXPECT_EQ(ev[0].type, 0xDu); /* EV_IPL */
		EXPECT_EQ(ev[0].len, 12u);
		EXPECT_EQ(memcmp(ev[0].data, "csvsm:linux", 12), 0);
		EXPECT_EQ(ev[1].pcr, 9u);
		EXPECT_EQ(memcmp(ev[1].data, "csvsm:initrd", 13), 0);
		EXPECT_EQ(ev[2].pcr, 8u);
		EXPECT_EQ(ev[2].len, 17u + cmd_len);
		EXPECT_EQ(memcmp(ev[2].data, "kernel_cmdline: ", 16), 0);
		EXPECT_EQ(ev[2].data[ev[2].len - 1], 0);
		for (i = 0; i < n; i++) {
			extend(ev[i].pcr == 8 ? replay8 : replay9,
			       ev[i].sha256);
		}
		EXPECT_EQ(memcmp(replay8, p8, 32), 0);
		EXPECT_EQ(memcmp(replay9, p9, 32), 0);
	}
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

/* --linux-entry startup_64 (csvsm-igvm): the kernel proper's loaded
 * bytes at KERNEL (KERNEL_SIZE of them, launched), its span @span from
 * there, entered inside the loaded bytes as the EFI stub enters it. */
static void startup_64_config(struct sim_config *cfg, uint64_t span)
{
	linux_config(cfg);
	layout.linux_entry = CSVSM_LINUX_ENTRY_STARTUP_64;
	layout.linux_kernel_span = span;
	layout.guest_entry_rip = KERNEL + 0x1040;
}

TEST(snp_linux, starts_the_kernel_proper_at_startup_64)
{
	static uint8_t sd[PAGE];
	struct log_event ev[4];
	struct sim_config cfg;
	struct sim_machine *m;
	struct snp_vmsa v;
	uint8_t want9[32] = {0}, d[32], p8[32], p9[32];
	uint64_t gpa;
	unsigned n;

	startup_64_config(&cfg, 6 * MIB);
	cfg.vtpm = true;
	m = tm_create(&cfg);
	ASSERT_EQ(sim_vmsa_read(m, 0, &v), SIM_OK);
	EXPECT_EQ(v.rip, KERNEL + 0x1040);
	EXPECT_EQ(v.rsi, LOADER);
	EXPECT_EQ(v.cs.selector, 0x10);
	/* The whole span is the guest's, validated: the loaded bytes
	 * (launched) and the memory after them (validated RAM). */
	for (gpa = KERNEL; gpa < KERNEL + 6 * MIB; gpa += PAGE) {
		if (vmpl1(m, gpa) != 0xF || !validated(m, gpa)) {
			EXPECT_EQ(gpa, ~0ull); /* names the first bad page */
			break;
		}
	}
	/* PCR 9: the loaded kernel's bytes, logged as csvsm:vmlinux. */
	sha256(kernel, KERNEL_SIZE, NULL, 0, d);
	extend(want9, d);
	{
		static uint8_t initrd[INITRD_SIZE];

		ASSERT_EQ(sim_mem_read(m, INITRD, initrd, INITRD_SIZE), SIM_OK);
		sha256(initrd, INITRD_SIZE, NULL, 0, d);
		extend(want9, d);
	}
	read_pcrs(m, p8, p9);
	EXPECT_EQ(memcmp(p9, want9, 32), 0);
	ASSERT_EQ(sim_mem_read(m, LOADER + PAGE, sd, PAGE), SIM_OK);
	n = parse_log(sd + LINUX_SETUP_LOG_OFFSET + 16,
		      le_get32(sd + LINUX_SETUP_LOG_OFFSET + 12), ev, 4);
	ASSERT_EQ(n, 3u);
	EXPECT_EQ(ev[0].pcr, 9u);
	EXPECT_EQ(ev[0].len, 14u);
	EXPECT_EQ(memcmp(ev[0].data, "csvsm:vmlinux", 14), 0);
	EXPECT_EQ(memcmp(ev[1].data, "csvsm:initrd", 13), 0);
}

/* init_size 1 MiB and no initrd in 24 MiB of RAM, the span @span. */
static void small_machine(struct sim_config *cfg, uint64_t span)
{
	startup_64_config(cfg, span);
	le_put32(hdr + LINUX_HDR_INIT_SIZE, MIB);
	cfg->guest_mem_size = 24 * MIB;
	cfg->guest_fw_launch[1].size = 0;
	layout.linux_initrd_size = 0;
}

TEST(snp_linux, the_kernel_proper_fits_in_its_span)
{
	struct sim_config cfg;

	small_machine(&cfg, 2 * MIB);
	EXPECT_TRUE(tm_create(&cfg) != NULL);
}

TEST(snp_linux, the_kernel_proper_must_fit_and_be_entered_inside)
{
	struct sim_config cfg;

	/* init_size fits the RAM, the span (8 MiB) does not. */
	small_machine(&cfg, 8 * MIB);
	expect_refused(&cfg, TERM_CSVSM_LINUX_MEMORY_MAP);
	/* Entered past the loaded bytes (in the span's memory, whose
	 * contents nobody measured); a span short of the loaded bytes; an
	 * entry the firmware does not know. */
	startup_64_config(&cfg, 6 * MIB);
	layout.guest_entry_rip = KERNEL + ((KERNEL_SIZE + PAGE) & ~(PAGE - 1));
	expect_refused(&cfg, TERM_CSVSM_BAD_BOOT_INFO);
	startup_64_config(&cfg, 6 * MIB);
	layout.linux_kernel_span = 64 * PAGE;
	expect_refused(&cfg, TERM_CSVSM_BAD_BOOT_INFO);
	startup_64_config(&cfg, 6 * MIB);
	layout.linux_entry = 2;
	expect_refused(&cfg, TERM_CSVSM_BAD_BOOT_INFO);
}
