/* SPDX-License-Identifier: MIT */
/*
 * The NAE events of the GHCB page (spec notes 7.3; Linux vc-handle.c is
 * the client, KVM's sev_es_validate_vmgexit() the checks): the #VC ones
 * (IOIO, MSR, CPUID, MMIO) and the small ones (NMI complete, AP HLT
 * loop, Run VMPL, #HV doorbell, termination); PSC, guest requests and AP
 * creation have their own files. Each handler reads only the GHCB copy and
 * requires the valid bit of every input, as KVM does (result 2, MISSING_INPUT).
 */
#include "abi/snp.h"

#include "kvm_internal.h"

static bool need(const struct kvm_ghcb *g, struct kvm_reply *r, unsigned off)
{
	if (kvm_ghcb_has(g, off)) {
		return true;
	}
	kvm_malformed(r, GHCB_ERR_MISSING_INPUT);
	return false;
}

/*
 * String I/O (INS/OUTS, with or without REP), as KVM's sev_es_string_io():
 * exit_info_2 is the count of elements of @size bytes, carried through
 * the scratch area in the GHCB's shared buffer. The guest may rewrite
 * the shared page while we work: OUT data is copied out once first.
 */
static void nae_string_io(struct kvm *k, struct kvm_vcpu *v,
			  const struct kvm_ghcb *g, struct kvm_reply *r,
			  uint16_t port, unsigned size, bool in)
{
	uint64_t count = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_2);
	uint8_t data[GHCB_SHARED_BUFFER_SIZE];
	uint64_t i, bytes;
	uint8_t *buf;

	if (!need(g, r, GHCB_OFF_SW_SCRATCH)) {
		return;
	}
	/* count <= the buffer's size keeps count * size from overflowing. */
	if (count == 0 || count > GHCB_SHARED_BUFFER_SIZE ||
	    count * size > GHCB_SHARED_BUFFER_SIZE) {
		kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
		return;
	}
	bytes = count * size;
	buf = kvm_scratch(g, bytes);
	if (buf == NULL) {
		kvm_malformed(r, GHCB_ERR_INVALID_SCRATCH);
		return;
	}
	if (!in) {
		memcpy(data, buf, bytes);
	}
	for (i = 0; i < count; i++) {
		uint32_t val = 0;

		if (!in) {
			memcpy(&val, data + i * size, size);
		}
		k->ops->io(k, v, port, size, in, &val);
		if (in) {
			memcpy(data + i * size, &val, size);
		}
	}
	if (in) {
		memcpy(buf, data, bytes);
	}
}

/* IN/OUT of 1, 2 or 4 bytes: the value in RAX, or a string (above). */
static void nae_ioio(struct kvm *k, struct kvm_vcpu *v,
		     const struct kvm_ghcb *g, struct kvm_reply *r)
{
	uint64_t info1 = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_1);
	bool in = (info1 & SVM_IOIO_TYPE_IN) != 0;
	uint16_t port = (uint16_t)(info1 >> SVM_IOIO_PORT_SHIFT);
	unsigned size;
	uint32_t mask, val = 0;

	switch (info1 & (SVM_IOIO_SZ8 | SVM_IOIO_SZ16 | SVM_IOIO_SZ32)) {
	case SVM_IOIO_SZ8:
		size = 1;
		break;
	case SVM_IOIO_SZ16:
		size = 2;
		break;
	case SVM_IOIO_SZ32:
		size = 4;
		break;
	default:
		kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
		return;
	}
	if ((info1 & SVM_IOIO_STR) != 0) {
		nae_string_io(k, v, g, r, port, size, in);
		return;
	}
	mask = size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;
	if (!in) {
		if (!need(g, r, GHCB_OFF_RAX)) {
			return;
		}
		val = (uint32_t)kvm_ghcb_val(g, GHCB_OFF_RAX) & mask;
		k->ops->io(k, v, port, size, false, &val);
		return;
	}
	k->ops->io(k, v, port, size, true, &val);
	/* KVM merges the bytes read into the guest's RAX. */
	r->rax = (kvm_ghcb_val(g, GHCB_OFF_RAX) & ~(uint64_t)mask) |
		 (val & mask);
	if (k->behaviour == KVM_MSR_NO_RAX) {
		kvm_lie(k, "IN answered with RAX not marked valid");
		r->unmark |= KVM_R_RAX;
	} else {
		r->write |= KVM_R_RAX;
	}
}

