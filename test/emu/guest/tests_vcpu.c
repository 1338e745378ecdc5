/* SPDX-License-Identifier: MIT */
/*
 * CREATE_VCPU and DELETE_VCPU as Linux brings up an AP under an SVSM:
 * build a VMPL1 VMSA, CREATE_VCPU, then the GHCB AP Creation event. The
 * AP runs on its own SVSM CPU, calls the SVSM itself (MSR protocol, then
 * its own GHCB), validates a page, and halts; the BSP then deletes it.
 */
#include "svsm/std.h"

#include "guest.h"

#define R_SUCCESS 0x00000000u
#define R_INVALID_ADDRESS 0x80000003u
#define R_INVALID_PARAMETER 0x80000005u
#define R_FAIL_INUSE 0x80001003u
#define C_REMAP_CA 0ull
#define C_PVALIDATE 1ull
#define C_CREATE_VCPU 2ull
#define C_DELETE_VCPU 3ull
#define C_DEPOSIT 4ull
#define C_QUERY 6ull
#define MSR_SEV_STATUS 0xC0010131u
#define PAGE 4096ull
#define AP_STRIDE (4 * PAGE) /* VMSA, CA, two stack pages */
#define AP_PV_BASE (G_PV_BASE + 0x600000)

extern const uint8_t guest_ap_start[];
static unsigned aps_done;
/* The AP that attests after its checks (0: none), when it began, and
 * whether and how its call returned (the BSP checks the result: the AP
 * may be deleted before the call returns to it). */
static unsigned attesting_ap;
static bool attest_started;
static bool attest_returned;
static uint32_t attest_result;

static uint32_t call4(uint64_t rax, uint64_t rcx, uint64_t rdx, uint64_t r8,
		      uint64_t *out)
{
	struct svsm_regs r = {.rax = rax, .rcx = rcx, .rdx = rdx, .r8 = r8};
	uint32_t ret = svsm_call(&r);

	if (out != NULL) {
		*out = r.rcx;
	}
	return ret;
}

static uint32_t pvalidate_one(uint64_t gpa)
{
	struct svsm_ca *ca = ca_get();
	uint16_t hdr[4] = {1, 0, 0, 0};
	uint64_t e = gpa | 4; /* validate, 4 KiB */

	memcpy(ca->buffer, hdr, sizeof(hdr));
	memcpy(ca->buffer + 8, &e, 8);
	return call4(C_PVALIDATE, (uint64_t)ca->buffer, 0, 0, NULL);
}

static uint64_t read_cr(int n)
{
	uint64_t v = 0;

	if (n == 0) {
		__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	} else if (n == 3) {
		__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	} else {
		__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	}
	return v;
}

/* A 64-bit VMPL1 VMSA starting at guest_ap_start (Linux builds its AP
 * VMSAs from the boot state in the same way). */
static void build_vmsa(struct snp_vmsa *v, unsigned idx, uint64_t ca,
		       uint64_t stack_top)
{
	memset(v, 0, sizeof(*v));
	v->cs = (struct vmsa_seg){
		.selector = 0x08, .attrib = 0xA9B, .limit = 0xFFFFFFFF};
	v->ds = (struct vmsa_seg){
		.selector = 0x10, .attrib = 0xC93, .limit = 0xFFFFFFFF};
	v->es = v->ds;
	v->ss = v->ds;
	v->fs = v->ds;
	v->gs = v->ds;
	v->tr = (struct vmsa_seg){.attrib = 0x8B, .limit = 0xFFFF};
	v->ldtr = (struct vmsa_seg){.attrib = 0x82, .limit = 0xFFFF};
	v->cr0 = read_cr(0);
	v->cr3 = read_cr(3);
	v->cr4 = read_cr(4);
	v->efer = g_rdmsr(0xC0000080u);
	v->rflags = 2;
	v->rip = (uint64_t)guest_ap_start;
	v->rsp = stack_top;
	v->rdi = idx;
	v->rsi = ca;
	v->vmpl = 1;
	v->sev_features = g_rdmsr(MSR_SEV_STATUS) >> 2;
	v->g_pat = 0x0007040600070406ull;
	v->dr6 = 0xFFFF0FF0ull;
	v->dr7 = 0x400;
	v->xcr0 = 1;
}

