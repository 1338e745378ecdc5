/* SPDX-License-Identifier: MIT */
/*
 * The KVM model's CPUID answers are each vCPU's own (model/kvm
 * kvm_cpuid()): OVMF's APs learn their APIC ID from the GHCB MSR
 * protocol's CPUID (UefiCpuPkg MpInitLib X64/AmdSev.nasm, leaf 0xB EDX or
 * leaf 1 EBX[31:24]) and look it up in the Get APIC IDs list, so every
 * vCPU must see its own. Truths: where CPUID reports the APIC ID (APM
 * vol. 3 CPUID leaves 1, 0xB, 0x1F, 0x8000001E; QEMU's per-vCPU leaves)
 * and the GHCB MSR protocol's layout (56421 2.3.1). No guest memory: the
 * MSR protocol reaches none.
 */
#include <string.h>

#include "abi/ghcb.h"

#include "model/kvm.h"

#include "../framework/test.h"

/* What the host's CPUID would say: the same for every vCPU, with an APIC
 * ID (0xEE) that is none of theirs where CPUID reports one. */
static void host_cpuid(struct kvm *k, uint32_t leaf, uint32_t subleaf,
		       uint64_t xcr0, uint32_t out[4])
{
	(void)k;
	(void)subleaf;
	(void)xcr0;
	out[0] = 0xEE000000u | leaf;
	out[1] = 0xEE000000u | 0x00123456u;
	out[2] = 0xCCCCCCCCu;
	out[3] = 0xEEu;
}

static unsigned terminations;
static void count_terminate(struct kvm *k, struct kvm_vcpu *v, uint32_t set,
			    uint32_t code)
{
	(void)k;
	(void)v;
	(void)set;
	(void)code;
	terminations++;
}

static const struct kvm_ops cpuid_ops = {
	.cpuid = host_cpuid,
	.terminate = count_terminate,
};

static struct kvm_vcpu vcpus[3];
static struct kvm model;

static void model_init(void)
{
	unsigned i;

	memset(vcpus, 0, sizeof(vcpus));
	for (i = 0; i < 3; i++) {
		vcpus[i].index = i;
		vcpus[i].apic_id = i == 2 ? 0x105 : i * 2; /* 0, 2, 0x105 */
	}
	memset(&model, 0, sizeof(model));
	model.ops = &cpuid_ops;
	model.vcpus = vcpus;
	model.nr_vcpus = 3;
	model.c_bit = 51;
	terminations = 0;
}

/* The MSR protocol's CPUID answer: register @reg (0 EAX .. 3 EDX) of
 * @leaf on vCPU @i. */
static uint32_t msr_cpuid(unsigned i, uint32_t leaf, unsigned reg)
{
	uint64_t resp =
		kvm_vmgexit(&model, &vcpus[i], 1, GHCB_MSR_CPUID(leaf, reg));

	EXPECT_EQ(GHCB_MSR_INFO(resp), GHCB_MSR_CPUID_RESP);
	return (uint32_t)(resp >> 32);
}

TEST(kvm_cpuid, each_vcpu_sees_its_own_apic_id)
{
	unsigned i;

	model_init();
	for (i = 0; i < 3; i++) {
		uint32_t id = vcpus[i].apic_id;

		/* Leaf 1 EBX[31:24]: the low 8 bits; the rest the host's. */
		EXPECT_EQ(msr_cpuid(i, 0x1, 1), (id & 0xFFu) << 24 | 0x123456u);
		EXPECT_EQ(msr_cpuid(i, 0xB, 3), id);
		EXPECT_EQ(msr_cpuid(i, 0x1F, 3), id);
		EXPECT_EQ(msr_cpuid(i, 0x8000001E, 0), id);
		/* The other registers of those leaves are the host's. */
		EXPECT_EQ(msr_cpuid(i, 0xB, 0), 0xEE00000Bu);
		EXPECT_EQ(msr_cpuid(i, 0xB, 2), 0xCCCCCCCCu);
	}
	/* Leaves without an APIC ID are the host's, whoever asks. */
	EXPECT_EQ(msr_cpuid(2, 0x0, 3), 0xEEu);
	EXPECT_EQ(msr_cpuid(2, 0x80000001, 1), 0xEE123456u);
	EXPECT_EQ(terminations, 0);
}

TEST(kvm_cpuid, hv_features_offer_the_apic_id_list)
{
	uint64_t resp;

	model_init();
	resp = kvm_vmgexit(&model, &vcpus[0], 1, GHCB_MSR_HV_FT_REQ);
	EXPECT_EQ(GHCB_MSR_INFO(resp), GHCB_MSR_HV_FT_RESP);
	/* Bit 4 (GHCB 56421; Linux GHCB_HV_FT_APIC_ID_LIST, edk2
	 * GHCB_HV_FEATURES_APIC_ID_LIST): OVMF then asks for the list. */
	EXPECT_EQ(GHCB_MSR_DATA(resp) & (1ull << 4), 1ull << 4);
	EXPECT_EQ(GHCB_MSR_DATA(resp) & 0x23u, 0x23u); /* SNP, AP, VMPLs */
	EXPECT_EQ(terminations, 0);
}
