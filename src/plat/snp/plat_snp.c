/* SPDX-License-Identifier: MIT */
/*
 * The platform operations (svsm/plat.h) on SEV-SNP hardware. Memory is
 * identity-mapped (hw/paging.c), so a GPA is also the VA the instructions
 * take. Accesses to guest pages go through the fault-tolerant routines
 * of hw/insn.S: a guest page that is not validated raises #VC, which the
 * trap handler turns into a failed access, never an SVSM crash.
 *
 * Threat: a guest page the guest made shared is hypervisor-owned; a
 * private (C-bit) access to it is an RMP fault the hypervisor sees as
 * #NPF. What KVM does then (convert the page, or stop the VM) is its
 * choice and cannot expose SVSM data: the access reads or writes only
 * that guest page.
 */
#include "svsm/check.h"
#include "svsm/plat.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "../ghcb.h"
#include "../snp_hw.h"
#include "../snp_main.h"
#include "fw_cpu.h"

static uint64_t rmp_size(enum page_size size)
{
	return size == PAGE_2M ? 1u : 0u;
}

enum snp_ret plat_pvalidate(gpa_t gpa, enum page_size size, bool validate,
			    bool *unchanged)
{
	return snp_insn_pvalidate(gpa_val(gpa), rmp_size(size),
				  validate ? 1 : 0, unchanged);
}

enum snp_ret plat_rmpadjust(gpa_t gpa, enum page_size size, uint64_t attrs)
{
	return snp_insn_rmpadjust(gpa_val(gpa), rmp_size(size), attrs);
}

/* Set by each CPU before any SVSM code runs on it (snp_boot, AP entry). */
const void *plat_cpu_self(void)
{
	return snp_hw_this_cpu();
}

void plat_flush_guest_tlb(void)
{
	snp_insn_flush_all();
}

bool plat_guest_read(gpa_t gpa, void *dst, size_t len)
{
	return snp_insn_copy(dst, (const void *)gpa_val(gpa), len);
}

bool plat_guest_write(gpa_t gpa, const void *src, size_t len)
{
	return snp_insn_copy((void *)gpa_val(gpa), src, len);
}

bool plat_guest_zero(gpa_t gpa, size_t len)
{
	return snp_insn_zero((void *)gpa_val(gpa), len);
}

bool plat_guest_xchg_u8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	return snp_insn_xchg8((volatile uint8_t *)gpa_val(gpa), val, old);
}

void *plat_map_private(gpa_t gpa, size_t len)
{
	/* Callers own the range (the SVSM region, or a VMSA page in guest
	 * RAM the SVSM claimed): identity-mapped, private. */
	CHECK(len != 0 && gpa_val(gpa) + len > gpa_val(gpa));
	return (void *)gpa_val(gpa);
}

void plat_unmap_private(void *va, size_t len)
{
	(void)va;
	(void)len;
}

void plat_console_write(const char *s, size_t len)
{
	snp_console_write(s, len);
}

/*
 * The SVSM's x87/SSE/AVX registers are its own: each VMPL has its own
 * VMSA, which holds them, so the guest never sees the libraries' values
 * and cannot change their MXCSR. Brackets still never nest.
 */
static bool in_bracket;

void plat_simd_begin(void)
{
	CHECK(!in_bracket);
	in_bracket = true;
}

void plat_simd_end(void)
{
	CHECK(in_bracket);
	in_bracket = false;
}

uint64_t plat_guest_request(const void *req, void *rsp, void *certs,
			    size_t *certs_len)
{
	return snp_plat_guest_request(req, rsp, certs, certs_len);
}

void plat_terminate(uint32_t reason_set, uint32_t reason_code)
{
	ghcb_msr_terminate(reason_set, reason_code);
}
