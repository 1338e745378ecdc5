/* SPDX-License-Identifier: MIT */
/*
 * The guest firmware's launched pages on snp (src/plat/snp/guest_launch.c):
 * the PSP leaves launched pages with rights for VMPL0 only, so before the
 * guest's first instruction the SVSM must grant the guest VMPL its
 * firmware volume and the sections its SEV metadata wants pre-validated,
 * and refuse metadata that points where it must not. Truths: OVMF's GUID
 * table and "ASEV" metadata layout (EDK2 OvmfPkg ResetVector, the layout
 * test/igvm/igvm_check.py reads from Debian's OVMF), the RMP model's view
 * of permissions (bit 0 R, 1 W, 2 X-user, 3 X-super).
 */
#include <string.h>

#include "svsm/terminate.h"

#include "abi/csvsm_boot.h"
#include "abi/snp.h"

#include "../framework/test.h"
#include "guest.h"

#define MIB (1ull << 20)
#define FV_GPA (48 * MIB)
#define FV_SIZE 0x10000u
#define SEC_GPA (9 * MIB)
#define SEC_SIZE 0x4000u
#define CPUID_GPA (SEC_GPA + SEC_SIZE)

static uint8_t fv[FV_SIZE];

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* A firmware volume whose GUID table names SEV metadata 0x1000 bytes from
 * its end, with @n sections (base, size, type). */
static void make_fv(const uint32_t (*sec)[3], unsigned n)
{
	static const uint8_t footer[16] = {0xde, 0x82, 0xb5, 0x96, 0xb2, 0x1f,
					   0xf7, 0x45, 0xba, 0xea, 0xa3, 0x66,
					   0xc5, 0x5a, 0x08, 0x2d};
	static const uint8_t meta_guid[16] = {
		0x66, 0x65, 0x88, 0xdc, 0x4a, 0x98, 0x98, 0x47,
		0xa7, 0x5e, 0x55, 0x85, 0xa7, 0xbf, 0x67, 0xcc};
	size_t foot = FV_SIZE - 0x30, at = foot - 2;
	uint8_t *m = fv + FV_SIZE - 0x1000;
	unsigned i;

	memset(fv, 0xC3, sizeof(fv)); /* "code" */
	memcpy(fv + foot, footer, 16);
	fv[foot - 2] = 16 + 2 + 22; /* the table: footer, length, one entry */
	fv[foot - 1] = 0;
	memcpy(fv + at - 16, meta_guid, 16);
	fv[at - 18] = 22; /* entry length: data, length, GUID */
	fv[at - 17] = 0;
	put32(fv + at - 22, 0x1000); /* the metadata, from the end */
	memcpy(m, "ASEV", 4);
	put32(m + 4, 16 + 12 * n);
	put32(m + 8, 1);
	put32(m + 12, n);
	for (i = 0; i < n; i++) {
		put32(m + 16 + 12 * i, sec[i][0]);
		put32(m + 20 + 12 * i, sec[i][1]);
		put32(m + 24 + 12 * i, sec[i][2]);
	}
}

static void fw_config(struct sim_config *cfg, bool launch_sections)
{
	sim_config_default(cfg);
	tm_need_snp();
	cfg->snp_ghcb = true;
	cfg->log_level = 5; /* the grant's notice reaches the console */
	cfg->guest_fw = fv;
	cfg->guest_fw_gpa = FV_GPA;
	cfg->guest_fw_size = FV_SIZE;
	if (launch_sections) {
		cfg->guest_fw_launch[0].gpa = SEC_GPA;
		cfg->guest_fw_launch[0].size = SEC_SIZE + 0x1000;
	}
}

static const uint32_t honest[4][3] = {
	{SEC_GPA, SEC_SIZE, 1}, /* SEC memory */
	{8 * MIB, 0x1000, 2},	/* secrets: the sim's guest_secrets_gpa */
	{CPUID_GPA, 0x1000, 3}, /* CPUID */
	{8 * MIB + 0x1000, 0x1000, 4}, /* CA */
};

static uint8_t vmpl1(struct sim_machine *m, uint64_t gpa)
{
	struct sim_rmp_info i;

	ASSERT_TRUE(sim_rmp_query(m, gpa, &i));
	return i.perms[1];
}

TEST(snp_launch, firmware_and_sections_granted_to_the_guest)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint64_t gpa;

	make_fv(honest, 4);
	fw_config(&cfg, true);
	m = tm_create(&cfg);
	for (gpa = FV_GPA; gpa < FV_GPA + FV_SIZE; gpa += 0x1000) {
		EXPECT_EQ(vmpl1(m, gpa), 0xF); /* the volume: RWX */
	}
	for (gpa = SEC_GPA; gpa < SEC_GPA + SEC_SIZE; gpa += 0x1000) {
		EXPECT_EQ(vmpl1(m, gpa), 0xF); /* SEC memory: RWX */
	}
	EXPECT_EQ(vmpl1(m, CPUID_GPA), 0x3);	  /* data: RW, never X */
	EXPECT_EQ(vmpl1(m, 8 * MIB), 0x3);	  /* secrets: svsm_init's */
	EXPECT_EQ(vmpl1(m, FV_GPA + FV_SIZE), 0); /* past the volume */
	EXPECT_EQ(vmpl1(m, FV_GPA - 0x1000), 0);
	EXPECT_TRUE(strstr(sim_console(m), "4 SEV metadata sections") != NULL);
	check_invariants(m);
}

