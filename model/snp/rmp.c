/* SPDX-License-Identifier: MIT */
/*
 * The RMP model. Freestanding: it owns no memory and calls nothing, so the
 * emu firmware and the hosted simulator link the same object.
 */
#include "abi/snp.h"

#include "model/snpmodel.h"

#define PAGE_SHIFT 12u
#define PAGES_2M 512u

static void rmp_clear(struct rmp_entry *e, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		e[i].flags = 0;
		e[i].perms[0] = 0;
		e[i].perms[1] = 0;
		e[i].perms[2] = 0;
		e[i].perms[3] = 0;
	}
}

void rmp_init(struct rmp *rmp, struct rmp_entry *storage, uint64_t page_count)
{
	rmp->entry = storage;
	rmp->page_count = page_count;
	rmp->bank[0] = (struct rmp_bank){0, page_count, 0};
	rmp->banks = 1;
	rmp->owner_changed = NULL;
	rmp_clear(storage, page_count);
}

bool rmp_add_bank(struct rmp *rmp, uint64_t gpa, uint64_t pages)
{
	const uint64_t span = (uint64_t)1 << 52;
	unsigned i;

	if (rmp->banks == RMP_MAX_BANKS || pages == 0 ||
	    rmp->page_count % PAGES_2M != 0 ||
	    (gpa & (SNP_PAGE_SIZE_2M - 1)) != 0 || pages % PAGES_2M != 0 ||
	    gpa >= span || pages > (span - gpa) >> PAGE_SHIFT) {
		return false;
	}
	for (i = 0; i < rmp->banks; i++) {
		const struct rmp_bank *b = &rmp->bank[i];
		uint64_t end = b->gpa + (b->pages << PAGE_SHIFT);

		if (gpa < end && b->gpa < gpa + (pages << PAGE_SHIFT)) {
			return false;
		}
	}
	rmp->bank[rmp->banks++] =
		(struct rmp_bank){gpa, pages, rmp->page_count};
	rmp_clear(rmp->entry + rmp->page_count, pages);
	rmp->page_count += pages;
	return true;
}

/* The bank holding @pfn, or NULL. */
static const struct rmp_bank *rmp_bank_of(const struct rmp *rmp, uint64_t pfn)
{
	unsigned i;

	for (i = 0; i < rmp->banks; i++) {
		const struct rmp_bank *b = &rmp->bank[i];
		uint64_t first = b->gpa >> PAGE_SHIFT;

		if (pfn >= first && pfn - first < b->pages) {
			return b;
		}
	}
	return NULL;
}

bool rmp_index(const struct rmp *rmp, uint64_t gpa, uint64_t *index)
{
	uint64_t pfn = gpa >> PAGE_SHIFT;
	const struct rmp_bank *b = rmp_bank_of(rmp, pfn);

	if (b == NULL) {
		return false;
	}
	*index = b->index + (pfn - (b->gpa >> PAGE_SHIFT));
	return true;
}

bool rmp_backed(const struct rmp *rmp, uint64_t gpa, uint64_t len)
{
	const struct rmp_bank *b = rmp_bank_of(rmp, gpa >> PAGE_SHIFT);

	return b != NULL && len != 0 &&
	       len <= (b->pages << PAGE_SHIFT) - (gpa - b->gpa);
}

const struct rmp_entry *rmp_lookup(const struct rmp *rmp, uint64_t gpa)
{
	uint64_t i;

	return rmp_index(rmp, gpa, &i) ? &rmp->entry[i] : NULL;
}

/* The first entry and count of an operation, or false if out of range.
 * A 2 MiB span is whole in one bank (banks hold whole 2 MiB). */
static bool rmp_span(const struct rmp *rmp, uint64_t gpa, bool size_2m,
		     uint64_t *first, uint64_t *count)
{
	uint64_t pfn = gpa >> PAGE_SHIFT;

	if ((gpa & (SNP_PAGE_SIZE - 1)) != 0 ||
	    (size_2m && (pfn & (PAGES_2M - 1)) != 0) ||
	    !rmp_index(rmp, gpa, first)) {
		return false;
	}
	*count = size_2m ? PAGES_2M : 1u;
	return true;
}

/* The first entry is one of a 2 MiB entry (all 512 are flagged alike, as
 * rmp_hv_assign makes them). */
static bool rmp_is_2m(const struct rmp *rmp, uint64_t pfn)
{
	return (rmp->entry[pfn].flags & RMP_F_SIZE_2M) != 0;
}

