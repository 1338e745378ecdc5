/* SPDX-License-Identifier: MIT */
/*
 * Get APIC IDs (NAE 0x80000017, GHCB 56421 v2.03 "SNP Get APIC IDs";
 * HV feature bit 4), as the multi-VMPL KVM RFC serves it (Linux
 * arch/x86/kvm/svm/sev.c sev_get_apic_ids(), 2024) and as edk2 asks for
 * it (OvmfPkg/PlatformPei/AmdSev.c AmdSevSnpGetApicIds()):
 * - RAX (required) is the number of pages of the buffer at the GPA in
 *   exit_info_1;
 * - if they cannot hold {u32 count; u32 apic_ids[count]}, RAX becomes the
 *   number of pages needed and the result is success, nothing written
 *   (edk2 asks first with RAX = 0 and requires status 0 and RAX valid);
 * - otherwise the list is written at the GPA, RAX is returned unchanged
 *   (edk2 requires it) and the result is success; a GPA whose pages are
 *   not all shared RAM is refused (result 2, INVALID_INPUT, KVM's answer
 *   when it cannot write).
 * The list is k->vcpus in order, as KVM lists its vCPUs by vcpu_id: the
 * first is the BSP (edk2's MpInitLib takes entry 0 for it).
 */
#include "abi/snp.h"

#include "kvm_internal.h"

/* The value of the u32 at byte @off of the list. */
static uint32_t list_word(const struct kvm *k, uint64_t off)
{
	if (off == 0) {
		return k->nr_vcpus;
	}
	return k->vcpus[(off - GHCB_APIC_IDS_HDR_SIZE) /
			GHCB_APIC_IDS_ENTRY_SIZE]
		.apic_id;
}

void kvm_nae_get_apic_ids(struct kvm *k, const struct kvm_ghcb *g,
			  struct kvm_reply *r)
{
	uint64_t pages = kvm_ghcb_val(g, GHCB_OFF_RAX);
	uint64_t gpa = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_1);
	/* nr_vcpus is an unsigned: no overflow in 64 bits. */
	uint64_t size = GHCB_APIC_IDS_HDR_SIZE +
			(uint64_t)k->nr_vcpus * GHCB_APIC_IDS_ENTRY_SIZE;
	uint64_t need = (size + SNP_PAGE_SIZE - 1) / SNP_PAGE_SIZE;
	uint64_t p, off;

	if (!kvm_ghcb_has(g, GHCB_OFF_RAX)) {
		kvm_malformed(r, GHCB_ERR_MISSING_INPUT);
		return;
	}
	r->write |= KVM_R_RAX;
	if (pages < need) {
		r->rax = need;
		return;
	}
	r->rax = pages;
	/* Every page the list spans is shared RAM before any is written. */
	if (gpa > UINT64_MAX - need * SNP_PAGE_SIZE) {
		kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
		return;
	}
	for (p = 0; p < need; p++) {
		if (kvm_shared_page(k, gpa + p * SNP_PAGE_SIZE) == NULL) {
			kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
			return;
		}
	}
	for (p = 0; p < need; p++) {
		uint8_t *page = kvm_shared_page(k, gpa + p * SNP_PAGE_SIZE);
		uint64_t end = size < (p + 1) * SNP_PAGE_SIZE
				       ? size
				       : (p + 1) * SNP_PAGE_SIZE;

		if (page == NULL) { /* converted meanwhile: the guest raced */
			kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
			return;
		}
		for (off = p * SNP_PAGE_SIZE; off < end;
		     off += GHCB_APIC_IDS_ENTRY_SIZE) {
			uint32_t word = list_word(k, off);

			memcpy(page + off % SNP_PAGE_SIZE, &word, sizeof(word));
		}
	}
}