/* One boot that must be refused, and the reason it must give. */
static void expect_refused(bool launch_sections, uint32_t want_code)
{
	struct sim_config cfg;
	uint32_t set = 0, code = 0;
	struct sim_machine *m;

	fw_config(&cfg, launch_sections);
	m = sim_create(&cfg);
	EXPECT_TRUE(m == NULL);
	if (m != NULL) {
		sim_destroy(m);
		return;
	}
	EXPECT_TRUE(sim_last_boot_failure(&set, &code));
	EXPECT_EQ(set, TERM_SET_CSVSM);
	EXPECT_EQ(code, want_code);
}

TEST(snp_launch, hostile_metadata_is_refused)
{
	const uint32_t in_svsm[1][3] = {{16 * MIB, 0x1000, 1}};
	const uint32_t past_ram[1][3] = {{0xF0000000u, 0x1000, 1}};
	const uint32_t unknown[1][3] = {{SEC_GPA, 0x1000, 9}};

	/* A section the loader never launched: PVALIDATE finds it not yet
	 * validated, so its contents are the hypervisor's. */
	make_fv(honest, 4);
	expect_refused(false, TERM_CSVSM_RMP_FAILURE);
	/* Sections that would hand the guest SVSM memory, or name memory
	 * that is not RAM, or that the parser does not know. */
	make_fv(in_svsm, 1);
	expect_refused(true, TERM_CSVSM_BAD_BOOT_INFO);
	make_fv(past_ram, 1);
	expect_refused(true, TERM_CSVSM_BAD_BOOT_INFO);
	make_fv(unknown, 1);
	expect_refused(true, TERM_CSVSM_BAD_BOOT_INFO);
	/* No SEV metadata at all. */
	make_fv(honest, 4);
	memset(fv + FV_SIZE - 0x30, 0, 16);
	expect_refused(true, TERM_CSVSM_BAD_BOOT_INFO);
}

/* A kernel without firmware (csvsm-igvm --kernel): the boot vCPU starts
 * in 64-bit mode on the kernel's own tables with the contract of
 * abi/csvsm_boot.h, and its whole launched range is the guest's. Truths:
 * the VMSA layout (spec notes 9), EFER/CR0 bits (APM vol. 2). */
TEST(snp_launch, kernel_entry_in_long_mode)
{
	struct sim_config cfg;
	struct sim_machine *m;
	struct snp_vmsa v;

	memset(fv, 0x90, sizeof(fv));
	fw_config(&cfg, false);
	cfg.vcpu_count = 2;
	cfg.guest_entry_mode = CSVSM_GUEST_ENTRY_KERNEL;
	cfg.guest_kernel_rip = FV_GPA + 0x100;
	cfg.guest_kernel_cr3 = (FV_GPA + 0xF000) | (1ull << 51);
	m = tm_create(&cfg);
	ASSERT_EQ(sim_vmsa_read(m, 0, &v), SIM_OK);
	EXPECT_EQ(v.rip, FV_GPA + 0x100);
	EXPECT_EQ(v.cr3, (FV_GPA + 0xF000) | (1ull << 51));
	EXPECT_EQ(v.efer & 0xD00, 0xD00); /* LME, LMA, NXE */
	EXPECT_EQ(v.cr0 & 0x80000001ull, 0x80000001ull);
	EXPECT_EQ(v.cs.attrib & 0x200, 0x200); /* L: 64-bit code */
	EXPECT_EQ(v.rdi, 8 * MIB);	       /* its secrets page */
	EXPECT_EQ(v.rsi, 2);		       /* the CPU count */
	EXPECT_EQ(v.vmpl, 1);
	EXPECT_EQ(vmpl1(m, FV_GPA), 0xF);
	EXPECT_EQ(vmpl1(m, FV_GPA + FV_SIZE - 0x1000), 0xF);
	check_invariants(m);
}

TEST(snp_launch, kernel_entry_refusals)
{
	struct sim_config cfg;
	uint32_t set = 0, code = 0;

	/* Page tables outside the launched image, or an unknown mode. */
	memset(fv, 0x90, sizeof(fv));
	fw_config(&cfg, false);
	cfg.guest_entry_mode = CSVSM_GUEST_ENTRY_KERNEL;
	cfg.guest_kernel_rip = FV_GPA + 0x100;
	cfg.guest_kernel_cr3 = 40 * MIB;
	EXPECT_TRUE(sim_create(&cfg) == NULL);
	EXPECT_TRUE(sim_last_boot_failure(&set, &code));
	EXPECT_EQ(code, TERM_CSVSM_BAD_BOOT_INFO);
	cfg.guest_kernel_cr3 = FV_GPA;
	cfg.guest_entry_mode = 7;
	EXPECT_TRUE(sim_create(&cfg) == NULL);
	EXPECT_TRUE(sim_last_boot_failure(&set, &code));
	EXPECT_EQ(code, TERM_CSVSM_BAD_BOOT_INFO);
}