void guest_ap_main(unsigned idx, uint64_t ca);
void guest_ap_main(unsigned idx, uint64_t ca)
{
	uint64_t page = AP_PV_BASE + idx * PAGE;
	uint64_t out = 0;

	ca_set((struct svsm_ca *)ca);
	ghcb_forget(); /* a new VMSA, also when this CPU comes back online */
	CHECK_EQ(g_apic_id(), idx);
	CHECK_EQ(call4(C_QUERY, 1, 0, 0, &out), R_SUCCESS);
	CHECK_EQ(out, (1ull << 32) | 1);
	CHECK_THAT(ghcb_setup(G_GHCB_BASE + idx * PAGE), "AP GHCB set up");
	apic_ap_check_init();
	CHECK_EQ(call4(C_QUERY, 1, 0, 0, &out), R_SUCCESS);
	CHECK_THAT(msr_page_state(page, false), "AP PSC to private");
	CHECK_EQ(probe_read(page), FAULT_VC);
	CHECK_EQ(pvalidate_one(page), R_SUCCESS);
	CHECK_EQ(probe_write(page), 0);
	g_print("[guest] AP %u served by its own SVSM CPU\n", idx);
	__atomic_fetch_add(&aps_done, 1, __ATOMIC_SEQ_CST);
	if (idx == __atomic_load_n(&attesting_ap, __ATOMIC_SEQ_CST)) {
		uint32_t rc;

		__atomic_store_n(&attest_started, true, __ATOMIC_SEQ_CST);
		rc = attest_once();
		__atomic_store_n(&attest_result, rc, __ATOMIC_SEQ_CST);
		__atomic_store_n(&attest_returned, true, __ATOMIC_SEQ_CST);
	}
	apic_ap_serve(idx);
}

static void create_rejects_bad_input(uint64_t vmsa, uint64_t ca)
{
	struct snp_vmsa *v = (struct snp_vmsa *)vmsa;
	uint64_t svsm = g_secrets->svsm_base;

	build_vmsa(v, 0, ca, 0);
	CHECK_EQ(call4(C_CREATE_VCPU, vmsa + 8, ca, 0, NULL),
		 R_INVALID_PARAMETER);
	CHECK_EQ(call4(C_CREATE_VCPU, vmsa, vmsa, 0, NULL), R_INVALID_ADDRESS);
	CHECK_EQ(call4(C_CREATE_VCPU, svsm, ca, 0, NULL), R_INVALID_ADDRESS);
	CHECK_EQ(call4(C_CREATE_VCPU, vmsa, svsm, 0, NULL), R_INVALID_ADDRESS);
	CHECK_EQ(call4(C_CREATE_VCPU, vmsa, ca, 9999, NULL),
		 R_INVALID_PARAMETER);
	v->vmpl = 0; /* a VMPL0 VMSA: never from the guest */
	CHECK_EQ(call4(C_CREATE_VCPU, vmsa, ca, 0, NULL), R_INVALID_PARAMETER);
	build_vmsa(v, 0, ca, 0);
	v->efer &= ~(1ull << 12);
	CHECK_EQ(call4(C_CREATE_VCPU, vmsa, ca, 0, NULL), R_INVALID_PARAMETER);
	CHECK_EQ(probe_write(vmsa), 0); /* refused: still the guest's */
	CHECK_EQ(call4(C_DELETE_VCPU, vmsa, 0, 0, NULL), R_INVALID_PARAMETER);
	CHECK_EQ(call4(C_DELETE_VCPU, svsm, 0, 0, NULL), R_INVALID_PARAMETER);
}

