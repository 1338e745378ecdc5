/* SPDX-License-Identifier: MIT */
#include "walk.h"

#include "svsm/std.h"

#include "layout.h"
#include "machine.h"
#include "rmp.h"

#define PTE_P 1ull
#define PTE_PS (1ull << 7)
#define PTE_ADDR 0x000FFFFFFFFFF000ull /* bits 51:12, the C-bit included */
#define CR0_PG_BIT (1ull << 31)
#define CR4_LA57_BIT (1ull << 12)
#define EFER_LMA_BIT (1ull << 10)

/* One physical access of @len bytes (within a page) at @gpa, C-bit
 * included, checked as the CPU checks it at @vmpl. Under rmp_lock. */
static bool phys_access(unsigned vmpl, uint64_t gpa, void *buf, size_t len,
			unsigned perm, bool write)
{
	uint64_t g = gpa & ~MACHINE_C_MASK;
	uint8_t *p = guest_ptr(g, len);
	bool ok;

	if (p == NULL) {
		return false;
	}
	if ((gpa & MACHINE_C_MASK) != 0) {
		ok = rmp_check_access(&machine_rmp, vmpl, g & ~(PAGE - 1),
				      perm) == RMP_ACCESS_OK;
	} else {
		ok = (perm & (RMP_PERM_EXEC_SUPER | RMP_PERM_EXEC_USER)) == 0 &&
		     rmp_check_shared_access(&machine_rmp, g & ~(PAGE - 1)) ==
			     RMP_ACCESS_OK;
	}
	if (ok) {
		if (write) {
			memcpy(p, buf, len);
		} else {
			memcpy(buf, p, len);
		}
	}
	return ok;
}

/* The guest's tables are read privately whatever the C-bit in CR3 or an
 * entry says, as SNP hardware walks them; the leaf's C-bit says how the
 * data is accessed. */
static bool walk(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
		 uint64_t *gpa)
{
	uint64_t table = v->cr3 & PTE_ADDR;
	int level = (v->cr4 & CR4_LA57_BIT) != 0 ? 4 : 3;

	if ((v->cr0 & CR0_PG_BIT) == 0) {
		/* Paging off: physical, and private (SNP encrypts every
		 * access then). */
		*gpa = va | MACHINE_C_MASK;
		return true;
	}
	if ((v->efer & EFER_LMA_BIT) == 0) {
		return false; /* only long mode is walked */
	}
	for (; level >= 0; level--) {
		unsigned shift = 12u + 9u * (unsigned)level;
		uint64_t pte;

		if (!phys_access(vmpl,
				 (table | MACHINE_C_MASK) +
					 ((va >> shift) & 511u) * 8,
				 &pte, sizeof(pte), RMP_PERM_READ, false) ||
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
	*gpa = table | (va & (PAGE - 1));
	return true;
}

unsigned gw_trace(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
		  uint64_t entry[5])
{
	uint64_t table = v->cr3 & PTE_ADDR;
	int level = (v->cr4 & CR4_LA57_BIT) != 0 ? 4 : 3;
	unsigned n = 0;

	if ((v->cr0 & CR0_PG_BIT) == 0 || (v->efer & EFER_LMA_BIT) == 0) {
		return 0;
	}
	rmp_lock();
	for (; level >= 0 && n < 5; level--) {
		unsigned shift = 12u + 9u * (unsigned)level;
		uint64_t pte;

		if (!phys_access(vmpl,
				 (table | MACHINE_C_MASK) +
					 ((va >> shift) & 511u) * 8,
				 &pte, sizeof(pte), RMP_PERM_READ, false)) {
			break;
		}
		entry[n++] = pte;
		if ((pte & PTE_P) == 0 ||
		    ((level == 1 || level == 2) && (pte & PTE_PS) != 0)) {
			break;
		}
		table = pte & PTE_ADDR;
	}
	rmp_unlock();
	return n;
}

bool gw_translate(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
		  uint64_t *gpa)
{
	bool ok;

	rmp_lock();
	ok = walk(v, vmpl, va, gpa);
	rmp_unlock();
	return ok;
}

static bool copy(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
		 void *buf, size_t len, unsigned perm, bool write)
{
	size_t done = 0;
	bool ok = true;

	rmp_lock();
	while (ok && done < len) {
		uint64_t gpa;
		size_t in_page = PAGE - (size_t)((va + done) & (PAGE - 1));
		size_t n = len - done < in_page ? len - done : in_page;

		ok = walk(v, vmpl, va + done, &gpa);
		/* Instruction fetches are private, whatever the leaf says. */
		if ((perm & RMP_PERM_EXEC_SUPER) != 0) {
			gpa |= MACHINE_C_MASK;
		}
		ok = ok && phys_access(vmpl, gpa, (uint8_t *)buf + done, n,
				       perm, write);
		done += n;
	}
	rmp_unlock();
	return ok;
}

bool gw_read(const struct snp_vmsa *v, unsigned vmpl, uint64_t va, void *buf,
	     size_t len, bool fetch)
{
	return copy(v, vmpl, va, buf, len,
		    fetch ? RMP_PERM_READ | RMP_PERM_EXEC_SUPER : RMP_PERM_READ,
		    false);
}

bool gw_write(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
	      const void *buf, size_t len)
{
	return copy(v, vmpl, va, (void *)buf, len,
		    RMP_PERM_READ | RMP_PERM_WRITE, true);
}
