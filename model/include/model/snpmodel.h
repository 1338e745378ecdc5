/* SPDX-License-Identifier: MIT */
/*
 * A software model of the SEV-SNP Reverse Map Table, shared by the emu
 * platform (enforced through nested page tables) and the sim platform
 * (enforced on every modelled access). One entry per 4 KiB guest page.
 *
 * What it models (AMD APM vol. 2 15.36 and vol. 3 PVALIDATE/RMPADJUST):
 * - ownership: assigned to the guest, or hypervisor-owned (shared);
 * - the Validated bit, the page size of the entry (a 2 MiB entry covers 512
 *   entries with identical state), the VMSA bit, and a VMSA being in use;
 * - per-VMPL permissions (read, write, user-execute, supervisor-execute)
 *   for VMPL1-3; VMPL0 always has all of them.
 * Where hardware would raise #NPF or #VC, the model reports a fault; the
 * instruction forms return FAIL_INPUT for it, as COCONUT's exception-table
 * wrappers do -- except the #NPF a hypervisor resolves, SIZEM (below).
 * See docs/snp-model.md for each modelling choice.
 *
 * Two roles, kept apart in the names: the hardware (the instructions,
 * rmp_pvalidate(), rmp_rmpadjust(), and RMPUPDATE/PSMASH as rmp_hv_assign()
 * ...rmp_hv_psmash()) and what an honest hypervisor does with them
 * (rmp_hv_npf_sizem(), rmp_hv_page_state()). rmp_guest_pvalidate() and
 * rmp_guest_rmpadjust() put the two together: the instruction as a guest
 * sees it complete.
 */
#ifndef SVSM_SNPMODEL_H
#define SVSM_SNPMODEL_H

#include <stdbool.h>
#include <stdint.h>

#define RMP_F_ASSIGNED 0x01u
#define RMP_F_VALIDATED 0x02u
#define RMP_F_SIZE_2M 0x04u
#define RMP_F_VMSA 0x08u
#define RMP_F_IN_USE 0x10u /* a VMSA that a CPU is running */

/* Permission bits, in RMPADJUST's order ([8] read ... [11] exec-super). */
#define RMP_PERM_READ 0x1u
#define RMP_PERM_WRITE 0x2u
#define RMP_PERM_EXEC_USER 0x4u
#define RMP_PERM_EXEC_SUPER 0x8u
#define RMP_PERM_ALL 0xFu

struct rmp_entry {
	uint8_t flags;
	uint8_t perms[4]; /* [0] unused: VMPL0 has every permission */
};

/*
 * Guest physical memory as banks: [gpa, gpa + pages * 4 KiB) has RMP
 * entries index .. index + pages - 1. A machine's RAM is bank 0 from GPA
 * 0; a loader may back more (OVMF's volume below 4 GiB, an SVSM region
 * an IGVM image requires elsewhere), as QEMU's IGVM loader does. Banks
 * start on 2 MiB, hold whole 2 MiB, and do not overlap, so a 2 MiB RMP
 * entry is always whole in one bank.
 */
#define RMP_MAX_BANKS 6u

struct rmp_bank {
	uint64_t gpa, pages, index;
};

/*
 * Memory encryption, as far as ownership decides it. On hardware a guest
 * page's bytes are ciphertext under the guest's key: the hypervisor, or
 * the guest through a shared (C-bit clear) mapping, reads a page it is
 * given as that ciphertext, and the guest reads a page made private as
 * the decryption of whatever was there. A machine whose memory holds
 * plaintext (emu) sets this hook to make it so: RMPUPDATE calls it for
 * each 4 KiB page whose owner changes (guest-assigned <-> hypervisor-
 * owned), with the page's RMP index, under the caller's RMP lock and
 * before it returns, so nobody sees the page under its new owner with
 * its former bytes. NULL (rmp_init's default): the bytes stay (sim, the
 * fuzzers). PSMASH and the PSP's launch change no owner's view.
 */
struct rmp {
	struct rmp_entry *entry;
	uint64_t page_count; /* entries, over all banks */
	struct rmp_bank bank[RMP_MAX_BANKS];
	unsigned banks;
	void (*owner_changed)(uint64_t index, bool to_guest);
};

/** How an access failed, as hardware would signal it. */
enum rmp_fault {
	RMP_ACCESS_OK = 0,
	RMP_FAULT_NPF,		 /* RMP check failed: #NPF to the hypervisor */
	RMP_FAULT_NOT_VALIDATED, /* #VC page-not-validated to the guest */
};

/** @storage holds page_count entries; every page starts hypervisor-owned.
 * One bank: guest physical [0, page_count * 4 KiB). */
void rmp_init(struct rmp *rmp, struct rmp_entry *storage, uint64_t page_count);

/** Add a bank after rmp_init, its entries in @storage after the others'
 * (which must have room). False, and nothing added, if the bank is not
 * whole 2 MiB, overlaps another, or there are RMP_MAX_BANKS already. */
bool rmp_add_bank(struct rmp *rmp, uint64_t gpa, uint64_t pages);

/** The RMP index of the page holding @gpa; false if no bank holds it. */
bool rmp_index(const struct rmp *rmp, uint64_t gpa, uint64_t *index);

/** Whether [@gpa, @gpa + @len) lies in one bank (len > 0). */
bool rmp_backed(const struct rmp *rmp, uint64_t gpa, uint64_t len);

/* Hypervisor and PSP operations. Each returns an SNP_RET_* code. A 4 KiB
 * RMPUPDATE inside a 2 MiB entry is SNP_RET_FAIL_OVERLAP, as on hardware. */
