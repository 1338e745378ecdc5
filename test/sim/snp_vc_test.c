/* SPDX-License-Identifier: MIT */
/*
 * The snp platform's #VC emulation (src/plat/snp/vc.c): CPUID from the
 * CPUID page with Linux's lookup rules (spec notes 1.5), MSR and port
 * accesses through the GHCB against the hypervisor model, and the
 * terminations for replies without their registers and for exits the
 * SVSM never causes. Truths: the CPUID page layout, the x86 encodings of
 * CPUID (0F A2), RDMSR (0F 32), WRMSR (0F 30) and IN/OUT (E4-E7, EC-EF).
 */
#include <string.h>

#include "svsm/terminate.h"

#include "abi/ghcb.h"

#include "../../src/plat/snp/snp_boot.h"
#include "../../src/plat/snp/vc.h"
#include "../framework/test.h"
#include "guest.h"

#define GHCB_GPA 0x3000000ull

static struct ghcb_cpu cpu;
static struct snp_cpuid_table table;
static struct vc_regs regs;
static uint8_t insn[16];
static uint64_t exit_code;

static void add(uint32_t leaf, uint32_t sub, uint64_t xcr0, uint32_t a,
		uint32_t b)
{
	struct snp_cpuid_fn *e = &table.fn[table.count++];

	memset(e, 0, sizeof(*e));
	e->eax_in = leaf;
	e->ecx_in = sub;
	e->xcr0_in = xcr0;
	e->eax = a;
	e->ebx = b;
	e->ecx = ~a;
	e->edx = ~b;
}

static void make_table(void)
{
	memset(&table, 0, sizeof(table));
	add(0x0, 0, 0, 0xD, 0x68747541); /* max leaf 0xD, "Auth" */
	add(0x1, 0, 0, 0x00A00F11, 0x00020800);
	add(0x7, 0, 0, 1, 0x219C97A9);
	add(0x7, 1, 0, 0, 0x11);
	add(0xD, 0, 7, 0x7, 0x340); /* a larger XCR0: not the base area */
	add(0xD, 0, 1, 0x1, 0x240);
	add(0x80000000, 0, 0, 0x8000001F, 0);
	add(0x8000001F, 0, 0, 0x1007F, 0x173);
}

TEST(snp_vc, cpuid_lookup_follows_linux)
{
	struct cpuid_regs c;

	make_table();
	ASSERT_TRUE(snp_cpuid_lookup(&table, 1, 99, &c)); /* not indexed */
	EXPECT_EQ(c.eax, 0x00A00F11);
	EXPECT_TRUE(snp_cpuid_lookup(&table, 7, 1, &c));
	EXPECT_EQ(c.ebx, 0x11);
	EXPECT_TRUE(snp_cpuid_lookup(&table, 0xD, 0, &c));
	EXPECT_EQ(c.ebx, 0x240); /* the XCR0 = 1 entry */
	EXPECT_TRUE(snp_cpuid_lookup(&table, 5, 0, &c));
	EXPECT_EQ(c.eax | c.ebx | c.ecx | c.edx, 0); /* absent, in range */
	EXPECT_TRUE(snp_cpuid_lookup(&table, 0x80000008, 0, &c));
	EXPECT_EQ(c.eax, 0);
	EXPECT_FALSE(snp_cpuid_lookup(&table, 0x20, 0, &c)); /* > max */
	EXPECT_FALSE(snp_cpuid_lookup(&table, 0x40000000, 0, &c));
	EXPECT_FALSE(snp_cpuid_lookup(&table, 0x80000020, 0, &c));
	table.count = 0;
	EXPECT_FALSE(snp_cpuid_table_ok(&table));
	EXPECT_FALSE(snp_cpuid_lookup(&table, 1, 0, &c));
	table.count = 65;
	EXPECT_FALSE(snp_cpuid_table_ok(&table));
}

static void boot(void *arg)
{
	(void)arg;
	(void)ghcb_msr_negotiate();
	(void)ghcb_msr_hv_features();
	ghcb_cpu_init(&cpu, gpa_init(GHCB_GPA));
}

