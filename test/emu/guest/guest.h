/* SPDX-License-Identifier: MIT */
/*
 * The emu test guest: a freestanding VMPL1 program that calls the SVSM
 * the way Linux does, through real VMGEXITs, and checks the answers
 * against the SVSM specification (58019) and the SNP architecture.
 */
#ifndef GUEST_H
#define GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/snp.h"

/* Console (COM1, passed through to QEMU) and results. */
void g_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void g_check(bool ok, const char *what, const char *file, int line);
#define CHECK_THAT(cond, what) g_check((cond), (what), __FILE__, __LINE__)
#define CHECK_EQ(a, b)                                                         \
	do {                                                                   \
		uint64_t a_ = (uint64_t)(a);                                   \
		uint64_t b_ = (uint64_t)(b);                                   \
		if (a_ != b_) {                                                \
			g_print("  %s = %llx, expected %s = %llx\n", #a,       \
				(unsigned long long)a_, #b,                    \
				(unsigned long long)b_);                       \
		}                                                              \
		g_check(a_ == b_, #a " == " #b, __FILE__, __LINE__);           \
	} while (0)
void g_exit(bool pass) __attribute__((noreturn));
void g_section(const char *name);
unsigned g_failures(void);
unsigned g_passed(void);
/** With fw_cfg opt/csvsm/guest-end ("poweroff", "reset"): end the VM so,
 * as Linux would (power.c). */
void guest_end_if_asked(void);

/* MSR access and CPU facts. */
uint64_t g_rdmsr(uint32_t msr);
void g_wrmsr(uint32_t msr, uint64_t val);
uint32_t g_apic_id(void);
uint64_t g_rdtsc(void);

/* Probes (entry.S): 0, or the vector of the fault plus one. One probe at a
 * time in the whole guest (the probe state is global): probe_read and
 * probe_write serialise the APs. */
int probe_read(uint64_t va);
int probe_write(uint64_t va);
int probe_read_raw(uint64_t va);
int probe_write_raw(uint64_t va);
int probe_insn_pvalidate(uint64_t va);
int probe_insn_vmmcall(void);
/** INT3 on the stack @rsp: 0, or the vector plus one (#BP: 4) when the
 * #BP frame's RIP is the one past the INT3, as the CPU pushes it. */
int probe_int3_stack(uint64_t rsp);
uint32_t insn_rmpadjust(uint64_t va, uint64_t size, uint64_t attrs);
extern uint64_t probe_error; /* error code, or ~0 when none was pushed */
#define FAULT_VC (29 + 1)
#define FAULT_GP (13 + 1)
#define FAULT_UD (6 + 1)
#define FAULT_BP (3 + 1)
#define FAULT_PF (14 + 1)

/* SVSM calls. */
struct svsm_regs {
	uint64_t rax, rcx, rdx, r8, r9;
};
enum call_path { PATH_MSR, PATH_GHCB };
/** One SVSM call as Linux makes it; returns the 32-bit result in RAX. */
uint32_t svsm_call(struct svsm_regs *r);
uint32_t svsm_call_path(struct svsm_regs *r, enum call_path path);
/** VMGEXIT "run VMPL0" with call_pending clear: a bare world switch. */
void svsm_bare_switch(enum call_path path);
/** Set up this CPU's GHCB (page state change to shared, register). */
bool ghcb_setup(uint64_t gpa);
/** This CPU starts on a fresh VMSA (its GHCB MSR is 0): calls take the
 * MSR protocol until ghcb_setup() again, as Linux's AP does. */
void ghcb_forget(void);
/** One ATTEST_SERVICES call with Linux's buffers; its RAX. */
uint32_t attest_once(void);
/** The GHCB-page AP Creation event. */
uint64_t ghcb_ap_create(uint32_t apic_id, uint64_t vmsa_gpa,
			uint64_t sev_features);
/** Write @secret into this vCPU's registered GHCB, make that page
 * private, then ask for termination (set 0, code 0): no return. */
void ghcb_terminate_private(uint64_t secret);
/** The GHCB MSR protocol page state change of one 4 KiB page. */
bool msr_page_state(uint64_t gpa, bool shared);
/** The GHCB this CPU's #VC handler may use now (NULL: none). */
volatile uint8_t *ghcb_for_vc(void);
/** One NAE event through GHCB @g: RAX in and out; exit_info_1. */
uint64_t ghcb_nae(volatile uint8_t *g, uint64_t code, uint64_t info1,
		  uint64_t info2, uint64_t *rax);
/** The GHCB MSR event (RDMSR/WRMSR through the hypervisor): exit_info_1
 * (0, or 1 with the event to raise in *info2). */
uint64_t ghcb_nae_msr(volatile uint8_t *g, bool write, uint32_t msr,
		      uint64_t *val, uint64_t *info2);
/** The GHCB CPUID event (leaf and subleaf, XCR0 = x87): EAX, EBX, ECX,
 * EDX into @out; exit_info_1. */
uint64_t ghcb_nae_cpuid(volatile uint8_t *g, uint32_t leaf, uint32_t subleaf,
			uint32_t out[4]);
/** The GHCB MMIO events: @len bytes at @gpa; exit_info_1. */
uint64_t ghcb_nae_mmio(volatile uint8_t *g, bool write, uint64_t gpa,
		       unsigned len, uint64_t *data);
/** The C-bit position (SEV information, GHCB MSR protocol). */
unsigned g_c_bit(void);
/** Map the 2 MiB at @gpa without the C-bit in the guest's page tables. */
void g_map_shared_2m(uint64_t gpa);
/** Map virtual @va's 2 MiB to the private 2 MiB at @gpa (both aligned),
 * replacing the identity map there: to reach memory beyond 4 GiB. */
void g_alias_private_2m(uint64_t va, uint64_t gpa);
/** The entry that maps @va at @level of this CPU's tables (1: the PD's,
 * 2: the PDPT's, 3: the PML4's). */
uint64_t *g_pte_of(uint64_t va, unsigned level);

/* Per-CPU Calling Area. */
struct svsm_ca {
	uint8_t call_pending;
	uint8_t mem_available;
	uint8_t reserved[6];
	uint8_t buffer[4088];
};
void ca_set(struct svsm_ca *ca);
struct svsm_ca *ca_get(void);

/* Test suites (BSP) and AP work. */
extern const struct snp_secrets_page *g_secrets;
extern unsigned g_cpu_count;
void tests_discovery(void);
void tests_faults(void);
void tests_pvalidate(void);
void tests_rmp_2m(void);
void tests_remap_ca(void);
void tests_memory(void);
void tests_hostile(void);
void tests_vcpu(void);
void tests_apic(void);
void tests_xsavec(void);
void tests_user(void);
void tests_cpuid(void);
void tests_crypt(void);
/** XRSTOR64 of @area with RFBM x87|SSE: 0 or the fault's vector + 1. */
int probe_xrstor(void *area);
/** XSAVEC64 of x87|SSE to @area: 0 or the fault's vector + 1. */
int probe_xsavec(void *area);
/** IPIs to the APs now online (not @skip, busy elsewhere): each answers
 * the BSP's with one of its own. */
void tests_apic_ipi(unsigned skip);
/** An AP's last work: take IPIs with its virtual x2APIC, for ever. */
void apic_ap_serve(unsigned idx) __attribute__((noreturn));
/** Have AP @idx leave interrupts pending in its APIC and halt for good,
 * as Linux's CPU offline does; it serves again on its next VMSA. */
void apic_park_ap(unsigned idx);
/** An AP's new VMSA: its APIC is in KVM's INIT state. */
void apic_ap_check_init(void);
void tests_vtpm(void);
void tests_attest(void);
void tests_dev(void);
void bench_attest(void);
void bench_world_switch(void);

/* Guest memory the tests use (GPA = VA), all outside the launch region.
 * [G_SHARED_BASE, +2 MiB) is mapped without the C-bit (shared): the
 * GHCBs; every other page is mapped private. */
#define G_SHARED_BASE 0x2200000ull
#define G_VC_GHCB_BASE 0x2200000ull /* the #VC handler's, one per CPU */
#define G_GHCB_BASE 0x2300000ull    /* one GHCB per CPU */
#define G_PV_BASE 0x2400000ull	    /* PVALIDATE scenarios: 8 MiB */
#define G_AP_BASE 0x2C00000ull	    /* AP VMSAs, CAs and stacks */
#define G_MEM_BASE 0x2E00000ull	    /* deposits */
#define G_RMP2M_BASE 0x3000000ull   /* 2 MiB RMP entries: 4 MiB */
/* The last page of the shared 2 MiB: a stack made private under its
 * shared mapping (tests_faults). */
#define G_CUT_STACK 0x23FF000ull

#endif /* GUEST_H */
