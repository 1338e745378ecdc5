/* SPDX-License-Identifier: MIT */
#include "insn.h"

#include "svsm/std.h"

#include "insn_decode.h"
#include "machine/layout.h"
#include "mcpu.h"
#include "rmp.h"
#include "walk.h"

#define RFLAGS_CF 1ull
#define RFLAGS_STATUS 0x8D5ull /* CF PF AF ZF SF OF */
#define SNP_INSN_LEN 4u

/* The 4 KiB or 2 MiB page RAX names, as a guest physical address without
 * the C-bit; false when it does not translate. */
static bool operand_page(struct snp_vmsa *a, unsigned vmpl, uint64_t size,
			 uint64_t *gpa)
{
	uint64_t span = size != 0 ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;

	if (!gw_translate(a, vmpl, a->rax, gpa)) {
		return false;
	}
	*gpa &= ~MACHINE_C_MASK & ~(span - 1);
	return true;
}

/* EAX and rFLAGS as the instruction leaves them. */
static void complete(struct snp_vmsa *a, uint32_t rc, bool cf)
{
	a->rax = rc;
	a->rflags &= ~RFLAGS_STATUS;
	if (cf) {
		a->rflags |= RFLAGS_CF;
	}
	a->rip += SNP_INSN_LEN;
}

static enum insn_result pvalidate(unsigned vmpl, struct snp_vmsa *a,
				  uint64_t *sizem_gpa)
{
	uint64_t size = a->rcx & 1, gpa;
	uint64_t span = size != 0 ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;
	bool unchanged = false, changed;
	uint32_t rc;

	if (rmp_pvalidate_faults_at(vmpl) || a->cpl != 0) {
		return INSN_GP;
	}
	if (!operand_page(a, vmpl, size, &gpa)) {
		return INSN_GP;
	}
	rmp_lock();
	rc = rmp_pvalidate(&machine_rmp, vmpl, gpa, (unsigned)size,
			   (a->rdx & 1) != 0, &unchanged);
	changed = rc == SNP_RET_SUCCESS && !unchanged;
	rmp_commit(gpa, changed ? span : 0, changed);
	if (rc == RMP_NPF_SIZEM) {
		*sizem_gpa = gpa;
		return INSN_SIZEM; /* executed again */
	}
	complete(a, rc, unchanged);
	return INSN_DONE;
}

static enum insn_result rmpadjust(unsigned vmpl, struct snp_vmsa *a,
				  uint64_t *sizem_gpa)
{
	uint64_t size = a->rcx & 1, gpa;
	uint64_t span = size != 0 ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;
	uint32_t rc;

	if (a->cpl != 0 || !operand_page(a, vmpl, size, &gpa)) {
		return INSN_GP;
	}
	rmp_lock();
	rc = rmp_rmpadjust(&machine_rmp, vmpl, gpa, (unsigned)size, a->rdx);
	rmp_commit(gpa, rc == SNP_RET_SUCCESS ? span : 0,
		   rc == SNP_RET_SUCCESS);
	if (rc == RMP_NPF_SIZEM) {
		*sizem_gpa = gpa;
		return INSN_SIZEM;
	}
	complete(a, rc, false);
	return INSN_DONE;
}

enum insn_result insn_ud(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a,
			 uint64_t *sizem_gpa)
{
	uint8_t insn[SNP_INSN_LEN];
	enum insn_kind kind;
	unsigned len;

	if (!gw_read(a, vmpl, a->rip, insn, sizeof(insn), true)) {
		return INSN_UD;
	}
	kind = insn_decode_kind(insn, sizeof(insn), &len);
	if (kind == INSN_KIND_PVALIDATE) {
		return pvalidate(vmpl, a, sizem_gpa);
	}
	if (kind == INSN_KIND_RMPADJUST) {
		return rmpadjust(vmpl, a, sizem_gpa);
	}
	/* The SNP instructions and INVLPGB/TLBSYNC are CPL 0's: #GP
	 * elsewhere (PVALIDATE, RMPADJUST check it themselves). */
	if (kind == INSN_KIND_OTHER) {
		return INSN_UD;
	}
	if (a->cpl != 0) {
		return INSN_GP;
	}
	if (kind == INSN_KIND_INVLPGB) {
		/* Every CPU's guest translations, this one's included. */
		rmp_flush_tlbs();
		c->flush_self = true;
	}
	/* TLBSYNC: INVLPGB completed synchronously. */
	a->rip += len;
	return INSN_DONE;
}