static void nae_msr(struct kvm *k, struct kvm_vcpu *v, const struct kvm_ghcb *g,
		    struct kvm_reply *r)
{
	uint64_t info1 = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_1);
	uint32_t msr = (uint32_t)kvm_ghcb_val(g, GHCB_OFF_RCX);
	uint64_t val = 0;

	if (!need(g, r, GHCB_OFF_RCX)) {
		return;
	}
	if (info1 > 1) {
		kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
		return;
	}
	if (info1 == 1) {
		if (!need(g, r, GHCB_OFF_RAX) || !need(g, r, GHCB_OFF_RDX)) {
			return;
		}
		val = (uint32_t)kvm_ghcb_val(g, GHCB_OFF_RAX) |
		      (kvm_ghcb_val(g, GHCB_OFF_RDX) << 32);
	}
	if (!k->ops->msr(k, v, info1 == 1, msr, &val)) {
		/* KVM injects #GP (svm_complete_emulated_msr). */
		r->info1 = GHCB_RESULT_EXCEPTION;
		r->info2 = SVM_EVTINJ_VALID | SVM_EVTINJ_TYPE_EXEPT |
			   SVM_EVTINJ_VEC_GP;
		return;
	}
	if (info1 == 0) {
		r->rax = (uint32_t)val;
		r->rdx = val >> 32;
		r->write |= KVM_R_RDX;
		if (k->behaviour == KVM_MSR_NO_RAX) {
			kvm_lie(k, "RDMSR answered with RAX not marked valid");
			r->unmark |= KVM_R_RAX;
		} else {
			r->write |= KVM_R_RAX;
		}
	}
}

/* CPUID: leaf in RAX, subleaf in RCX, XCR0 needed for leaf 0xD. */
static void nae_cpuid(struct kvm *k, const struct kvm_vcpu *v,
		      const struct kvm_ghcb *g, struct kvm_reply *r)
{
	uint32_t leaf = (uint32_t)kvm_ghcb_val(g, GHCB_OFF_RAX);
	uint32_t out[4] = {0, 0, 0, 0};

	if (!need(g, r, GHCB_OFF_RAX) ||
	    (leaf == 0xD && !need(g, r, GHCB_OFF_XCR0))) {
		return;
	}
	kvm_cpuid(k, v, leaf, (uint32_t)kvm_ghcb_val(g, GHCB_OFF_RCX),
		  kvm_ghcb_has(g, GHCB_OFF_XCR0)
			  ? kvm_ghcb_val(g, GHCB_OFF_XCR0)
			  : 1,
		  out);
	r->rax = out[0];
	r->rbx = out[1];
	r->rcx = out[2];
	r->rdx = out[3];
	r->write |= KVM_R_RAX | KVM_R_RBX | KVM_R_RCX | KVM_R_RDX;
}

/* MMIO: exit_info_1 the GPA, exit_info_2 the length (1..8), the data in
 * the shared buffer at sw_scratch. Never an address in guest RAM: the
 * devices must not become a window onto (private) memory. */
static void nae_mmio(struct kvm *k, struct kvm_vcpu *v,
		     const struct kvm_ghcb *g, struct kvm_reply *r, bool write)
{
	uint64_t gpa = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_1);
	uint64_t len = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_2);
	uint8_t data[8] = {0};
	uint8_t *buf;

	if (k->ops->mmio == NULL) {
		kvm_malformed(r, GHCB_ERR_INVALID_EVENT);
		return;
	}
	if (!need(g, r, GHCB_OFF_SW_SCRATCH)) {
		return;
	}
	if (len == 0 || len > sizeof(data) || gpa > UINT64_MAX - len ||
	    kvm_memory(k, gpa) || kvm_memory(k, gpa + len - 1)) {
		kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
		return;
	}
	buf = kvm_scratch(g, len);
	if (buf == NULL) {
		kvm_malformed(r, GHCB_ERR_INVALID_SCRATCH);
		return;
	}
	if (write) {
		memcpy(data, buf, len); /* the one read of the data */
	}
	if (!k->ops->mmio(k, v, gpa, (unsigned)len, write, data)) {
		kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
		return;
	}
	if (!write) {
		memcpy(buf, data, len);
	}
}

static void nae_run_vmpl(struct kvm *k, struct kvm_vcpu *v,
			 const struct kvm_ghcb *g, struct kvm_reply *r)
{
	uint64_t target = (uint32_t)kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_1);

	kvm_count(&k->stats.run_vmpl);
	v->run_vmpl_count++;
	if (k->behaviour == KVM_REFUSE_RUN_VMPL) {
		kvm_lie(k, "Run VMPL (GHCB page) refused");
		r->info2 = 1;
	} else if (target >= KVM_VMPLS ||
		   !k->ops->run_vmpl(k, v, (unsigned)target)) {
		r->info2 = 1;
	}
}

