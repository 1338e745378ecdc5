/* SPDX-License-Identifier: MIT */
/*
 * The platform operations (svsm/plat.h) of the snp platform, one file for
 * SEV-SNP hardware and the simulator: what is an instruction or a mapping
 * goes through the seam snp_hw.h (hw/hw_x86.c on hardware,
 * sim/src/model/snp_insn_sim.c over the RMP model in csvsm-tests-snp); the
 * console, guest requests and termination go through the GHCB client.
 * Entropy and the clock are the CPU's (src/arch/x86/rng_clock.c; the
 * simulator's stand-in is sim/src/model/cpu.c).
 */
#include "svsm/check.h"
#include "svsm/plat.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "ghcb.h"
#include "snp_cpu.h"
#include "snp_hw.h"

enum snp_ret plat_pvalidate(gpa_t gpa, enum page_size size, bool validate,
			    bool *unchanged)
{
	return snp_hw_pvalidate(gpa, size == PAGE_2M, validate, unchanged);
}

enum snp_ret plat_rmpadjust(gpa_t gpa, enum page_size size, uint64_t attrs)
{
	return snp_hw_rmpadjust(gpa, size == PAGE_2M, attrs);
}

/* Set by each CPU before any SVSM code runs on it (snp_boot, AP entry). */
const void *plat_cpu_self(void)
{
	return snp_hw_this_cpu();
}

void plat_flush_guest_tlb(void)
{
	snp_hw_flush_tlb();
}

bool plat_guest_read(gpa_t gpa, void *dst, size_t len)
{
	return snp_hw_guest_read(gpa, dst, len);
}

bool plat_guest_write(gpa_t gpa, const void *src, size_t len)
{
	return snp_hw_guest_write(gpa, src, len);
}

bool plat_guest_zero(gpa_t gpa, size_t len)
{
	return snp_hw_guest_zero(gpa, len);
}

bool plat_guest_xchg_u8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	return snp_hw_guest_xchg8(gpa, val, old);
}

void *plat_map_private(gpa_t gpa, size_t len)
{
	/* Callers own the range (the SVSM region, or a VMSA page in guest
	 * RAM the SVSM claimed): mapped private. */
	CHECK(len != 0 && gpa_val(gpa) + len > gpa_val(gpa));
	return snp_hw_map_private(gpa, len);
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
	snp_hw_library_call();
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
