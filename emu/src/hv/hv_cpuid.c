/* SPDX-License-Identifier: MIT */
#include "hv_cpuid.h"

#include "hv_kvmclock.h"
#include "hw/cpuid.h"

#define LEAF7_EBX_SHA (1u << 29) /* SHA-NI: the machine's CPU has none */
#define LEAF_FEATURES 0x1u
#define LEAF_CACHE 0x4u
#define LEAF_EXT_FEATURES 0x7u
#define LEAF_TOPOLOGY 0xBu
#define LEAF_XSAVE 0xDu
#define LEAF_BASIC_LAST 0x1Fu
#define LEAF_EXT 0x80000000u
#define LEAF_EXT_ADDR 0x80000008u
#define LEAF_EXT_CACHE 0x8000001Du
#define LEAF_EXT_LAST 0x8000001Fu
#define SUBLEAF_MAX 64u
/* Leaf 0x80000008 EBX[3]: INVLPGB and TLBSYNC. */
#define EXT_ADDR_EBX_INVLPGB (1u << 3)

/* "KVMKVMKVM\0\0\0" in EBX, ECX, EDX. */
#define KVM_SIG_EBX 0x4B4D564Bu
#define KVM_SIG_ECX 0x564B4D56u
#define KVM_SIG_EDX 0x0000004Du

/* What the hypervisor says a leaf is: this CPU's answer, as KVM reports
 * it (KVM_GET_SUPPORTED_CPUID, which QEMU's CPUID page copies), with
 * KVM's virtual APIC and hypervisor bits in leaf 1 and KVM's own leaves.
 * KVM never reports INVLPGB (Linux 7.3's arch/x86/kvm/cpuid.c:
 * kvm_cpu_cap_init(CPUID_8000_0008_EBX, ...) has no INVLPGB, and QEMU
 * has no name for the bit), to csvsm's page neither: csvsm uses it
 * without asking CPUID (every SNP CPU has it). A guest's view without
 * it is also the only consistent one here, since Linux's INVLPGB needs
 * PCID (cpuid-deps.c), which QEMU's TCG cannot give. */
static struct hw_cpuid hv_leaf(uint32_t leaf, uint32_t subleaf)
{
	struct hw_cpuid r = hw_cpuid(leaf, subleaf);

	if (leaf == LEAF_EXT_ADDR) {
		r.ebx &= ~EXT_ADDR_EBX_INVLPGB;
	} else if (leaf == LEAF_FEATURES) {
		r.ecx |= HV_CPUID_1_ECX_APIC | HV_CPUID_1_ECX_HYPERVISOR;
	} else if (leaf == HV_CPUID_KVM_BASE) {
		r = (struct hw_cpuid){.eax = HV_CPUID_KVM_FEATURES,
				      .ebx = KVM_SIG_EBX,
				      .ecx = KVM_SIG_ECX,
				      .edx = KVM_SIG_EDX};
	} else if (leaf == HV_CPUID_KVM_FEATURES) {
		r = (struct hw_cpuid){.eax = HV_KVM_FEATURES};
	}
	return r;
}

static void put(struct snp_cpuid_table *t, uint32_t leaf, uint32_t subleaf,
		bool lie)
{
	struct hw_cpuid r = hv_leaf(leaf, subleaf);
	struct snp_cpuid_fn *fn;

	if (t->count >= SNP_CPUID_MAX) {
		return;
	}
	fn = &t->fn[t->count++];
	fn->eax_in = leaf;
	fn->ecx_in = subleaf;
	/* Leaf 0xD's sizes are for XCR0 = x87 (Linux computes the rest from
	 * the feature subleaves). */
	fn->xcr0_in = leaf == LEAF_XSAVE ? 1 : 0;
	fn->xss_in = 0;
	fn->eax = r.eax;
	fn->ebx = r.ebx;
	fn->ecx = r.ecx;
	fn->edx = r.edx;
	if (lie && leaf == LEAF_EXT_FEATURES && subleaf == 0) {
		fn->ebx |= LEAF7_EBX_SHA;
	}
}

/* The subleaves of an indexed leaf that exist, as QEMU lists them for
 * its CPUID page: cache levels until a null one, leaf 7 up to its EAX,
 * topology levels until an invalid one, XSAVE components the CPU has. */
static void put_leaf(struct snp_cpuid_table *t, uint32_t leaf, bool lie)
{
	struct hw_cpuid r0 = hw_cpuid(leaf, 0);
	uint32_t i;

	switch (leaf) {
	case LEAF_CACHE:
	case LEAF_EXT_CACHE:
		for (i = 0; i < SUBLEAF_MAX; i++) {
			put(t, leaf, i, lie);
			if ((hw_cpuid(leaf, i).eax & 0x1Fu) == 0) {
				break;
			}
		}
		return;
	case LEAF_EXT_FEATURES:
		for (i = 0; i <= r0.eax && i < SUBLEAF_MAX; i++) {
			put(t, leaf, i, lie);
		}
		return;
	case LEAF_TOPOLOGY:
		for (i = 0; i < SUBLEAF_MAX; i++) {
			put(t, leaf, i, lie);
			if (((hw_cpuid(leaf, i).ecx >> 8) & 0xFFu) == 0) {
				break;
			}
		}
		return;
	case LEAF_XSAVE: {
		uint64_t comps =
			r0.eax | (uint64_t)r0.edx << 32 | hw_cpuid(leaf, 1).ecx;

		put(t, leaf, 0, lie);
		put(t, leaf, 1, lie);
		for (i = 2; i < SUBLEAF_MAX; i++) {
			if ((comps >> i & 1) != 0) {
				put(t, leaf, i, lie);
			}
		}
		return;
	}
	default:
		put(t, leaf, 0, lie);
		return;
	}
}

/* Every basic and extended leaf this CPU has and KVM's two (Linux trusts
 * the page and takes a leaf missing from it for zeros), up to the page's
 * 64 entries. */
void hv_cpuid_fill(struct snp_cpuid_table *t, bool lie)
{
	uint32_t basic = hw_cpuid(0, 0).eax, ext = hw_cpuid(LEAF_EXT, 0).eax;
	uint32_t leaf;

	t->count = 0;
	for (leaf = 0; leaf <= basic && leaf <= LEAF_BASIC_LAST; leaf++) {
		put_leaf(t, leaf, lie);
	}
	put_leaf(t, HV_CPUID_KVM_BASE, lie);
	put_leaf(t, HV_CPUID_KVM_FEATURES, lie);
	for (leaf = LEAF_EXT; leaf <= ext && leaf <= LEAF_EXT_LAST; leaf++) {
		put_leaf(t, leaf, lie);
	}
}

void hv_cpuid(uint32_t leaf, uint32_t subleaf, uint64_t xcr0, uint32_t out[4])
{
	struct hw_cpuid r = hv_leaf(leaf, subleaf);

	/* Leaf 0xD's sizes are for the XCR0 the registers hold, which is
	 * the guest's while its exit is served (world.c switches XCR0 with
	 * the VMPL). */
	(void)xcr0;
	out[0] = r.eax;
	out[1] = r.ebx;
	out[2] = r.ecx;
	out[3] = r.edx;
}