/* The #HV doorbell page of the caller's VMPL: set (a shared page of
 * RAM), query, clear, or the preferred one (none). */
static void nae_doorbell(struct kvm *k, struct kvm_vcpu *v,
			 const struct kvm_ghcb *g, struct kvm_reply *r)
{
	uint64_t req = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_1);
	uint64_t gpa = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_2);
	uint64_t *db = &v->doorbell_gpa[g->vmpl];

	switch (req) {
	case SVM_VMGEXIT_HV_DOORBELL_GET_PREF:
		r->info2 = ~0ull;
		return;
	case SVM_VMGEXIT_HV_DOORBELL_SET:
		if (gpa == 0 || kvm_shared_page(k, gpa) == NULL) {
			kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
			return;
		}
		*db = gpa;
		r->info2 = gpa;
		if (k->behaviour == KVM_DOORBELL_ELSEWHERE) {
			kvm_lie(k, "#HV doorbell set reports the next page");
			r->info2 += SNP_PAGE_SIZE;
		}
		return;
	case SVM_VMGEXIT_HV_DOORBELL_QUERY:
		r->info2 = *db;
		return;
	case SVM_VMGEXIT_HV_DOORBELL_CLEAR:
		*db = 0;
		return;
	default:
		kvm_malformed(r, GHCB_ERR_INVALID_INPUT);
		return;
	}
}

void kvm_nae(struct kvm *k, struct kvm_vcpu *v, struct kvm_ghcb *g,
	     struct kvm_reply *r)
{
	uint64_t code = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_CODE);
	uint64_t info1 = kvm_ghcb_val(g, GHCB_OFF_SW_EXIT_INFO_1);

	switch (code) {
	case SVM_EXIT_IOIO:
		nae_ioio(k, v, g, r);
		break;
	case SVM_EXIT_MSR:
		nae_msr(k, v, g, r);
		break;
	case SVM_EXIT_CPUID:
		nae_cpuid(k, v, g, r);
		break;
	case SVM_VMGEXIT_MMIO_READ:
	case SVM_VMGEXIT_MMIO_WRITE:
		nae_mmio(k, v, g, r, code == SVM_VMGEXIT_MMIO_WRITE);
		break;
	case SVM_VMGEXIT_PSC:
		kvm_nae_psc(k, g, r);
		break;
	case SVM_VMGEXIT_GUEST_REQUEST:
	case SVM_VMGEXIT_EXT_GUEST_REQUEST:
		kvm_nae_guest_request(k, v, g, r,
				      code == SVM_VMGEXIT_EXT_GUEST_REQUEST);
		break;
	case SVM_VMGEXIT_AP_CREATION:
		kvm_nae_ap_creation(k, v, g, r);
		break;
	case SVM_VMGEXIT_HV_DOORBELL:
		nae_doorbell(k, v, g, r);
		break;
	case SVM_VMGEXIT_SNP_RUN_VMPL:
		nae_run_vmpl(k, v, g, r);
		break;
	case SVM_VMGEXIT_GET_APIC_IDS:
		kvm_nae_get_apic_ids(k, g, r);
		break;
	case SVM_VMGEXIT_HV_FEATURES: /* edk2's PlatformPei asks this way */
		r->info2 = kvm_hv_features(k);
		break;
	case SVM_VMGEXIT_NMI_COMPLETE:
		/* Its NMI handler is done; the model delivers no NMIs, so
		 * there is nothing to unblock (KVM's answer is success). */
		break;
	case SVM_VMGEXIT_AP_HLT_LOOP:
		if (k->ops->ap_hlt_loop == NULL) {
			kvm_malformed(r, GHCB_ERR_INVALID_EVENT);
			break;
		}
		r->info2 = k->ops->ap_hlt_loop(k, v) ? 1 : 0;
		break;
	case SVM_VMGEXIT_TERM_REQUEST:
		kvm_count(&k->stats.terminations);
		k->ops->terminate(k, v, (uint32_t)info1 & 0xF,
				  (uint32_t)(info1 >> 4) & 0xFF);
		break;
	default:
		kvm_malformed(r, GHCB_ERR_INVALID_EVENT);
		break;
	}
}
