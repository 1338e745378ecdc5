/* SPDX-License-Identifier: MIT */
/*
 * 4 KiB operations inside memory the hypervisor backs with 2 MiB RMP
 * entries and the guest validated 2 MiB at a time, as a Linux guest makes
 * them: one page made shared (PVALIDATE through the SVSM, then the PSC),
 * its own RMPADJUST, and an AP's VMSA. On hardware each 4 KiB PVALIDATE or
 * RMPADJUST there raises #NPF with SIZEM (AMD APM vol. 3, PVALIDATE and
 * RMPADJUST); KVM PSMASHes the entry and the instruction re-executes
 * (Linux arch/x86/kvm/svm/sev.c, sev_handle_rmp_fault()), and a 4 KiB PSC
 * inside a 2 MiB entry is done after a PSMASH. The guest sees success,
 * never FAIL_SIZEMISMATCH (0x80001006).
 */
#include "svsm/std.h"

#include "guest.h"

#define R_SUCCESS 0x00000000u
#define C_PVALIDATE 1ull
#define C_CREATE_VCPU 2ull
#define C_DELETE_VCPU 3ull
#define PV_2M 1ull
#define PV_VALIDATE 4ull
#define MSR_EFER 0xC0000080u
#define MSR_SEV_STATUS 0xC0010131u
#define EFER_SVME_BIT (1ull << 12)
#define PAGE 4096ull
#define SPAN_2M 0x200000ull

static uint32_t call(uint64_t rax, uint64_t rcx, uint64_t rdx, uint64_t r8)
{
	struct svsm_regs r = {.rax = rax, .rcx = rcx, .rdx = rdx, .r8 = r8};

	return svsm_call(&r);
}

/* One PVALIDATE entry in the CA buffer, as Linux's svsm_pval_4k_page. */
static uint32_t pvalidate_one(uint64_t entry)
{
	struct svsm_ca *ca = ca_get();
	uint16_t hdr[4] = {1, 0, 0, 0};

	memcpy(ca->buffer, hdr, sizeof(hdr));
	memcpy(ca->buffer + 8, &entry, 8);
	return call(C_PVALIDATE, (uint64_t)ca->buffer, 0, 0);
}

static void shared_page_inside_2m(uint64_t base)
{
	uint64_t page = base + 0x5000;

	/* set_memory_decrypted(): invalidate, then the PSC to shared. */
	CHECK_EQ(pvalidate_one(page), R_SUCCESS);
	CHECK_EQ(probe_read(page), FAULT_VC);
	CHECK_THAT(msr_page_state(page, true), "4 KiB PSC to shared");
	/* Shared: the host's page now. Through this private (C-bit)
	 * mapping the RMP refuses it, and KVM converts the page back to
	 * private (QEMU's kvm_convert_memory on KVM_EXIT_MEMORY_FAULT): the
	 * access retried faults as not validated. Linux remaps it without
	 * the C-bit instead. */
	CHECK_EQ(probe_write(page), FAULT_VC);
	CHECK_EQ(probe_error, 0x404);
	/* The other 511 pages keep their validation. */
	CHECK_EQ(probe_write(base), 0);
	CHECK_EQ(probe_write(page - PAGE), 0);
	CHECK_EQ(probe_write(page + PAGE), 0);
	CHECK_EQ(probe_write(base + SPAN_2M - 1), 0);
	/* set_memory_encrypted(): the PSC to private, then validate. */
	CHECK_THAT(msr_page_state(page, false), "4 KiB PSC to private");
	CHECK_EQ(probe_read(page), FAULT_VC);
	CHECK_EQ(pvalidate_one(page | PV_VALIDATE), R_SUCCESS);
	CHECK_EQ(probe_write(page), 0);
	/* The guest's own RMPADJUST (VMPL1 grants VMPL2) on a 4 KiB page of
	 * a 2 MiB entry: emulated on the same model, so also after a PSMASH. */
	CHECK_EQ(insn_rmpadjust(base + SPAN_2M + 0x7000, 0, 2 | 0x300), 0);
}

/* CREATE_VCPU's 4 KiB RMPADJUSTs (revoke, the VMSA bit) on a VMSA page
 * that lies in a 2 MiB entry. Not for the BSP's own APIC ID (as
 * tests_vcpu slot 0), so only with a second CPU. */
static void vmsa_inside_2m(uint64_t base)
{
	uint64_t vmsa = base + 0x42000;
	uint64_t caa = base + 0x43000;
	struct snp_vmsa *v = (struct snp_vmsa *)vmsa;

	if (g_cpu_count < 2) {
		return;
	}
	memset(v, 0, sizeof(*v));
	v->vmpl = 1;
	v->efer = g_rdmsr(MSR_EFER) | EFER_SVME_BIT;
	v->sev_features = g_rdmsr(MSR_SEV_STATUS) >> 2;
	CHECK_EQ(call(C_CREATE_VCPU, vmsa, caa, 1), R_SUCCESS);
	CHECK_EQ(probe_read(vmsa), 0);
	CHECK_EQ(probe_write(vmsa), FAULT_VC); /* a VMSA: read-only */
	CHECK_EQ(probe_write(vmsa - PAGE), 0);
	CHECK_EQ(probe_write(caa + PAGE), 0);
	CHECK_EQ(call(C_DELETE_VCPU, vmsa, 0, 0), R_SUCCESS);
	CHECK_EQ(probe_write(vmsa), 0);
}

void tests_rmp_2m(void)
{
	uint64_t base = G_RMP2M_BASE;

	g_section("2 MiB RMP entries: a shared page and a VMSA inside them");
	/* Two 2 MiB entries, validated 2 MiB each (no SIZEMISMATCH). */
	CHECK_EQ(pvalidate_one(base | PV_2M | PV_VALIDATE), R_SUCCESS);
	CHECK_EQ(pvalidate_one((base + SPAN_2M) | PV_2M | PV_VALIDATE),
		 R_SUCCESS);
	shared_page_inside_2m(base);
	vmsa_inside_2m(base + SPAN_2M);
}
