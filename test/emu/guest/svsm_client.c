/* SPDX-License-Identifier: MIT */
/*
 * The guest side of an SVSM call, after Linux (svsm_perform_msr_protocol,
 * svsm_perform_ghcb_protocol, svsm_issue_call): registers loaded,
 * call_pending = 1, VMGEXIT, then call_pending atomically exchanged with 0;
 * a non-zero old value means the SVSM never ran. The GHCB MSR protocol and
 * GHCB page constants are spelled out from the GHCB specification (56421)
 * here rather than taken from the SVSM's headers.
 */
#include "svsm/std.h"

#include "abi/ghcb.h"

#include "guest.h"

#define MSR_GHCB 0xC0010130u
#define MSR_RUN_VMPL_REQ 0x016ull
#define MSR_RUN_VMPL_RESP 0x017ull
#define MSR_REG_GPA_REQ 0x012ull
#define MSR_REG_GPA_RESP 0x013ull
#define MSR_PSC_REQ 0x014ull
#define MSR_PSC_RESP 0x015ull
#define MSR_TERM_REQ 0x100ull /* reason set 0, code 0 */
#define NAE_AP_CREATION 0x80000013ull
#define NAE_RUN_VMPL 0x80000018ull
#define GHCB_RAX 0x1F8u
#define GHCB_RCX 0x308u
#define GHCB_RDX 0x310u
#define GHCB_RBX 0x318u
#define GHCB_XCR0 0x3E8u
#define EXIT_CPUID 0x72ull
#define EXIT_MSR 0x7Cull
#define NAE_MMIO_READ 0x80000001ull
#define NAE_MMIO_WRITE 0x80000002ull
#define GHCB_SCRATCH 0x3A8u
#define GHCB_BUFFER 0x800u
#define GHCB_EXIT_CODE 0x390u
#define GHCB_EXIT_INFO_1 0x398u
#define GHCB_EXIT_INFO_2 0x3A0u
#define GHCB_BITMAP 0x3F0u
#define GHCB_VERSION 0xFFAu
#define GHCB_USAGE 0xFFCu
#define NOT_SERVED 0xFFFFFFFFu
#define MAX_CPUS 64u

static struct svsm_ca *cas[MAX_CPUS];
static uint64_t ghcbs[MAX_CPUS];
/* The GHCB the hypervisor has registered for each CPU, whoever set it. */
static uint64_t registered[MAX_CPUS];
/* Each CPU's own GHCB for its #VC handler while the tests have set up
 * none (ghcbs[] is 0): shared once, registered when needed. */
static bool vc_ghcb_shared[MAX_CPUS];

void ca_set(struct svsm_ca *ca)
{
	cas[g_apic_id() % MAX_CPUS] = ca;
}

struct svsm_ca *ca_get(void)
{
	return cas[g_apic_id() % MAX_CPUS];
}

static void vmgexit_regs(struct svsm_regs *r)
{
	register uint64_t r8 __asm__("r8") = r->r8;
	register uint64_t r9 __asm__("r9") = r->r9;

	__asm__ volatile("rep; vmmcall"
			 : "+a"(r->rax), "+c"(r->rcx), "+d"(r->rdx), "+r"(r8),
			   "+r"(r9)
			 :
			 : "memory");
	r->r8 = r8;
	r->r9 = r9;
}

static void vmgexit(void)
{
	__asm__ volatile("rep; vmmcall" ::: "memory");
}

static uint64_t msr_protocol(uint64_t req)
{
	uint64_t saved = g_rdmsr(MSR_GHCB);
	uint64_t resp;

	g_wrmsr(MSR_GHCB, req);
	vmgexit();
	resp = g_rdmsr(MSR_GHCB);
	g_wrmsr(MSR_GHCB, saved);
	return resp;
}

static volatile uint8_t *ghcb_page(void)
{
	return (volatile uint8_t *)ghcbs[g_apic_id() % MAX_CPUS];
}

static void ghcb_set(volatile uint8_t *g, unsigned off, uint64_t v)
{
	unsigned bit = off / 8;

	*(volatile uint64_t *)(g + off) = v;
	*(volatile uint64_t *)(g + GHCB_BITMAP + (bit / 64) * 8) |=
		1ull << (bit % 64);
}

static uint64_t ghcb_get(volatile uint8_t *g, unsigned off)
{
	return *(volatile uint64_t *)(g + off);
}