/* The firmware's own needs from the CPUID page (snp_boot.h). */
TEST(snp_vc, cpuid_boot_checks)
{
	unsigned cbit = 0;

	make_table();
	/* Leaf 0x80000008 without INVLPGB (EBX[3]), as KVM fills it: the
	 * SVSM boots all the same (every SNP CPU has INVLPGB). */
	add(0x80000008, 0, 0, 0x3030, 0);
	ASSERT_TRUE(snp_cpuid_boot_checks(&table, &cbit) == NULL);
	EXPECT_EQ(cbit, 51);	      /* 0x173 & 0x3F */
	table.fn[7].ebx = 0x170 | 20; /* C-bit 20: below 32 */
	EXPECT_TRUE(snp_cpuid_boot_checks(&table, &cbit) != NULL);
	table.fn[7].ebx = 0x173;
	table.fn[7].eax = 0x1007D; /* SEV (EAX[1]) clear */
	EXPECT_TRUE(snp_cpuid_boot_checks(&table, &cbit) != NULL);
	table.count = 0;
	EXPECT_TRUE(snp_cpuid_boot_checks(&table, &cbit) != NULL);
}

static bool no_ghcb; /* the CPU's GHCB is not registered yet */

static void vc(void *arg)
{
	(void)arg;
	snp_vc_handle(no_ghcb ? NULL : &cpu, &table, &regs, exit_code, insn);
}

static struct sim_machine *vc_machine(void)
{
	struct sim_config cfg;
	struct sim_machine *m;

	sim_config_default(&cfg);
	cfg.snp_ghcb = false; /* the client on its own GHCB page */
	m = tm_create(&cfg);
	ASSERT_TRUE(sim_snp_run(m, boot, NULL, NULL, NULL));
	make_table();
	return m;
}

/* Emulate @bytes raising #VC @code; true if it did not terminate. */
static bool emulate(struct sim_machine *m, uint64_t code, const uint8_t *b,
		    size_t n, uint32_t *term_code)
{
	uint32_t set = 0;

	memset(insn, 0x90, sizeof(insn));
	memcpy(insn, b, n);
	exit_code = code;
	return sim_snp_run(m, vc, NULL, &set, term_code);
}

TEST(snp_vc, cpuid_msr_and_ports)
{
	struct sim_machine *m = vc_machine();
	static const uint8_t cpuid[] = {0x0F, 0xA2};
	static const uint8_t rdmsr[] = {0x0F, 0x32};
	static const uint8_t wrmsr[] = {0x0F, 0x30};
	static const uint8_t in_al_dx[] = {0xEC};
	static const uint8_t out_imm_al[] = {0xE6, 0x80};
	static const uint8_t in_ax_dx[] = {0x66, 0xED};
	struct sim_ghcb_stats s;
	uint32_t code;

	regs = (struct vc_regs){.rax = 0x8000001F, .rcx = 0, .rip = 0x1000};
	ASSERT_TRUE(emulate(m, SVM_EXIT_CPUID, cpuid, 2, &code));
	EXPECT_EQ(regs.rax, 0x1007F);
	EXPECT_EQ(regs.rbx, 0x173);
	EXPECT_EQ(regs.rip, 0x1002);

	regs = (struct vc_regs){.rcx = 0xC0010131, .rip = 0x2000};
	ASSERT_TRUE(emulate(m, SVM_EXIT_MSR, rdmsr, 2, &code));
	EXPECT_EQ(regs.rax, (uint32_t)SIM_GHCB_RDMSR(0xC0010131));
	EXPECT_EQ(regs.rdx, SIM_GHCB_RDMSR(0xC0010131) >> 32);
	EXPECT_EQ(regs.rip, 0x2002);

	regs = (struct vc_regs){
		.rax = 0x89ABCDEF, .rcx = 0x1B, .rdx = 0x01234567};
	ASSERT_TRUE(emulate(m, SVM_EXIT_MSR, wrmsr, 2, &code));
	sim_ghcb_get_stats(m, &s);
	EXPECT_EQ(s.last_wrmsr, 0x1B);
	EXPECT_EQ(s.last_wrmsr_value, 0x0123456789ABCDEFull);

	regs = (struct vc_regs){.rax = 0x11223344, .rdx = 0x61, .rip = 0};
	ASSERT_TRUE(emulate(m, SVM_EXIT_IOIO, in_al_dx, 1, &code));
	EXPECT_EQ(regs.rax, 0x112233A5); /* AL only */
	EXPECT_EQ(regs.rip, 1);
	regs = (struct vc_regs){.rax = 0x77, .rip = 0};
	ASSERT_TRUE(emulate(m, SVM_EXIT_IOIO, out_imm_al, 2, &code));
	sim_ghcb_get_stats(m, &s);
	EXPECT_EQ(s.last_out_port, 0x80);
	EXPECT_EQ(s.last_out_value, 0x77);
	EXPECT_EQ(regs.rip, 2);
	regs = (struct vc_regs){.rax = 0xFFFF0000, .rdx = 0x3FD, .rip = 0};
	ASSERT_TRUE(emulate(m, SVM_EXIT_IOIO, in_ax_dx, 2, &code));
	EXPECT_EQ(regs.rax, 0xFFFFA5A5); /* AX only */
	EXPECT_EQ(regs.rip, 2);
}

