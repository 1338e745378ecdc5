/* SPDX-License-Identifier: MIT */
/*
 * The sim platform (libcsvsm_sim.a): the SVSM runs as ordinary hosted
 * code; "hardware" is the simulated machine, which it reaches only
 * through the seam sim_hw.h (implemented by sim/src/model/sim_hw.c over
 * the RMP model and guest memory). Accesses the SVSM makes at VMPL0 are
 * checked against the RMP as the CPU would, so an SVSM bug that touches
 * an unvalidated page shows as a fault here too. Its console, guest
 * requests and termination need no hypervisor protocol; the snp
 * platform's go through the GHCB (plat_snp.c, libcsvsm_sim_snp.a).
 */
#include <string.h>

#include "svsm/check.h"
#include "svsm/mem.h"
#include "svsm/plat.h"

#include "sim_hw.h"

enum snp_ret plat_pvalidate(gpa_t gpa, enum page_size size, bool validate,
			    bool *unchanged)
{
	return sim_hw_pvalidate(gpa, size == PAGE_2M, validate, unchanged);
}

enum snp_ret plat_rmpadjust(gpa_t gpa, enum page_size size, uint64_t attrs)
{
	return sim_hw_rmpadjust(gpa, size == PAGE_2M, attrs);
}

/* The vCPU whose VMPL0 entry runs (nested entries included); the boot
 * CPU outside entries. */
const void *plat_cpu_self(void)
{
	return sim_hw_cpu_self();
}

void plat_flush_guest_tlb(void)
{
	sim_hw_flush_tlb();
}

/* VMPL0 may access any validated guest-owned page. */
bool plat_guest_read(gpa_t gpa, void *dst, size_t len)
{
	return sim_hw_guest_read(gpa, dst, len);
}

bool plat_guest_write(gpa_t gpa, const void *src, size_t len)
{
	return sim_hw_guest_write(gpa, src, len);
}

bool plat_guest_zero(gpa_t gpa, size_t len)
{
	return sim_hw_guest_zero(gpa, len);
}

bool plat_guest_xchg_u8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	return sim_hw_guest_xchg8(gpa, val, old);
}

void *plat_map_private(gpa_t gpa, size_t len)
{
	return sim_hw_map_private(gpa, len);
}

void plat_unmap_private(void *va, size_t len)
{
	(void)va;
	(void)len;
}

/* A hosted process: the compiler and the C library own the SIMD state.
 * The bracket is where the SVSM enters the libraries, so it is where
 * another CPU's calls may run meanwhile, if this one left the ownership
 * lock (sim_during_next_library_call). */
void plat_simd_begin(void)
{
	sim_hw_library_call();
}

void plat_simd_end(void)
{
}

void plat_console_write(const char *s, size_t len)
{
	sim_hw_console_write(s, len);
}

uint64_t plat_guest_request(const void *req, void *rsp, void *certs,
			    size_t *certs_len)
{
	return sim_hw_guest_request(req, rsp, certs, certs_len);
}

/* The simulated host's devices: they serve every access, unassigned
 * addresses reading all ones. */
bool plat_mmio_read(gpa_t gpa, unsigned size, uint32_t *val)
{
	uint8_t data[8] = {0};

	CHECK(size == 1 || size == 2 || size == 4);
	sim_hw_mmio(gpa, size, false, data);
	*val = 0;
	memcpy(val, data, size);
	return true;
}

bool plat_mmio_write(gpa_t gpa, unsigned size, uint32_t val)
{
	uint8_t data[8] = {0};

	CHECK(size == 1 || size == 2 || size == 4);
	memcpy(data, &val, size);
	sim_hw_mmio(gpa, size, true, data);
	return true;
}

/* As snp does it: rescind validation, then the host makes them shared. */
void *plat_shared_alloc(unsigned order, gpa_t *gpa)
{
	unsigned pages = 1u << order, i;
	void *p;

	CHECK(order >= 1 && order < 16);
	p = page_alloc(order);
	if (p == NULL) {
		return NULL;
	}
	*gpa = page_to_gpa(p);
	for (i = 0; i < pages; i++) {
		bool unchanged = false;

		CHECK(plat_pvalidate(gpa_add(*gpa, (uint64_t)i * SNP_PAGE_SIZE),
				     PAGE_4K, false,
				     &unchanged) == SNP_RET_SUCCESS);
	}
	sim_hw_share(*gpa, pages);
	memset(p, 0, (size_t)SNP_PAGE_SIZE << order);
	return p;
}

void plat_terminate(uint32_t reason_set, uint32_t reason_code)
{
	sim_hw_terminate(reason_set, reason_code);
}