/** RMPUPDATE to guest-owned (private): not validated, no VMPL1-3 access. */
enum snp_ret rmp_hv_assign(struct rmp *rmp, uint64_t gpa, bool size_2m);
/** RMPUPDATE to hypervisor-owned (shared). */
enum snp_ret rmp_hv_unassign(struct rmp *rmp, uint64_t gpa, bool size_2m);
/** PSMASH: split a 2 MiB entry into 512 4 KiB entries, state kept. */
enum snp_ret rmp_hv_psmash(struct rmp *rmp, uint64_t gpa);
/** SNP_LAUNCH_UPDATE: assigned and validated, VMPL0-only. A 2 MiB entry
 * holding @gpa is smashed first (the other pages keep their state). */
enum snp_ret rmp_launch_page(struct rmp *rmp, uint64_t gpa);
/** Mark a VMSA page running (VMRUN) or stopped (#VMEXIT). */
void rmp_vmsa_set_in_use(struct rmp *rmp, uint64_t gpa, bool in_use);

/*
 * Not an EAX value: the instruction did not complete. A 4 KiB PVALIDATE or
 * RMPADJUST found a 2 MiB RMP entry, and hardware raised #NPF with SIZEM
 * (error code bit 35, KVM's PFERR_GUEST_SIZEM_MASK) to the hypervisor.
 * A 2 MiB operation over 4 KiB entries is EAX FAIL_SIZEMISMATCH instead.
 */
#define RMP_NPF_SIZEM 0x10000u

/*
 * Guest instructions (the hardware), executed at @vmpl. Return EAX
 * (SNP_RET_*) or RMP_NPF_SIZEM. Every page of a 2 MiB operation must be
 * guest-assigned (else FAIL_INPUT, the model's #NPF) and belong to one
 * 2 MiB entry (else FAIL_SIZEMISMATCH).
 */
uint32_t rmp_pvalidate(struct rmp *rmp, unsigned vmpl, uint64_t gpa,
		       unsigned page_size, bool validate, bool *unchanged);
uint32_t rmp_rmpadjust(struct rmp *rmp, unsigned vmpl, uint64_t gpa,
		       unsigned page_size, uint64_t attrs);

/* The hypervisor's side (an honest KVM; model/snp/rmp_hv.c). */
/**
 * #NPF with SIZEM at @gpa, as KVM's sev_handle_rmp_fault(): PSMASH the
 * 2 MiB entry that holds @gpa, so the guest can re-execute. SNP_RET_*.
 */
enum snp_ret rmp_hv_npf_sizem(struct rmp *rmp, uint64_t gpa);
/**
 * A page-state change (GHCB PSC) of one 4 KiB page or one 2 MiB range:
 * RMPUPDATE to private or shared. A 4 KiB change inside a 2 MiB entry
 * PSMASHes it first, as KVM does (sev_gmem_invalidate(),
 * snp_rmptable_psmash()); the other 511 pages keep their state.
 */
enum snp_ret rmp_hv_page_state(struct rmp *rmp, uint64_t gpa, bool size_2m,
			       bool to_private);

/*
 * PVALIDATE and RMPADJUST as the guest sees them complete under an honest
 * hypervisor: on RMP_NPF_SIZEM, rmp_hv_npf_sizem() and the instruction is
 * re-executed. Return EAX (SNP_RET_*), never RMP_NPF_SIZEM: a fault the
 * hypervisor cannot resolve is FAIL_INPUT, as every other fault.
 */
enum snp_ret rmp_guest_pvalidate(struct rmp *rmp, unsigned vmpl, uint64_t gpa,
				 unsigned page_size, bool validate,
				 bool *unchanged);
enum snp_ret rmp_guest_rmpadjust(struct rmp *rmp, unsigned vmpl, uint64_t gpa,
				 unsigned page_size, uint64_t attrs);
/** PVALIDATE is a VMPL0 instruction: at any other VMPL it faults. */
bool rmp_pvalidate_faults_at(unsigned vmpl);

/** Check one private (C-bit set) access by @vmpl; @perm is RMP_PERM_*. */
enum rmp_fault rmp_check_access(const struct rmp *rmp, unsigned vmpl,
				uint64_t gpa, unsigned perm);
/**
 * Check every page of [@gpa, @gpa + @len) as rmp_check_access() does.
 * False for an empty range, one that wraps, or one past the RMP's end.
 */
bool rmp_range_accessible(const struct rmp *rmp, unsigned vmpl, uint64_t gpa,
			  uint64_t len, unsigned perm);
/* rmp_vmpl_access(): the page is shared and may be used as data. */
#define RMP_ACCESS_SHARED 0x10u

/**
 * Every access @vmpl may make to the page at @gpa, as a mask: the
 * RMP_PERM_* bits rmp_check_access() would allow for a private access, or
 * RMP_ACCESS_SHARED for a hypervisor-owned page. emu builds its nested
 * page tables from this; test/unit/rmp_model_test.c holds it equal to the
 * access checks.
 */
unsigned rmp_vmpl_access(const struct rmp *rmp, unsigned vmpl, uint64_t gpa);
/** Check a shared (C-bit clear) access: the page must be hypervisor-owned. */
enum rmp_fault rmp_check_shared_access(const struct rmp *rmp, uint64_t gpa);

const struct rmp_entry *rmp_lookup(const struct rmp *rmp, uint64_t gpa);

#endif /* SVSM_SNPMODEL_H */