static void ghcb_begin(volatile uint8_t *g, uint64_t code, uint64_t info1,
		       uint64_t info2)
{
	*(volatile uint64_t *)(g + GHCB_BITMAP) = 0;
	*(volatile uint64_t *)(g + GHCB_BITMAP + 8) = 0;
	ghcb_set(g, GHCB_EXIT_CODE, code);
	ghcb_set(g, GHCB_EXIT_INFO_1, info1);
	ghcb_set(g, GHCB_EXIT_INFO_2, info2);
	*(volatile uint16_t *)(g + GHCB_VERSION) = 2;
	*(volatile uint32_t *)(g + GHCB_USAGE) = 0;
}

uint32_t svsm_call_path(struct svsm_regs *r, enum call_path path)
{
	struct svsm_ca *ca = ca_get();
	uint8_t pending;

	if (path == PATH_MSR) {
		uint64_t saved = g_rdmsr(MSR_GHCB);
		uint64_t resp;

		g_wrmsr(MSR_GHCB, MSR_RUN_VMPL_REQ);
		__atomic_store_n(&ca->call_pending, 1, __ATOMIC_SEQ_CST);
		vmgexit_regs(r);
		resp = g_rdmsr(MSR_GHCB);
		g_wrmsr(MSR_GHCB, saved);
		if (resp != MSR_RUN_VMPL_RESP) {
			g_print("  run-VMPL response %llx\n",
				(unsigned long long)resp);
		}
	} else {
		volatile uint8_t *g = ghcb_page();

		ghcb_begin(g, NAE_RUN_VMPL, 0, 0);
		__atomic_store_n(&ca->call_pending, 1, __ATOMIC_SEQ_CST);
		/* The GHCB MSR already holds the GHCB's address. */
		vmgexit_regs(r);
		if ((uint32_t)ghcb_get(g, GHCB_EXIT_INFO_1) != 0) {
			g_print("  run-VMPL GHCB result %llx\n",
				(unsigned long long)ghcb_get(g,
							     GHCB_EXIT_INFO_1));
		}
	}
	pending = __atomic_exchange_n(&ca->call_pending, 0, __ATOMIC_SEQ_CST);
	if (pending != 0) {
		return NOT_SERVED;
	}
	return (uint32_t)r->rax;
}

uint32_t svsm_call(struct svsm_regs *r)
{
	return svsm_call_path(r, ghcbs[g_apic_id() % MAX_CPUS] != 0 ? PATH_GHCB
								    : PATH_MSR);
}

void svsm_bare_switch(enum call_path path)
{
	struct svsm_regs r = {0};

	if (path == PATH_MSR) {
		uint64_t saved = g_rdmsr(MSR_GHCB);

		g_wrmsr(MSR_GHCB, MSR_RUN_VMPL_REQ);
		vmgexit_regs(&r);
		(void)g_rdmsr(MSR_GHCB);
		g_wrmsr(MSR_GHCB, saved);
	} else {
		ghcb_begin(ghcb_page(), NAE_RUN_VMPL, 0, 0);
		vmgexit_regs(&r);
	}
}

bool msr_page_state(uint64_t gpa, bool shared)
{
	uint64_t op = shared ? 2 : 1;
	uint64_t resp = msr_protocol(gpa | (op << 52) | MSR_PSC_REQ);

	return resp == MSR_PSC_RESP;
}

bool ghcb_setup(uint64_t gpa)
{
	uint64_t resp;

	if (!msr_page_state(gpa, true)) {
		return false;
	}
	resp = msr_protocol(gpa | MSR_REG_GPA_REQ);
	if (resp != (gpa | MSR_REG_GPA_RESP)) {
		return false;
	}
	memset((void *)gpa, 0, 4096);
	ghcbs[g_apic_id() % MAX_CPUS] = gpa;
	registered[g_apic_id() % MAX_CPUS] = gpa;
	g_wrmsr(MSR_GHCB, gpa);
	return true;
}

void ghcb_terminate_private(uint64_t secret)
{
	uint64_t gpa = registered[g_apic_id() % MAX_CPUS];

	/* A page this vCPU registered as its GHCB, written, then made
	 * private; then the GHCB MSR protocol's termination request (set
	 * 0, code 0), whose handling prints the registered GHCB's exit
	 * code if the hypervisor may read it. */
	*(volatile uint64_t *)(gpa + GHCB_OFF_SW_EXIT_CODE) = secret;
	(void)msr_page_state(gpa, false);
	g_wrmsr(MSR_GHCB, MSR_TERM_REQ);
	vmgexit();
}

volatile uint8_t *ghcb_for_vc(void)
{
	unsigned cpu = g_apic_id() % MAX_CPUS;
	uint64_t gpa = G_VC_GHCB_BASE + (uint64_t)cpu * 4096;

	if (ghcbs[cpu] != 0) {
		return (volatile uint8_t *)ghcbs[cpu];
	}
	if (!vc_ghcb_shared[cpu]) {
		if (!msr_page_state(gpa, true)) {
			return NULL;
		}
		vc_ghcb_shared[cpu] = true;
	}
	if (registered[cpu] != gpa) {
		if (msr_protocol(gpa | MSR_REG_GPA_REQ) !=
		    (gpa | MSR_REG_GPA_RESP)) {
			return NULL;
		}
		registered[cpu] = gpa;
	}
	return (volatile uint8_t *)gpa;
}

