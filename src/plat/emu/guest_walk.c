/* SPDX-License-Identifier: MIT */
#include "guest_walk.h"

#include "svsm/guestmem.h"
#include "svsm/owner_lock.h"

#include "arch.h"

#define PTE_P 1ull
#define PTE_PS (1ull << 7)
#define PTE_ADDR 0x000FFFFFFFFFF000ull
#define CR4_LA57 (1ull << 12)

static bool walk(const struct snp_vmsa *vmsa, uint64_t va, uint64_t *gpa)
{
	uint64_t table = vmsa->cr3 & PTE_ADDR;
	int level;

	if ((vmsa->cr0 & CR0_PG) == 0) {
		*gpa = va; /* paging off: physical */
		return true;
	}
	if ((vmsa->efer & EFER_LMA) == 0 || (vmsa->cr4 & CR4_LA57) != 0) {
		return false; /* only 4-level long mode is walked */
	}
	for (level = 3; level >= 0; level--) {
		unsigned shift = 12u + 9u * (unsigned)level;
		uint64_t idx = (va >> shift) & 511u;
		uint64_t pte;

		if (guestmem_read(gpa_init(table + idx * 8), &pte,
				  sizeof(pte)) != SVSM_OK ||
		    (pte & PTE_P) == 0) {
			return false;
		}
		if ((level == 1 || level == 2) && (pte & PTE_PS) != 0) {
			uint64_t mask = (1ull << shift) - 1;

			*gpa = ((pte & PTE_ADDR) & ~mask) | (va & mask);
			return true;
		}
		table = pte & PTE_ADDR;
	}
	*gpa = table | (va & 0xFFFu);
	return true;
}

/* guestmem checks ownership: under the ownership lock. */
bool guest_va_to_gpa(const struct snp_vmsa *vmsa, uint64_t va, uint64_t *gpa)
{
	bool ok;

	owner_lock();
	ok = walk(vmsa, va, gpa);
	owner_unlock();
	return ok;
}

static bool fetch(const struct snp_vmsa *vmsa, uint64_t va, uint8_t *buf,
		  size_t len)
{
	size_t done = 0;

	while (done < len) {
		uint64_t gpa;
		size_t in_page = 4096u - (size_t)((va + done) & 0xFFFu);
		size_t n = len - done < in_page ? len - done : in_page;

		if (!walk(vmsa, va + done, &gpa) ||
		    guestmem_read(gpa_init(gpa), buf + done, n) != SVSM_OK) {
			return false;
		}
		done += n;
	}
	return true;
}

bool guest_fetch(const struct snp_vmsa *vmsa, uint64_t va, uint8_t *buf,
		 size_t len)
{
	bool ok;

	if (len > 15) {
		return false;
	}
	owner_lock();
	ok = fetch(vmsa, va, buf, len);
	owner_unlock();
	return ok;
}