/*
 * The RMP checks of a guest instruction over a span, before it acts. The
 * instruction's RMP entry is the span's first (2 MiB-aligned for 2 MiB):
 * - it must be assigned to the guest, or hardware raises #NPF (reported
 *   as FAIL_INPUT, see snpmodel.h);
 * - a 4 KiB operation on a 2 MiB entry raises #NPF with SIZEM
 *   (RMP_NPF_SIZEM): the hypervisor must PSMASH and resume;
 * - a 2 MiB operation on a 4 KiB entry is FAIL_SIZEMISMATCH; on a 2 MiB
 *   one, every page of the span must still be assigned (FAIL_INPUT) and
 *   of that one 2 MiB entry (FAIL_SIZEMISMATCH), not only the first.
 */
static uint32_t rmp_insn_check(const struct rmp *rmp, uint64_t first,
			       uint64_t count, bool size_2m)
{
	uint64_t i;

	if ((rmp->entry[first].flags & RMP_F_ASSIGNED) == 0) {
		return SNP_RET_FAIL_INPUT;
	}
	if (!size_2m) {
		return rmp_is_2m(rmp, first) ? RMP_NPF_SIZEM : SNP_RET_SUCCESS;
	}
	if (!rmp_is_2m(rmp, first)) {
		return SNP_RET_FAIL_SIZEMISMATCH;
	}
	for (i = first; i < first + count; i++) {
		if ((rmp->entry[i].flags & RMP_F_ASSIGNED) == 0) {
			return SNP_RET_FAIL_INPUT;
		}
		if (!rmp_is_2m(rmp, i)) {
			return SNP_RET_FAIL_SIZEMISMATCH;
		}
	}
	return SNP_RET_SUCCESS;
}

/* Whether a page of the span is a VMSA a CPU is running. */
static bool rmp_any_in_use(const struct rmp *rmp, uint64_t first,
			   uint64_t count)
{
	uint64_t i;

	for (i = first; i < first + count; i++) {
		if (rmp->entry[i].flags & RMP_F_IN_USE) {
			return true;
		}
	}
	return false;
}

static void rmp_set_all(struct rmp *rmp, uint64_t first, uint64_t count,
			const struct rmp_entry *e)
{
	uint64_t i;

	for (i = first; i < first + count; i++) {
		rmp->entry[i] = *e;
	}
}

/* RMPUPDATE of a span to @e; refused while a page of it runs as a VMSA.
 * A 4 KiB RMPUPDATE inside a 2 MiB entry is FAIL_OVERLAP, as on hardware
 * (Linux's RMPUPDATE_FAIL_OVERLAP): the hypervisor must PSMASH first. */
static enum snp_ret rmp_hv_update(struct rmp *rmp, uint64_t gpa, bool size_2m,
				  const struct rmp_entry *e)
{
	uint64_t first;
	uint64_t count;

	if (!rmp_span(rmp, gpa, size_2m, &first, &count)) {
		return SNP_RET_FAIL_INPUT;
	}
	if (!size_2m && rmp_is_2m(rmp, first)) {
		return SNP_RET_FAIL_OVERLAP;
	}
	if (rmp_any_in_use(rmp, first, count)) {
		return SNP_RET_FAIL_INUSE;
	}
	if (rmp->owner_changed != NULL) {
		bool to_guest = (e->flags & RMP_F_ASSIGNED) != 0;
		uint64_t i;

		for (i = first; i < first + count; i++) {
			if (((rmp->entry[i].flags & RMP_F_ASSIGNED) != 0) !=
			    to_guest) {
				rmp->owner_changed(i, to_guest);
			}
		}
	}
	rmp_set_all(rmp, first, count, e);
	return SNP_RET_SUCCESS;
}

enum snp_ret rmp_hv_assign(struct rmp *rmp, uint64_t gpa, bool size_2m)
{
	struct rmp_entry e = {.flags = RMP_F_ASSIGNED};

	if (size_2m) {
		e.flags |= RMP_F_SIZE_2M;
	}
	return rmp_hv_update(rmp, gpa, size_2m, &e);
}

enum snp_ret rmp_hv_unassign(struct rmp *rmp, uint64_t gpa, bool size_2m)
{
	struct rmp_entry e = {.flags = 0};

	return rmp_hv_update(rmp, gpa, size_2m, &e);
}

enum snp_ret rmp_hv_psmash(struct rmp *rmp, uint64_t gpa)
{
	uint64_t first;
	uint64_t count;
	uint64_t i;

