/* SPDX-License-Identifier: MIT */
#include "walk.h"

#include "svsm/std.h"

#include "abi/x86_regs.h"

#include "machine/layout.h"
#include "machine/machine.h"
#include "rmp.h"

#define PTE_P 1ull
#define PTE_RW (1ull << 1)
#define PTE_US (1ull << 2)
#define PTE_A (1ull << 5)
#define PTE_D (1ull << 6)
#define PTE_PS (1ull << 7)
#define PF_P 1u
#define PF_W 2u
#define PF_U 4u
#define CR4_SMAP_BIT (1ull << 21)
#define RFLAGS_AC_BIT (1ull << 18)
#define OPERAND_PAGES 3u	       /* XSAVE areas: up to 4 KiB, unaligned */
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
 * data is accessed. Each entry read goes to @entry (up to 5, top level
 * first; *@n of them) when @entry is not NULL. */
static bool walk_traced(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
			uint64_t *gpa, uint64_t entry[5], unsigned *n)
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
				 &pte, sizeof(pte), RMP_PERM_READ, false)) {
			return false;
		}
		if (entry != NULL) {
			entry[(*n)++] = pte;
		}
		if ((pte & PTE_P) == 0) {
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

static bool walk(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
		 uint64_t *gpa)
{
	return walk_traced(v, vmpl, va, gpa, NULL, NULL);
}

unsigned gw_trace(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
		  uint64_t entry[5])
{
	uint64_t gpa;
	unsigned n = 0;

	if ((v->cr0 & CR0_PG_BIT) == 0) {
		return 0;
	}
	rmp_lock();
	(void)walk_traced(v, vmpl, va, &gpa, entry, &n);
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

/* How many of the @len - @done bytes left of an access at @va lie in
 * the page where byte @done falls. */
static size_t page_chunk(uint64_t va, size_t done, size_t len)
{
	size_t in_page = PAGE - (size_t)((va + done) & (PAGE - 1));

	return len - done < in_page ? len - done : in_page;
}

static bool copy(const struct snp_vmsa *v, unsigned vmpl, uint64_t va,
		 void *buf, size_t len, unsigned perm, bool write)
{
	size_t done = 0;
	bool ok = true;

	rmp_lock();
	while (ok && done < len) {
		uint64_t gpa;
		size_t n = page_chunk(va, done, len);

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

/* The host bytes of the guest page-table entry at @gpa (private, as SNP
 * walks them), NULL if the RMP refuses this VMPL reading or writing it
 * (the walk sets accessed and dirty bits). Under rmp_lock. */
static uint64_t *entry_ptr(unsigned vmpl, uint64_t gpa)
{
	uint64_t g = gpa & ~MACHINE_C_MASK;

	if (rmp_check_access(&machine_rmp, vmpl, g & ~(PAGE - 1),
			     RMP_PERM_READ | RMP_PERM_WRITE) != RMP_ACCESS_OK) {
		return NULL;
	}
	return guest_ptr(g, sizeof(uint64_t));
}

/* One page of an operand: walk_traced()'s walk with the CPU's checks
 * and accessed bits (walk.h); its guest physical address in *@gpa, the
 * leaf entry in *@leaf. Under rmp_lock. */
static enum gw_result operand_page(const struct snp_vmsa *v, unsigned vmpl,
				   uint64_t va, unsigned how, uint64_t *gpa,
				   uint64_t **leaf, struct gw_fault *f)
{
	bool user = v->cpl == 3, write = (how & GW_WRITE) != 0;
	bool wp = user || (v->cr0 & CR0_WP) != 0;
	uint64_t table = v->cr3 & PTE_ADDR, all = PTE_RW | PTE_US;
	int level = (v->cr4 & CR4_LA57_BIT) != 0 ? 4 : 3;
	uint32_t err = (write ? PF_W : 0) | (user ? PF_U : 0);

	if ((v->cr0 & CR0_PG_BIT) == 0 || (v->efer & EFER_LMA_BIT) == 0) {
		return GW_REFUSED; /* the machine walks long mode only */
	}
	for (; level >= 0; level--) {
		unsigned shift = 12u + 9u * (unsigned)level;
		uint64_t *e =
			entry_ptr(vmpl, (table | MACHINE_C_MASK) +
						((va >> shift) & 511u) * 8);
		uint64_t pte;

		if (e == NULL) {
			return GW_REFUSED;
		}
		pte = __atomic_load_n(e, __ATOMIC_ACQUIRE);
		if ((pte & PTE_P) == 0) {
			*f = (struct gw_fault){va, err};
			return GW_PF;
		}
		all &= pte;
		if ((pte & PTE_A) == 0) {
			__atomic_fetch_or(e, PTE_A, __ATOMIC_ACQ_REL);
		}
		if (level == 0 ||
		    ((level == 1 || level == 2) && (pte & PTE_PS) != 0)) {
			uint64_t mask = (1ull << shift) - 1;

			*gpa = ((pte & PTE_ADDR) & ~mask) | (va & mask);
			*leaf = e;
			break;
		}
		table = pte & PTE_ADDR;
	}
	if ((user && (all & PTE_US) == 0) ||
	    (write && wp && (all & PTE_RW) == 0) ||
	    (!user && (all & PTE_US) != 0 && (v->cr4 & CR4_SMAP_BIT) != 0 &&
	     (v->rflags & RFLAGS_AC_BIT) == 0)) {
		*f = (struct gw_fault){va, err | PF_P};
		return GW_PF;
	}
	return GW_OK;
}

static enum gw_result operand(const struct snp_vmsa *v, unsigned vmpl,
			      uint64_t va, void *buf, size_t len, unsigned how,
			      bool store, struct gw_fault *f)
{
	uint64_t gpa[OPERAND_PAGES], *leaf[OPERAND_PAGES];
	size_t done = 0;
	unsigned n = 0, i;
	enum gw_result r = GW_OK;

	if (len == 0 || len > (OPERAND_PAGES - 1) * PAGE + 1) {
		return GW_REFUSED;
	}
	rmp_lock();
	/* Every page first: a fault leaves memory as it was. */
	while (r == GW_OK && done < len) {
		r = operand_page(v, vmpl, va + done, how, &gpa[n], &leaf[n], f);
		done += page_chunk(va, done, len);
		n++;
	}
	for (i = 0, done = 0; r == GW_OK && i < n; i++) {
		size_t k = page_chunk(va, done, len);

		if (!phys_access(vmpl, gpa[i], (uint8_t *)buf + done, k,
				 store ? RMP_PERM_READ | RMP_PERM_WRITE
				       : RMP_PERM_READ,
				 store)) {
			r = GW_REFUSED;
		} else if (store) {
			__atomic_fetch_or(leaf[i], PTE_D, __ATOMIC_ACQ_REL);
		}
		done += k;
	}
	rmp_unlock();
	return r;
}

enum gw_result gw_operand_read(const struct snp_vmsa *v, unsigned vmpl,
			       uint64_t va, void *buf, size_t len, unsigned how,
			       struct gw_fault *f)
{
	return operand(v, vmpl, va, buf, len, how, false, f);
}

enum gw_result gw_operand_write(const struct snp_vmsa *v, unsigned vmpl,
				uint64_t va, const void *buf, size_t len,
				struct gw_fault *f)
{
	return operand(v, vmpl, va, (void *)buf, len, GW_WRITE, true, f);
}
