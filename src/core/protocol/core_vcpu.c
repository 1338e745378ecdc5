/* SPDX-License-Identifier: MIT */
/*
 * SVSM_CORE_CREATE_VCPU and SVSM_CORE_DELETE_VCPU (58019 sections 6.3, 6.4).
 * Threat T06: a VMSA is the register state of a VMPL the guest must not
 * control beyond what it could do itself. The page is taken from the guest
 * (its access revoked) before it is read, checked on the SVSM's copy, and
 * only then given the VMSA bit, with read-only guest access (Linux reads
 * sev_features back for AP_CREATION).
 * Lifetimes (docs/protocols/core.md): a Calling Area may be shared by the
 * VMSAs of one APIC ID, as Linux does when it re-onlines a CPU; a vCPU
 * whose call another CPU is serving (in_call) cannot be deleted; DELETE
 * is one RMPADJUST, so SUCCESS means exactly that it took effect.
 */
#include "svsm/err.h"
#include "svsm/guest_config.h"
#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/ownership.h"
#include "svsm/page_state.h"
#include "svsm/plat.h"
#include "svsm/protocol.h"

#include "abi/snp.h"
#include "abi/svsm_call.h"

static enum svsm_result vmsa_check(const struct snp_vmsa *vmsa,
				   const struct vcpu *caller)
{
	uint64_t feat = vmsa->sev_features;

	if (vmsa->vmpl != svsm_guest_vmpl() || (vmsa->efer & EFER_SVME) == 0 ||
	    feat != caller->vmsa->sev_features ||
	    (feat & ~svsm_permitted_sev_features()) != 0 ||
	    (feat & SEV_FEAT_SNP_ACTIVE) == 0) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	return SVSM_SUCCESS;
}

/* Give a page back after a failed CREATE_VCPU. An RMPADJUST on a page this
 * call has just adjusted fails only if the RMP changed meanwhile (the
 * host's page-state change, or one another vCPU asked for); the page then
 * stays without guest access, which is safe, and the log says so. */
static void vmsa_give_back(gpa_t gpa)
{
	if (page_grant_guest(gpa, PAGE_4K) != SNP_RET_SUCCESS) {
		LOG_NOTICE("create_vcpu: %llx changed under the call; not "
			   "given back",
			   (unsigned long long)gpa_val(gpa));
	}
}

enum svsm_result core_create_vcpu(struct call_ctx *ctx)
{
	gpa_t vmsa_gpa = gpa_init(ctx->rcx);
	gpa_t caa_gpa = gpa_init(ctx->rdx);
	uint32_t apic_id = (uint32_t)ctx->r8;
	struct snp_vmsa *copy = (struct snp_vmsa *)ctx->cpu->scratch;
	struct vcpu *v;
	uint8_t probe = 0;
	enum svsm_result ret;
	enum snp_ret rc;

	/* Decode: every check that needs no state change. */
	if (!gpa_is_aligned(vmsa_gpa, SNP_PAGE_SIZE) ||
	    !gpa_is_aligned(caa_gpa, SNP_PAGE_SIZE)) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (cpu_by_apic(apic_id) == NULL) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	if (gpa_eq(vmsa_gpa, caa_gpa) ||
	    !owner_is_guest_page_free(vmsa_gpa, SNP_PAGE_SIZE) ||
	    !owner_caa_ok(caa_gpa, apic_id)) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	if (guestmem_read(caa_gpa, &probe, 1) != SVSM_OK) {
		return SVSM_ERR_INVALID_ADDRESS;
	}
	v = obj_alloc(sizeof(*v));
	if (v == NULL) {
		return SVSM_RESULT_NEED_MEMORY(1);
	}

	/* Invoke: take the page, then read and check the SVSM's copy. */
	rc = page_revoke_guest(vmsa_gpa, PAGE_4K);
	if (rc != SNP_RET_SUCCESS) {
		obj_free(v);
		return core_rmp_result(rc);
	}
	if (guestmem_read(vmsa_gpa, copy, sizeof(*copy)) != SVSM_OK) {
		ret = SVSM_ERR_INVALID_ADDRESS;
		goto fail;
	}
	ret = vmsa_check(copy, ctx->caller);
	if (ret != SVSM_SUCCESS) {
		goto fail;
	}
	rc = page_make_vmsa(vmsa_gpa, RMPADJUST_READ);
	if (rc != SNP_RET_SUCCESS) {
		ret = core_rmp_result(rc);
		goto fail;
	}
	v->vmsa_gpa = vmsa_gpa;
	v->caa_gpa = caa_gpa;
	v->apic_id = apic_id;
	v->vmsa = plat_map_private(vmsa_gpa, SNP_PAGE_SIZE);
	vcpu_register(v);
	return SVSM_SUCCESS;
fail:
	vmsa_give_back(vmsa_gpa);
	obj_free(v);
	return ret;
}

enum svsm_result core_delete_vcpu(struct call_ctx *ctx)
{
	gpa_t vmsa_gpa = gpa_init(ctx->rcx);
	struct vcpu *v;
	uint64_t efer;
	enum snp_ret rc;

	if (!gpa_is_aligned(vmsa_gpa, SNP_PAGE_SIZE)) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	v = vcpu_find_by_vmsa(vmsa_gpa);
	if (v == NULL || v->is_startup || v->vmsa->vmpl < svsm_guest_vmpl()) {
		return SVSM_ERR_INVALID_PARAMETER;
	}
	/* 58019 6.4: a vCPU that cannot be stopped gives FAIL_INUSE. One
	 * whose call another CPU is serving will have its results written
	 * to this page when that call ends. */
	if (v->in_call && v != ctx->caller) {
		return SVSM_ERR_FAIL_INUSE;
	}
	/* The host must not enter it again; a VMSA that is running refuses
	 * to lose its VMSA bit (FAIL_INUSE) and keeps SVME. */
	efer = v->vmsa->efer;
	v->vmsa->efer = efer & ~EFER_SVME;
	rc = page_grant_guest(vmsa_gpa, PAGE_4K);
	if (rc != SNP_RET_SUCCESS) {
		v->vmsa->efer = efer;
		return core_rmp_result(rc);
	}
	/* The page is the guest's again: nothing below touches it. */
	vcpu_unregister(v);
	plat_unmap_private(v->vmsa, SNP_PAGE_SIZE);
	if (v == ctx->caller) {
		ctx->caller_deleted = true; /* this call never returns */
	}
	obj_free(v);
	return SVSM_SUCCESS;
}