/* A live VMSA is SVSM memory: no call may name it (T01, T06). */
static void hostile_on_vmsa(uint64_t vmsa)
{
	struct svsm_ca *ca = ca_get();
	uint16_t hdr[4] = {1, 0, 0, 0};
	uint64_t e = vmsa; /* invalidate it */

	memcpy(ca->buffer, hdr, sizeof(hdr));
	memcpy(ca->buffer + 8, &e, 8);
	CHECK_EQ(call4(C_PVALIDATE, (uint64_t)ca->buffer, 0, 0, NULL),
		 R_INVALID_ADDRESS);
	memcpy(ca->buffer + 8, &e, 8);
	CHECK_EQ(call4(C_DEPOSIT, (uint64_t)ca->buffer, 0, 0, NULL),
		 R_INVALID_ADDRESS);
	CHECK_EQ(call4(C_REMAP_CA, vmsa, 0, 0, NULL), R_INVALID_ADDRESS);
	CHECK_EQ(call4(C_CREATE_VCPU, vmsa, vmsa + 2 * PAGE, 1, NULL),
		 R_INVALID_ADDRESS);
	/* A list inside the VMSA page. */
	CHECK_EQ(call4(C_PVALIDATE, vmsa + 8, 0, 0, NULL), R_INVALID_ADDRESS);
}

/* Wait until @count APs finished guest_ap_main (two minutes at most). */
static void wait_aps(unsigned count)
{
	uint64_t deadline = g_rdtsc() + 120000000000ull;

	while (__atomic_load_n(&aps_done, __ATOMIC_SEQ_CST) < count &&
	       g_rdtsc() < deadline) {
		__builtin_ia32_pause();
	}
	CHECK_EQ(aps_done, count);
}

/* Delete a VMSA: until its HLT exits, it may be in use. */
static uint32_t delete_vcpu(uint64_t vmsa)
{
	uint32_t ret;
	unsigned tries = 0;

	do {
		ret = call4(C_DELETE_VCPU, vmsa, 0, 0, NULL);
	} while (ret == R_FAIL_INUSE && ++tries < 100000);
	return ret;
}

/*
 * CPU @idx comes back online as Linux brings it (wakeup_cpu_via_vmgexit,
 * arch/x86/coco/sev/core.c): a new VMSA with per_cpu(svsm_caa), the CA the
 * old VMSA still has, AP Creation, and only then DELETE_VCPU of the old
 * one. The AP runs guest_ap_main again on the same CA. Before, it parks
 * with interrupts pending in its APIC, which the new VMSA must not see.
 */
static void reonline(unsigned idx, uint64_t old_vmsa, uint64_t new_vmsa)
{
	uint64_t ca = old_vmsa + PAGE;
	unsigned before = __atomic_load_n(&aps_done, __ATOMIC_SEQ_CST);

	apic_park_ap(idx);
	build_vmsa((struct snp_vmsa *)new_vmsa, idx, ca, old_vmsa + AP_STRIDE);
	CHECK_EQ(call4(C_CREATE_VCPU, new_vmsa, ca, idx, NULL), R_SUCCESS);
	CHECK_EQ(ghcb_ap_create(idx, new_vmsa, g_rdmsr(MSR_SEV_STATUS) >> 2),
		 0);
	wait_aps(before + 1);
	CHECK_EQ(delete_vcpu(old_vmsa), R_SUCCESS);
	CHECK_EQ(probe_write(old_vmsa), 0);
	/* The CA lives on with the new VMSA: still not the guest's to
	 * name as a page, and another APIC ID may not take it. */
	CHECK_EQ(call4(C_REMAP_CA, ca, 0, 0, NULL), R_INVALID_ADDRESS);
	g_print("[guest] CPU %u back online on the same Calling Area\n", idx);
}

/*
 * Real SMP: the BSP deletes AP @idx's VMSA while the AP's attestation
 * call may be waiting on the host inside the SVSM. 58019 6.4: DELETE_VCPU
 * fails with FAIL_INUSE until the vCPU can be stopped; once it succeeds,
 * the SVSM never writes that page again (docs/architecture.md, vCPU
 * lifetime). The page is filled after the delete and must stay so for
 * ten times an attestation's length. Whether the call returned to the AP
 * before the delete is a race either way; a deleted VMSA never runs
 * again, so what the AP recorded by then is final.
 */
