/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the KVM model (model/kvm) as a hostile GUEST drives it: any
 * GHCB MSR value, any GHCB page, at any VMPL, over a small RAM whose RMP
 * the input also sets (shared, private, validated, VMSA pages; a 2 MiB
 * entry). Invariants, each an abort:
 * - the host never writes a page that was private before the call;
 * - every GPA the model hands the machine (ops) is checked: page aligned
 *   and in RAM where it must be RAM, outside RAM for MMIO, a known APIC
 *   ID and VMPL < 4;
 * - no sanitizer report, whatever the model's behaviour (lies included).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/ghcb.h"
#include "abi/snp.h"

#include "model/kvm.h"
#include "model/snpmodel.h"

#define SMALL_BASE 0x200000ull /* after the 2 MiB region */
#define SMALL_PAGES 64u
#define RAM_SIZE (SMALL_BASE + SMALL_PAGES * SNP_PAGE_SIZE)
#define RAM_PAGES (RAM_SIZE / SNP_PAGE_SIZE)
#define GHCB_GPA SMALL_BASE /* always shared, registered */
#define HDR 12u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t ram[RAM_SIZE] __attribute__((aligned(4096)));
static uint8_t before[RAM_SIZE];
static bool was_private[RAM_PAGES];
static struct rmp_entry entries[RAM_PAGES];
static struct rmp rmp;
static struct kvm_vcpu vcpus[2];

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "kvm model broke: %s\n", #c);          \
			abort();                                               \
		}                                                              \
	} while (0)

static bool in_ram(const void *p, size_t len)
{
	const uint8_t *b = p;

	return b >= ram && len <= RAM_SIZE && b - ram <= (long)(RAM_SIZE - len);
}

static uint8_t *op_page(struct kvm *k, uint64_t gpa)
{
	(void)k;
	CHECK(gpa % SNP_PAGE_SIZE == 0);
	return gpa < RAM_SIZE ? ram + gpa : NULL;
}

static void op_nolock(struct kvm *k)
{
	(void)k;
}

static void op_rmp_changed(struct kvm *k, uint64_t gpa, uint64_t len)
{
	(void)k;
	CHECK(gpa % SNP_PAGE_SIZE == 0 && len != 0 && gpa < RAM_SIZE &&
	      len <= RAM_SIZE - gpa);
}

static void op_io(struct kvm *k, struct kvm_vcpu *v, uint16_t port,
		  unsigned size, bool in, uint32_t *val)
{
	(void)k;
	(void)v;
	(void)port;
	CHECK(size == 1 || size == 2 || size == 4);
	if (in) {
		*val = 0xDEADBEEF;
	}
}

static bool op_msr(struct kvm *k, struct kvm_vcpu *v, bool write, uint32_t msr,
		   uint64_t *val)
{
	(void)k;
	(void)v;
	if (!write) {
		*val = msr * 3ull;
	}
	return (msr & 1) == 0; /* odd MSRs #GP */
}

static void op_cpuid(struct kvm *k, uint32_t leaf, uint32_t subleaf,
		     uint64_t xcr0, uint32_t out[4])
{
	(void)k;
	(void)xcr0;
	out[0] = leaf;
	out[1] = subleaf;
	out[2] = ~leaf;
	out[3] = ~subleaf;
}

static bool op_run_vmpl(struct kvm *k, struct kvm_vcpu *v, unsigned vmpl)
{
	(void)k;
	(void)v;
	CHECK(vmpl < KVM_VMPLS);
	return vmpl != 3;
}

static uint64_t op_ap_create(struct kvm *k, struct kvm_vcpu *v,
			     unsigned request, uint32_t apic_id,
			     uint64_t vmsa_gpa, unsigned vmpl,
			     uint64_t sev_features)
{
	(void)v;
	(void)sev_features;
	CHECK(request <= SVM_VMGEXIT_AP_DESTROY && vmpl < KVM_VMPLS &&
	      kvm_vcpu_by_apic(k, apic_id) != NULL);
	if (request == SVM_VMGEXIT_AP_CREATE) {
		CHECK(vmsa_gpa % SNP_PAGE_SIZE == 0 && vmsa_gpa < RAM_SIZE &&
		      (entries[vmsa_gpa / SNP_PAGE_SIZE].flags & RMP_F_VMSA));
	}
	return 0;
}

/* Writes the whole response page and as many certificate bytes as the
 * buffer holds (the model must have checked them all shared). */