TEST(snp_vc, replies_without_registers_and_strange_exits_terminate)
{
	struct sim_machine *m = vc_machine();
	static const uint8_t rdmsr[] = {0x0F, 0x32};
	static const uint8_t rdtsc[] = {0x0F, 0x31};
	static const uint8_t outsb[] = {0x6E};
	uint32_t code = 0;

	EXPECT_FALSE(emulate(m, 0x6E, rdtsc, 2, &code)); /* RDTSC */
	EXPECT_EQ(code, TERM_CSVSM_UNEXPECTED_VC);
	EXPECT_FALSE(emulate(m, SVM_EXIT_CPUID, rdmsr, 2, &code));
	EXPECT_EQ(code, TERM_CSVSM_UNEXPECTED_VC); /* bytes are not CPUID */
	EXPECT_FALSE(emulate(m, SVM_EXIT_IOIO, outsb, 1, &code));
	EXPECT_EQ(code, TERM_CSVSM_UNEXPECTED_VC); /* string I/O */
	sim_ghcb_set_behaviour(m, SIM_GHCB_MSR_NO_RAX);
	regs = (struct vc_regs){.rax = 0x5555, .rcx = 0x10};
	EXPECT_FALSE(emulate(m, SVM_EXIT_MSR, rdmsr, 2, &code));
	EXPECT_EQ(code, TERM_CSVSM_GHCB_RESPONSE);
	EXPECT_EQ(regs.rax, 0x5555); /* nothing read as zero */
}

TEST(snp_vc, before_the_ghcb_only_cpuid_is_served)
{
	struct sim_machine *m = vc_machine();
	static const uint8_t cpuid[] = {0x0F, 0xA2};
	static const uint8_t wrmsr[] = {0x0F, 0x30};
	static const uint8_t out_imm_al[] = {0xE6, 0x80};
	struct sim_ghcb_stats before, after;
	uint32_t code = 0;

	no_ghcb = true;
	sim_ghcb_get_stats(m, &before);
	regs = (struct vc_regs){.rax = 0x8000001F, .rip = 0x1000};
	EXPECT_TRUE(emulate(m, SVM_EXIT_CPUID, cpuid, 2, &code));
	EXPECT_EQ(regs.rbx, 0x173);
	EXPECT_FALSE(emulate(m, SVM_EXIT_MSR, wrmsr, 2, &code));
	EXPECT_EQ(code, TERM_CSVSM_UNEXPECTED_VC);
	EXPECT_FALSE(emulate(m, SVM_EXIT_IOIO, out_imm_al, 2, &code));
	EXPECT_EQ(code, TERM_CSVSM_UNEXPECTED_VC);
	sim_ghcb_get_stats(m, &after);
	EXPECT_EQ(after.nae_calls, before.nae_calls); /* nothing sent */
	no_ghcb = false;
}