static void delete_during_call(unsigned idx, uint64_t vmsa)
{
	uint8_t *page = (uint8_t *)vmsa;
	uint64_t deadline = g_rdtsc() + 120000000000ull;
	bool returned;
	uint64_t i;

	while (!__atomic_load_n(&attest_started, __ATOMIC_SEQ_CST) &&
	       g_rdtsc() < deadline) {
		__builtin_ia32_pause();
	}
	CHECK_THAT(attest_started, "the AP began its attestation");
	CHECK_EQ(delete_vcpu(vmsa), R_SUCCESS);
	returned = __atomic_load_n(&attest_returned, __ATOMIC_SEQ_CST);
	memset(page, 0x5A, PAGE);
	deadline = g_rdtsc() + 300000000ull;
	while (g_rdtsc() < deadline) {
		__builtin_ia32_pause();
	}
	for (i = 0; i < PAGE && page[i] == 0x5A; i++) {
	}
	CHECK_EQ(i, PAGE);
	CHECK_EQ(__atomic_load_n(&attest_returned, __ATOMIC_SEQ_CST), returned);
	CHECK_THAT(!returned || __atomic_load_n(&attest_result,
						__ATOMIC_SEQ_CST) == R_SUCCESS,
		   "an attestation that returned before the delete succeeded");
	g_print("[guest] AP %u deleted %s its attestation returned\n", idx,
		returned ? "after" : "before");
}

void tests_vcpu(void)
{
	uint64_t base = G_AP_BASE;
	unsigned n = g_cpu_count;
	uint64_t reonlined = 0;
	unsigned i;

	g_section("CREATE_VCPU, AP creation, DELETE_VCPU");
	CHECK_THAT(msr_page_state(base, false), "PSC to private");
	for (i = 0; i < (n + 1) * 4; i++) {
		CHECK_EQ(pvalidate_one(base + i * PAGE), R_SUCCESS);
	}
	/* Slot 0: input checks, then (with a second CPU) a VMSA that is
	 * created and deleted without ever running. Not for the BSP's own
	 * APIC ID: the newest VMSA of an APIC ID is the one the SVSM serves
	 * (Linux's re-online order), so the BSP's calls would stop. */
	create_rejects_bad_input(base, base + PAGE);
	if (n > 1) {
		build_vmsa((struct snp_vmsa *)base, 1, base + PAGE, 0);
		CHECK_EQ(call4(C_CREATE_VCPU, base, base + PAGE, 1, NULL),
			 R_SUCCESS);
		CHECK_EQ(probe_read(base), 0);
		CHECK_EQ(probe_write(base), FAULT_VC); /* a VMSA: read-only */
		hostile_on_vmsa(base);
		CHECK_EQ(call4(C_DELETE_VCPU, base, 0, 0, NULL), R_SUCCESS);
		CHECK_EQ(probe_write(base), 0);
		CHECK_EQ(call4(C_DELETE_VCPU, base, 0, 0, NULL),
			 R_INVALID_PARAMETER);
	}

	if (n > 2) {
		attesting_ap = 2;
	}
	for (i = 1; i < n; i++) {
		uint64_t vmsa = base + i * AP_STRIDE;

		build_vmsa((struct snp_vmsa *)vmsa, i, vmsa + PAGE,
			   vmsa + AP_STRIDE);
		CHECK_EQ(call4(C_CREATE_VCPU, vmsa, vmsa + PAGE, i, NULL),
			 R_SUCCESS);
		CHECK_EQ(probe_write(vmsa), FAULT_VC);
		CHECK_EQ(ghcb_ap_create(i, vmsa, g_rdmsr(MSR_SEV_STATUS) >> 2),
			 0);
	}
	wait_aps(n - 1);
	/* CPU 1 offline and back: its new VMSA in the spare slot n. */
	if (n > 1) {
		reonlined = base + n * AP_STRIDE;
		reonline(1, base + AP_STRIDE, reonlined);
		tests_apic_ipi(attesting_ap);
	}
	for (i = 1; i < n; i++) {
		uint64_t vmsa = i == 1 ? reonlined : base + i * AP_STRIDE;

		if (i == attesting_ap) {
			delete_during_call(i, vmsa);
			continue;
		}
		CHECK_EQ(delete_vcpu(vmsa), R_SUCCESS);
		CHECK_EQ(probe_write(vmsa), 0);
	}
}