static uint64_t op_guest_request(struct kvm *k, const void *req, void *rsp,
				 void *certs, size_t *certs_len)
{
	(void)k;
	CHECK(!in_ram(req, 1) && in_ram(rsp, SNP_PAGE_SIZE));
	memset(rsp, 0x5A, SNP_PAGE_SIZE);
	if (certs_len != NULL) {
		if (*certs_len < 2 * SNP_PAGE_SIZE) {
			*certs_len = 2 * SNP_PAGE_SIZE;
			return (uint64_t)SNP_GUEST_VMM_ERR_INVALID_LEN << 32;
		}
		CHECK(in_ram(certs, *certs_len));
		memset(certs, 0xC5, *certs_len);
	}
	return 0;
}

static bool op_mmio(struct kvm *k, struct kvm_vcpu *v, uint64_t gpa,
		    unsigned len, bool write, uint8_t data[8])
{
	(void)k;
	(void)v;
	CHECK(gpa >= RAM_SIZE && len >= 1 && len <= 8);
	if (!write) {
		memset(data, 0x11, len);
	}
	return (gpa & 1) == 0;
}

static unsigned terminations;
static void op_terminate(struct kvm *k, struct kvm_vcpu *v, uint32_t set,
			 uint32_t code)
{
	(void)k;
	(void)v;
	(void)set;
	(void)code;
	terminations++; /* returns: the model must cope */
}

static bool op_ap_hlt_loop(struct kvm *k, struct kvm_vcpu *v)
{
	(void)k;
	(void)v;
	return false; /* held until a new VMSA, as on the machine */
}

static const struct kvm_ops ops = {
	.page = op_page,
	.rmp_lock = op_nolock,
	.rmp_unlock = op_nolock,
	.rmp_changed = op_rmp_changed,
	.io = op_io,
	.msr = op_msr,
	.cpuid = op_cpuid,
	.run_vmpl = op_run_vmpl,
	.ap_create = op_ap_create,
	.guest_request = op_guest_request,
	.mmio = op_mmio,
	.ap_hlt_loop = op_ap_hlt_loop,
	.terminate = op_terminate,
};

/*
 * The GHCB page from a compact encoding, so the fuzzer reaches every NAE
 * event in short inputs: the valid bitmap (16 bytes), then exit code,
 * exit_info_1/2, sw_scratch, RAX, RBX, RCX, RDX, XCR0 (8 bytes each),
 * then the shared buffer.
 */
static void ghcb_from(const uint8_t *in, size_t len, bool odd_usage,
		      bool known_event)
{
	static const uint64_t events[] = {SVM_EXIT_CPUID,
					  SVM_EXIT_IOIO,
					  SVM_EXIT_MSR,
					  SVM_VMGEXIT_MMIO_READ,
					  SVM_VMGEXIT_MMIO_WRITE,
					  SVM_VMGEXIT_PSC,
					  SVM_VMGEXIT_GUEST_REQUEST,
					  SVM_VMGEXIT_EXT_GUEST_REQUEST,
					  SVM_VMGEXIT_AP_CREATION,
					  SVM_VMGEXIT_HV_DOORBELL,
					  SVM_VMGEXIT_SNP_RUN_VMPL,
					  SVM_VMGEXIT_GET_APIC_IDS,
					  SVM_VMGEXIT_HV_FEATURES,
					  SVM_VMGEXIT_TERM_REQUEST};
	uint64_t code;
	static const unsigned off[] = {GHCB_OFF_SW_EXIT_CODE,
				       GHCB_OFF_SW_EXIT_INFO_1,
				       GHCB_OFF_SW_EXIT_INFO_2,
				       GHCB_OFF_SW_SCRATCH,
				       GHCB_OFF_RAX,
				       GHCB_OFF_RBX,
				       GHCB_OFF_RCX,
				       GHCB_OFF_RDX,
				       GHCB_OFF_XCR0};
	uint8_t *g = ram + GHCB_GPA;
	uint32_t usage = odd_usage ? 1 : 0;
	size_t n;
	unsigned i;

	n = len < 16 ? len : 16;
	memcpy(g + GHCB_OFF_VALID_BITMAP, in, n);
	in += n;
	len -= n;
	for (i = 0; i < sizeof(off) / sizeof(off[0]) && len > 0; i++) {
		n = len < 8 ? len : 8;
		memcpy(g + off[i], in, n);
		in += n;
		len -= n;
	}
	if (known_event) { /* the exit code picks one the model serves */
		memcpy(&code, g + GHCB_OFF_SW_EXIT_CODE, 8);
		code = events[code % (sizeof(events) / sizeof(events[0]))];
		memcpy(g + GHCB_OFF_SW_EXIT_CODE, &code, 8);
	}
	n = len < GHCB_SHARED_BUFFER_SIZE ? len : GHCB_SHARED_BUFFER_SIZE;
	memcpy(g + GHCB_OFF_SHARED_BUFFER, in, n);
	memcpy(g + GHCB_OFF_USAGE, &usage, sizeof(usage));
}

