/* SPDX-License-Identifier: MIT */
#include "insn.h"

#include "svsm/std.h"

#include "hv.h"
#include "layout.h"
#include "rmp.h"
#include "walk.h"

#define RFLAGS_CF 1ull
#define RFLAGS_STATUS 0x8D5ull /* CF PF AF ZF SF OF */
#define SNP_INSN_LEN 4u
#define TLB_INSN_LEN 3u

static const uint8_t op_pvalidate[SNP_INSN_LEN] = {0xF2, 0x0F, 0x01, 0xFF};
static const uint8_t op_rmpadjust[SNP_INSN_LEN] = {0xF3, 0x0F, 0x01, 0xFE};
static const uint8_t op_invlpgb[TLB_INSN_LEN] = {0x0F, 0x01, 0xFE};
static const uint8_t op_tlbsync[TLB_INSN_LEN] = {0x0F, 0x01, 0xFF};

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

static enum insn_result pvalidate(struct mcpu *c, unsigned vmpl,
				  struct snp_vmsa *a)
{
	uint64_t size = a->rcx & 1, gpa;
	bool unchanged = false;
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
	if (rc == SNP_RET_SUCCESS && !unchanged) {
		rmp_changed(gpa, size != 0 ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE);
	}
	rmp_unlock();
	if (rc == RMP_NPF_SIZEM) {
		hv_npf_sizem(c, vmpl, gpa);
		return INSN_DONE; /* executed again */
	}
	if (rc == SNP_RET_SUCCESS && !unchanged) {
		rmp_flush_tlbs();
	}
	complete(a, rc, unchanged);
	return INSN_DONE;
}

static enum insn_result rmpadjust(struct mcpu *c, unsigned vmpl,
				  struct snp_vmsa *a)
{
	uint64_t size = a->rcx & 1, gpa;
	uint32_t rc;

	if (a->cpl != 0 || !operand_page(a, vmpl, size, &gpa)) {
		return INSN_GP;
	}
	rmp_lock();
	rc = rmp_rmpadjust(&machine_rmp, vmpl, gpa, (unsigned)size, a->rdx);
	if (rc == SNP_RET_SUCCESS) {
		rmp_changed(gpa, size != 0 ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE);
	}
	rmp_unlock();
	if (rc == RMP_NPF_SIZEM) {
		hv_npf_sizem(c, vmpl, gpa);
		return INSN_DONE;
	}
	if (rc == SNP_RET_SUCCESS) {
		rmp_flush_tlbs();
	}
	complete(a, rc, false);
	return INSN_DONE;
}

enum insn_result insn_ud(struct mcpu *c, unsigned vmpl, struct snp_vmsa *a)
{
	uint8_t insn[SNP_INSN_LEN];

	if (!gw_read(a, vmpl, a->rip, insn, sizeof(insn), true)) {
		return INSN_UD;
	}
	if (memcmp(insn, op_pvalidate, SNP_INSN_LEN) == 0) {
		return pvalidate(c, vmpl, a);
	}
	if (memcmp(insn, op_rmpadjust, SNP_INSN_LEN) == 0) {
		return rmpadjust(c, vmpl, a);
	}
	/* The SNP instructions and INVLPGB/TLBSYNC are CPL 0's: #GP
	 * elsewhere (PVALIDATE, RMPADJUST check it themselves). */
	if ((memcmp(insn, op_invlpgb, TLB_INSN_LEN) == 0 ||
	     memcmp(insn, op_tlbsync, TLB_INSN_LEN) == 0) &&
	    a->cpl != 0) {
		return INSN_GP;
	}
	if (memcmp(insn, op_invlpgb, TLB_INSN_LEN) == 0) {
		/* Every CPU's guest translations, this one's included. */
		rmp_flush_tlbs();
		c->flush_self = true;
		a->rip += TLB_INSN_LEN;
		return INSN_DONE;
	}
	if (memcmp(insn, op_tlbsync, TLB_INSN_LEN) == 0) {
		a->rip += TLB_INSN_LEN; /* INVLPGB completed synchronously */
		return INSN_DONE;
	}
	return INSN_UD;
}
