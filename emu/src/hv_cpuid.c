/* SPDX-License-Identifier: MIT */
#include "hv_cpuid.h"

#include "svsm/igvm_reader.h"
#include "svsm/std.h"

#include "abi/csvsm_boot.h"

#include "cpuid.h"
#include "hv_kvmclock.h"

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
/* The CPUID pages of one image the launch fills, at most. */
#define IMAGE_CPUID_PAGES 16u

/* "KVMKVMKVM\0\0\0" in EBX, ECX, EDX. */
#define KVM_SIG_EBX 0x4B4D564Bu
#define KVM_SIG_ECX 0x564B4D56u
#define KVM_SIG_EDX 0x0000004Du

/* The image being launched (hv_cpuid_image): its CPUID pages in the
 * order the launch fills them, how many were filled, and csvsm's own. */
static uint64_t image_pages[IMAGE_CPUID_PAGES];
static unsigned image_page_count, pages_filled;
static uint64_t svsm_cpuid_gpa; /* 0: none named */

/* What the hypervisor says a leaf is: this CPU's answer, as KVM reports
 * it (KVM_GET_SUPPORTED_CPUID, which QEMU's CPUID page copies), with
 * KVM's virtual APIC and hypervisor bits in leaf 1 and KVM's own leaves.
 * KVM never reports INVLPGB (Linux 7.3's arch/x86/kvm/cpuid.c:
 * kvm_cpu_cap_init(CPUID_8000_0008_EBX, ...) has no INVLPGB, and QEMU
 * has no name for the bit): a guest's view without it is also the only
 * consistent one here, since Linux's INVLPGB needs PCID (cpuid-deps.c),
 * which QEMU's TCG cannot give. */
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

/* How a page departs from KVM's answers: csvsm's own page keeps the
 * CPU's INVLPGB; with @lie, one entry claims SHA-NI. */
struct page_kind {
	bool svsm, lie;
};

static void put(struct snp_cpuid_table *t, uint32_t leaf, uint32_t subleaf,
		struct page_kind k)
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
	if (k.svsm && leaf == LEAF_EXT_ADDR) {
		fn->ebx |= hw_cpuid(leaf, subleaf).ebx & EXT_ADDR_EBX_INVLPGB;
	}
	if (k.lie && leaf == LEAF_EXT_FEATURES && subleaf == 0) {
		fn->ebx |= LEAF7_EBX_SHA;
	}
}

/* The subleaves of an indexed leaf that exist, as QEMU lists them for
 * its CPUID page: cache levels until a null one, leaf 7 up to its EAX,
 * topology levels until an invalid one, XSAVE components the CPU has. */
static void put_leaf(struct snp_cpuid_table *t, uint32_t leaf,
		     struct page_kind k)
{
	struct hw_cpuid r0 = hw_cpuid(leaf, 0);
	uint32_t i;

	switch (leaf) {
	case LEAF_CACHE:
	case LEAF_EXT_CACHE:
		for (i = 0; i < SUBLEAF_MAX; i++) {
			put(t, leaf, i, k);
			if ((hw_cpuid(leaf, i).eax & 0x1Fu) == 0) {
				break;
			}
		}
		return;
	case LEAF_EXT_FEATURES:
		for (i = 0; i <= r0.eax && i < SUBLEAF_MAX; i++) {
			put(t, leaf, i, k);
		}
		return;
	case LEAF_TOPOLOGY:
		for (i = 0; i < SUBLEAF_MAX; i++) {
			put(t, leaf, i, k);
			if (((hw_cpuid(leaf, i).ecx >> 8) & 0xFFu) == 0) {
				break;
			}
		}
		return;
	case LEAF_XSAVE: {
		uint64_t comps =
			r0.eax | (uint64_t)r0.edx << 32 | hw_cpuid(leaf, 1).ecx;

		put(t, leaf, 0, k);
		put(t, leaf, 1, k);
		for (i = 2; i < SUBLEAF_MAX; i++) {
			if ((comps >> i & 1) != 0) {
				put(t, leaf, i, k);
			}
		}
		return;
	}
	default:
		put(t, leaf, 0, k);
		return;
	}
}

/* csvsm's boot parameter page among the image's page data: a measured
 * 4 KiB page whose data begins with its magic and version. */
static void find_boot_params(const struct igvm_file *f,
			     const struct igvm_page_data *p)
{
	struct csvsm_boot_params b;

	if (p->data_type != IGVM_PAGE_DATA_NORMAL || p->file_offset == 0 ||
	    (p->flags & IGVM_PAGE_FLAG_2MB) != 0) {
		return;
	}
	/* Inside the file: the reader checked the directive's data. */
	memcpy(&b, f->data + p->file_offset, sizeof(b));
	if (b.magic == CSVSM_BOOT_MAGIC && b.version == CSVSM_BOOT_VERSION) {
		svsm_cpuid_gpa = b.svsm_cpuid_gpa;
	}
}

void hv_cpuid_image(const uint8_t *file, size_t size)
{
	struct igvm_file f;
	struct igvm_item it;
	const char *why = NULL;
	uint32_t pos = 0, mask = 0;

	image_page_count = 0;
	pages_filled = 0;
	svsm_cpuid_gpa = 0;
	if (igvm_open(&f, file, size) != NULL) {
		return; /* the launch refuses it */
	}
	while (igvm_next(&f, &pos, &it, &why)) {
		struct igvm_supported_platform pl;
		struct igvm_page_data p;

		if (it.type == IGVM_VHT_SUPPORTED_PLATFORM) {
			memcpy(&pl, it.body, sizeof(pl));
			if (pl.platform_type == IGVM_PLATFORM_SEV_SNP) {
				mask = pl.compatibility_mask;
			}
			continue;
		}
		if (it.type != IGVM_VHT_PAGE_DATA) {
			continue;
		}
		memcpy(&p, it.body, sizeof(p));
		if ((p.compatibility_mask & mask) == 0) {
			continue; /* the launch skips it too */
		}
		if (p.data_type == IGVM_PAGE_DATA_CPUID ||
		    p.data_type == IGVM_PAGE_DATA_CPUID_XF) {
			if (image_page_count < IMAGE_CPUID_PAGES) {
				image_pages[image_page_count] = p.gpa;
			}
			image_page_count++;
			continue;
		}
		find_boot_params(&f, &p);
	}
}

/* Every basic and extended leaf this CPU has and KVM's two (Linux trusts
 * the page and takes a leaf missing from it for zeros), up to the page's
 * 64 entries. */
void hv_cpuid_fill(struct snp_cpuid_table *t, bool lie)
{
	uint32_t basic = hw_cpuid(0, 0).eax, ext = hw_cpuid(LEAF_EXT, 0).eax;
	struct page_kind k = {.svsm = false, .lie = lie};
	uint32_t leaf;

	if (pages_filled < image_page_count &&
	    pages_filled < IMAGE_CPUID_PAGES && svsm_cpuid_gpa != 0 &&
	    image_pages[pages_filled] == svsm_cpuid_gpa) {
		k.svsm = true;
	}
	pages_filled++;
	t->count = 0;
	for (leaf = 0; leaf <= basic && leaf <= LEAF_BASIC_LAST; leaf++) {
		put_leaf(t, leaf, k);
	}
	put_leaf(t, HV_CPUID_KVM_BASE, k);
	put_leaf(t, HV_CPUID_KVM_FEATURES, k);
	for (leaf = LEAF_EXT; leaf <= ext && leaf <= LEAF_EXT_LAST; leaf++) {
		put_leaf(t, leaf, k);
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