/* One exit; the host may write only pages shared before it. */
static void exit_checked(struct kvm *k, unsigned vmpl, uint64_t msr)
{
	unsigned i;

	for (i = 0; i < RAM_PAGES; i++) {
		was_private[i] = (entries[i].flags & RMP_F_ASSIGNED) != 0;
		if (was_private[i]) {
			memcpy(before + i * SNP_PAGE_SIZE,
			       ram + i * SNP_PAGE_SIZE, SNP_PAGE_SIZE);
		}
	}
	(void)kvm_vmgexit(k, &vcpus[0], vmpl, msr);
	for (i = 0; i < RAM_PAGES; i++) {
		CHECK(!was_private[i] ||
		      memcmp(before + i * SNP_PAGE_SIZE,
			     ram + i * SNP_PAGE_SIZE, SNP_PAGE_SIZE) == 0);
	}
}

/* Input: [0] VMPL and behaviour, [1] the 2 MiB region's state, [2] GHCB
 * MSR mode, [3] a second exit, GHCB usage, any exit code, [4..11] a raw GHCB
 * MSR value; then 16 bytes of page states (2 bits each, for the small pages),
 * then the GHCB (ghcb_from). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvm k;
	unsigned vmpl, i;
	uint64_t msr;

	if (size < HDR + 16) {
		return 0;
	}
	vmpl = data[0] & 3;
	memcpy(&msr, data + 4, 8);
	memset(ram, 0, sizeof(ram));
	memset(entries, 0, sizeof(entries));
	rmp_init(&rmp, entries, RAM_PAGES);
	if (data[1] & 1) { /* the first 2 MiB: one private 2 MiB entry */
		for (i = 0; i < 512; i++) {
			entries[i].flags =
				RMP_F_ASSIGNED | RMP_F_SIZE_2M |
				((data[1] & 2) != 0 ? RMP_F_VALIDATED : 0);
		}
	}
	for (i = 1; i < SMALL_PAGES; i++) {
		static const uint8_t state[4] = {
			0, RMP_F_ASSIGNED, RMP_F_ASSIGNED | RMP_F_VALIDATED,
			RMP_F_ASSIGNED | RMP_F_VALIDATED | RMP_F_VMSA};
		unsigned s = (data[HDR + i / 4] >> (2 * (i % 4))) & 3;

		entries[SMALL_BASE / SNP_PAGE_SIZE + i].flags = state[s];
	}
	ghcb_from(data + HDR + 16, size - HDR - 16, (data[3] & 2) != 0,
		  (data[3] & 4) == 0);
	memset(vcpus, 0, sizeof(vcpus));
	vcpus[0].apic_id = 0;
	vcpus[1].index = 1;
	vcpus[1].apic_id = 7;
	vcpus[0].ghcb_gpa[vmpl] = GHCB_GPA;
	k = (struct kvm){
		.ops = &ops,
		.rmp = &rmp,
		.c_bit = 51,
		.behaviour = (enum kvm_behaviour)((data[0] >> 2) %
						  KVM_BEHAVIOUR_COUNT),
		.vcpus = vcpus,
		.nr_vcpus = 2,
	};
	switch (data[2] % 4) {
	case 0:
		break; /* the raw value: mostly the MSR protocol */
	case 1:
		msr = GHCB_GPA; /* the page protocol */
		break;
	case 2:
		msr &= ~0xFFFull; /* a page the guest did not register */
		break;
	default:
		msr = GHCB_MSR_INFO(msr) | ((msr >> 12) % RAM_PAGES) << 12;
		break; /* an MSR request naming a page of RAM */
	}
	exit_checked(&k, vmpl, msr);
	/* A second exit on the same GHCB: state left by the first. */
	if (data[3] & 1) {
		exit_checked(&k, vmpl, GHCB_GPA);
	}
	return 0;
}