	if (!rmp_span(rmp, gpa, true, &first, &count) ||
	    !rmp_is_2m(rmp, first)) {
		return SNP_RET_FAIL_INPUT;
	}
	for (i = first; i < first + count; i++) {
		rmp->entry[i].flags &= (uint8_t)~RMP_F_SIZE_2M;
	}
	return SNP_RET_SUCCESS;
}

enum snp_ret rmp_launch_page(struct rmp *rmp, uint64_t gpa)
{
	struct rmp_entry e = {.flags = RMP_F_ASSIGNED | RMP_F_VALIDATED};
	uint64_t first;
	uint64_t count;

	if (!rmp_span(rmp, gpa, false, &first, &count)) {
		return SNP_RET_FAIL_INPUT;
	}
	/* SNP_LAUNCH_UPDATE validates a page the guest does not hold yet
	 * (hypervisor-owned, or assigned and not validated, as KVM's
	 * private memory starts): one already launched is refused, never
	 * measured twice. */
	if ((rmp->entry[first].flags & RMP_F_VALIDATED) != 0) {
		return SNP_RET_FAIL_INPUT;
	}
	/* A 4 KiB page of a 2 MiB entry: the rest keep their state as 4 KiB
	 * entries, so the RMP never holds a partial 2 MiB entry. */
	if (rmp_is_2m(rmp, first)) {
		(void)rmp_hv_psmash(rmp, gpa & ~(SNP_PAGE_SIZE_2M - 1));
	}
	rmp_set_all(rmp, first, count, &e);
	return SNP_RET_SUCCESS;
}

void rmp_vmsa_set_in_use(struct rmp *rmp, uint64_t gpa, bool in_use)
{
	uint64_t i;

	if (!rmp_index(rmp, gpa, &i)) {
		return;
	}
	if (in_use) {
		rmp->entry[i].flags |= RMP_F_IN_USE;
	} else {
		rmp->entry[i].flags &= (uint8_t)~RMP_F_IN_USE;
	}
}

bool rmp_pvalidate_faults_at(unsigned vmpl)
{
	return vmpl != 0;
}

uint32_t rmp_pvalidate(struct rmp *rmp, unsigned vmpl, uint64_t gpa,
		       unsigned page_size, bool validate, bool *unchanged)
{
	bool size_2m = page_size == RMP_PG_SIZE_2M;
	uint64_t first;
	uint64_t count;
	uint64_t i;
	uint32_t rc;
	bool is_valid;

	*unchanged = false;
	if (rmp_pvalidate_faults_at(vmpl) || page_size > RMP_PG_SIZE_2M ||
	    !rmp_span(rmp, gpa, size_2m, &first, &count)) {
		return SNP_RET_FAIL_INPUT;
	}
	rc = rmp_insn_check(rmp, first, count, size_2m);
	if (rc != SNP_RET_SUCCESS) {
		return rc;
	}
	if (rmp_any_in_use(rmp, first, count)) {
		return SNP_RET_FAIL_INUSE;
	}
	is_valid = (rmp->entry[first].flags & RMP_F_VALIDATED) != 0;
	if (is_valid == validate) {
		*unchanged = true; /* rFLAGS.CF = 1, EAX = 0 */
		return SNP_RET_SUCCESS;
	}
	for (i = first; i < first + count; i++) {
		if (validate) {
			rmp->entry[i].flags |= RMP_F_VALIDATED;
		} else {
			rmp->entry[i].flags &= (uint8_t)~RMP_F_VALIDATED;
		}
	}
	return SNP_RET_SUCCESS;
}