uint64_t ghcb_nae(volatile uint8_t *g, uint64_t code, uint64_t info1,
		  uint64_t info2, uint64_t *rax)
{
	uint64_t saved = g_rdmsr(MSR_GHCB);

	ghcb_begin(g, code, info1, info2);
	ghcb_set(g, GHCB_RAX, *rax);
	g_wrmsr(MSR_GHCB, (uint64_t)g);
	vmgexit();
	g_wrmsr(MSR_GHCB, saved);
	*rax = ghcb_get(g, GHCB_RAX);
	return ghcb_get(g, GHCB_EXIT_INFO_1);
}

uint64_t ghcb_nae_msr(volatile uint8_t *g, bool write, uint32_t msr,
		      uint64_t *val, uint64_t *info2)
{
	uint64_t saved = g_rdmsr(MSR_GHCB);

	ghcb_begin(g, EXIT_MSR, write ? 1 : 0, 0);
	ghcb_set(g, GHCB_RCX, msr);
	if (write) {
		ghcb_set(g, GHCB_RAX, (uint32_t)*val);
		ghcb_set(g, GHCB_RDX, *val >> 32);
	}
	g_wrmsr(MSR_GHCB, (uint64_t)g);
	vmgexit();
	g_wrmsr(MSR_GHCB, saved);
	if (!write) {
		*val = (uint32_t)ghcb_get(g, GHCB_RAX) |
		       (ghcb_get(g, GHCB_RDX) << 32);
	}
	*info2 = ghcb_get(g, GHCB_EXIT_INFO_2);
	return ghcb_get(g, GHCB_EXIT_INFO_1);
}

uint64_t ghcb_nae_cpuid(volatile uint8_t *g, uint32_t leaf, uint32_t subleaf,
			uint32_t out[4])
{
	uint64_t saved = g_rdmsr(MSR_GHCB);

	ghcb_begin(g, EXIT_CPUID, 0, 0);
	ghcb_set(g, GHCB_RAX, leaf);
	ghcb_set(g, GHCB_RCX, subleaf);
	ghcb_set(g, GHCB_XCR0, 1);
	g_wrmsr(MSR_GHCB, (uint64_t)g);
	vmgexit();
	g_wrmsr(MSR_GHCB, saved);
	out[0] = (uint32_t)ghcb_get(g, GHCB_RAX);
	out[1] = (uint32_t)ghcb_get(g, GHCB_RBX);
	out[2] = (uint32_t)ghcb_get(g, GHCB_RCX);
	out[3] = (uint32_t)ghcb_get(g, GHCB_RDX);
	return ghcb_get(g, GHCB_EXIT_INFO_1);
}

uint64_t ghcb_nae_mmio(volatile uint8_t *g, bool write, uint64_t gpa,
		       unsigned len, uint64_t *data)
{
	uint64_t saved = g_rdmsr(MSR_GHCB);

	ghcb_begin(g, write ? NAE_MMIO_WRITE : NAE_MMIO_READ, gpa, len);
	ghcb_set(g, GHCB_SCRATCH, (uint64_t)g + GHCB_BUFFER);
	*(volatile uint64_t *)(g + GHCB_BUFFER) = write ? *data : 0;
	g_wrmsr(MSR_GHCB, (uint64_t)g);
	vmgexit();
	g_wrmsr(MSR_GHCB, saved);
	if (!write) {
		*data = *(volatile uint64_t *)(g + GHCB_BUFFER);
		if (len < 8) {
			*data &= (1ull << (8 * len)) - 1;
		}
	}
	return ghcb_get(g, GHCB_EXIT_INFO_1);
}

void ghcb_forget(void)
{
	ghcbs[g_apic_id() % MAX_CPUS] = 0;
	registered[g_apic_id() % MAX_CPUS] = 0;
}

uint64_t ghcb_ap_create(uint32_t apic_id, uint64_t vmsa_gpa,
			uint64_t sev_features)
{
	volatile uint8_t *g = ghcb_page();

	ghcb_begin(g, NAE_AP_CREATION,
		   ((uint64_t)apic_id << 32) | (1ull << 16) | 1u, vmsa_gpa);
	ghcb_set(g, GHCB_RAX, sev_features);
	vmgexit();
	return ghcb_get(g, GHCB_EXIT_INFO_1);
}
