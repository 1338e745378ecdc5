/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's SNP instructions and guest-memory accesses on emu. QEMU has
 * no SNP (PVALIDATE and RMPADJUST are #UD under TCG), so the instructions
 * go to the software RMP, and every change is mirrored into the nested
 * page tables before the lock is dropped: the guest can never see a page
 * the RMP would not let it see. The SVSM's own accesses to guest memory
 * are checked against the RMP as the CPU checks a VMPL0 access.
 */
#include "svsm/check.h"
#include "svsm/plat.h"
#include "svsm/spinlock.h"
#include "svsm/std.h"

#include "abi/snp.h"

#include "emu_rmp.h"
#include "npt.h"
#include "smp.h"

struct rmp emu_rmp;
static struct spinlock rmp_lock;

void emu_rmp_lock(void)
{
	spin_lock(&rmp_lock);
}

void emu_rmp_unlock(void)
{
	spin_unlock(&rmp_lock);
}

uint64_t emu_rmp_storage_size(uint64_t page_count)
{
	return page_count * sizeof(struct rmp_entry);
}

void emu_rmp_init(void *storage, uint64_t page_count)
{
	spin_init(&rmp_lock);
	rmp_init(&emu_rmp, storage, page_count);
}

static uint64_t span(enum page_size size)
{
	return size == PAGE_2M ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;
}

enum snp_ret plat_pvalidate(gpa_t gpa, enum page_size size, bool validate,
			    bool *unchanged)
{
	enum snp_ret rc;

	emu_rmp_lock();
	rc = rmp_guest_pvalidate(&emu_rmp, 0, gpa_val(gpa), size, validate,
				 unchanged);
	if (rc == SNP_RET_SUCCESS) {
		npt_sync(gpa_val(gpa), span(size));
	}
	emu_rmp_unlock();
	return rc;
}

enum snp_ret plat_rmpadjust(gpa_t gpa, enum page_size size, uint64_t attrs)
{
	enum snp_ret rc;

	emu_rmp_lock();
	rc = rmp_guest_rmpadjust(&emu_rmp, 0, gpa_val(gpa), size, attrs);
	if (rc == SNP_RET_SUCCESS) {
		npt_sync(gpa_val(gpa), span(size));
	}
	emu_rmp_unlock();
	return rc;
}

/* The per-CPU block the entry code points FS at, before any C runs. */
const void *plat_cpu_self(void)
{
	return emu_this_cpu();
}

void plat_flush_guest_tlb(void)
{
	smp_flush_guest_tlbs();
}

enum snp_ret emu_rmp_page_state(uint64_t gpa, bool to_private)
{
	enum snp_ret rc;

	emu_rmp_lock();
	rc = rmp_hv_page_state(&emu_rmp, gpa, false, to_private);
	if (rc == SNP_RET_SUCCESS) {
		npt_sync(gpa, SNP_PAGE_SIZE);
	}
	emu_rmp_unlock();
	if (rc == SNP_RET_SUCCESS) {
		plat_flush_guest_tlb();
	}
	return rc;
}

/*
 * A VMPL0 access: the page must be guest-assigned and validated. Memory
 * is identity-mapped, so after the check the copy is a plain one. A page
 * another CPU invalidates during the copy is the guest racing itself; the
 * SVSM only ever reads or writes guest data there.
 */
static bool vmpl0_can_access(gpa_t gpa, size_t len)
{
	bool ok;

	emu_rmp_lock();
	ok = rmp_range_accessible(&emu_rmp, 0, gpa_val(gpa), len,
				  RMP_PERM_READ);
	emu_rmp_unlock();
	return ok;
}

bool plat_guest_read(gpa_t gpa, void *dst, size_t len)
{
	if (!vmpl0_can_access(gpa, len)) {
		return false;
	}
	memcpy(dst, (const void *)gpa_val(gpa), len);
	return true;
}

bool plat_guest_write(gpa_t gpa, const void *src, size_t len)
{
	if (!vmpl0_can_access(gpa, len)) {
		return false;
	}
	memcpy((void *)gpa_val(gpa), src, len);
	return true;
}

bool plat_guest_zero(gpa_t gpa, size_t len)
{
	if (!vmpl0_can_access(gpa, len)) {
		return false;
	}
	memset((void *)gpa_val(gpa), 0, len);
	return true;
}

bool plat_guest_xchg_u8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	if (!vmpl0_can_access(gpa, 1)) {
		return false;
	}
	*old = __atomic_exchange_n((uint8_t *)gpa_val(gpa), val,
				   __ATOMIC_SEQ_CST);
	return true;
}

void *plat_map_private(gpa_t gpa, size_t len)
{
	uint64_t top = emu_rmp.page_count * SNP_PAGE_SIZE;

	/* Callers own the range: anything else is an SVSM bug. */
	CHECK(len != 0 && gpa_val(gpa) < top && len <= top - gpa_val(gpa));
	return (void *)gpa_val(gpa);
}

void plat_unmap_private(void *va, size_t len)
{
	(void)va;
	(void)len;
}