uint32_t rmp_rmpadjust(struct rmp *rmp, unsigned vmpl, uint64_t gpa,
		       unsigned page_size, uint64_t attrs)
{
	bool size_2m = page_size == RMP_PG_SIZE_2M;
	unsigned target = (unsigned)(attrs & RMPADJUST_VMPL_MASK);
	unsigned perms = (unsigned)((attrs & RMPADJUST_PERM_MASK) >>
				    RMPADJUST_PERM_SHIFT);
	bool want_vmsa = (attrs & RMPADJUST_VMSA) != 0;
	uint64_t reserved =
		~(RMPADJUST_VMPL_MASK | RMPADJUST_PERM_MASK | RMPADJUST_VMSA);
	uint64_t first;
	uint64_t count;
	uint64_t i;
	uint32_t rc;

	if (page_size > RMP_PG_SIZE_2M || (attrs & reserved) != 0 ||
	    target >= SNP_VMPL_COUNT || vmpl >= SNP_VMPL_COUNT ||
	    !rmp_span(rmp, gpa, size_2m, &first, &count) ||
	    (rmp->entry[first].flags & RMP_F_ASSIGNED) == 0) {
		return SNP_RET_FAIL_INPUT;
	}
	/* Only a numerically higher (less privileged) VMPL may be adjusted. */
	if (target <= vmpl) {
		return SNP_RET_FAIL_PERMISSION;
	}
	rc = rmp_insn_check(rmp, first, count, size_2m);
	if (rc != SNP_RET_SUCCESS) {
		return rc;
	}
	/* New permissions may not exceed the caller's own. */
	if (vmpl != 0 && (perms & ~(unsigned)rmp->entry[first].perms[vmpl])) {
		return SNP_RET_FAIL_PERMISSION;
	}
	if (vmpl == 0) {
		bool is_vmsa = (rmp->entry[first].flags & RMP_F_VMSA) != 0;

		if (want_vmsa && size_2m) {
			return SNP_RET_FAIL_INPUT; /* a VMSA is one 4K page */
		}
		if (is_vmsa && !want_vmsa &&
		    (rmp->entry[first].flags & RMP_F_IN_USE)) {
			return SNP_RET_FAIL_INUSE;
		}
	}
	for (i = first; i < first + count; i++) {
		rmp->entry[i].perms[target] = (uint8_t)perms;
		/* The VMSA bit is written by VMPL0 only; elsewhere ignored. */
		if (vmpl == 0) {
			if (want_vmsa) {
				rmp->entry[i].flags |= RMP_F_VMSA;
			} else {
				rmp->entry[i].flags &= (uint8_t)~RMP_F_VMSA;
			}
		}
	}
	return SNP_RET_SUCCESS;
}

enum rmp_fault rmp_check_access(const struct rmp *rmp, unsigned vmpl,
				uint64_t gpa, unsigned perm)
{
	const struct rmp_entry *e = rmp_lookup(rmp, gpa);

	if (e == NULL || (e->flags & RMP_F_ASSIGNED) == 0) {
		return RMP_FAULT_NPF;
	}
	if ((e->flags & RMP_F_VALIDATED) == 0) {
		return RMP_FAULT_NOT_VALIDATED;
	}
	if (vmpl == 0) {
		return RMP_ACCESS_OK;
	}
	/* A VMSA page is never writable below VMPL0, whatever its perms. */
	if (vmpl >= SNP_VMPL_COUNT ||
	    ((e->flags & RMP_F_VMSA) && (perm & RMP_PERM_WRITE)) ||
	    (perm & ~(unsigned)e->perms[vmpl]) != 0) {
		return RMP_FAULT_NPF;
	}
	return RMP_ACCESS_OK;
}

unsigned rmp_vmpl_access(const struct rmp *rmp, unsigned vmpl, uint64_t gpa)
{
	const struct rmp_entry *e = rmp_lookup(rmp, gpa);
	unsigned perms;

	if (e == NULL) {
		return 0;
	}
	if ((e->flags & RMP_F_ASSIGNED) == 0) {
		return RMP_ACCESS_SHARED;
	}
	if ((e->flags & RMP_F_VALIDATED) == 0 || vmpl >= SNP_VMPL_COUNT) {
		return 0;
	}
	perms = vmpl == 0 ? RMP_PERM_ALL : e->perms[vmpl];
	if (vmpl != 0 && (e->flags & RMP_F_VMSA) != 0) {
		perms &= ~RMP_PERM_WRITE; /* as rmp_check_access() */
	}
	return perms;
}

bool rmp_range_accessible(const struct rmp *rmp, unsigned vmpl, uint64_t gpa,
			  uint64_t len, unsigned perm)
{
	uint64_t page;

	if (!rmp_backed(rmp, gpa, len)) {
		return false;
	}
	for (page = gpa & ~(SNP_PAGE_SIZE - 1); page < gpa + len;
	     page += SNP_PAGE_SIZE) {
		if (rmp_check_access(rmp, vmpl, page, perm) != RMP_ACCESS_OK) {
			return false;
		}
	}
	return true;
}

enum rmp_fault rmp_check_shared_access(const struct rmp *rmp, uint64_t gpa)
{
	const struct rmp_entry *e = rmp_lookup(rmp, gpa);

	if (e == NULL || (e->flags & RMP_F_ASSIGNED) != 0) {
		return RMP_FAULT_NPF;
	}
	return RMP_ACCESS_OK;
}
