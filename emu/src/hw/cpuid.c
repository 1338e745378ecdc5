/* SPDX-License-Identifier: MIT */
#include "cpuid.h"

#include "arch.h"
#include "machine/layout.h"

#define LEAF_EXT_MAX 0x80000000u
#define LEAF_EXT_FEATURES 0x80000001u
#define LEAF_EXT_ADDR 0x80000008u
#define LEAF_SVM 0x8000000Au
#define LEAF_SEV 0x8000001Fu
#define LEAF_XSAVE 0xDu
#define XSAVE1_EAX_XSAVEC (1u << 1) /* emulated (xsave.c) */
#define EXT_ECX_SVM (1u << 2)
#define ADDR_EBX_INVLPGB (1u << 3)
/* 0x8000001F EAX: SEV, SEV-ES, SEV-SNP, VMPL. */
#define SEV_EAX_FEATURES ((1u << 1) | (1u << 3) | (1u << 4) | (1u << 5))
#define SEV_EBX_VMPLS_SHIFT 12u

struct hw_cpuid hw_cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r = cpuid(leaf, subleaf);
	struct hw_cpuid out = {r.eax, r.ebx, r.ecx, r.edx};

	switch (leaf) {
	case LEAF_XSAVE:
		if (subleaf == 1) {
			out.eax |= XSAVE1_EAX_XSAVEC;
		}
		break;
	case LEAF_EXT_MAX:
		if (out.eax < LEAF_SEV) {
			out.eax = LEAF_SEV;
		}
		break;
	case LEAF_EXT_FEATURES:
		out.ecx &= ~EXT_ECX_SVM;
		break;
	case LEAF_EXT_ADDR:
		out.ebx |= ADDR_EBX_INVLPGB;
		out.edx = (out.edx & ~0xFFFFu) | 0xFFu; /* INVLPGB count */
		break;
	case LEAF_SVM:
		out = (struct hw_cpuid){0, 0, 0, 0};
		break;
	case LEAF_SEV:
		out.eax = SEV_EAX_FEATURES;
		out.ebx = MACHINE_C_BIT | (4u << SEV_EBX_VMPLS_SHIFT);
		out.ecx = 0; /* encrypted guests: none besides this one */
		out.edx = 0;
		break;
	default:
		break;
	}
	return out;
}
