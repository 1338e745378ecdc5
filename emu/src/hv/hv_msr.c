/* SPDX-License-Identifier: MIT */
#include "hv_msr.h"

#include "hv/dev/hv_apic.h"
#include "hv_kvmclock.h"

#define MSR_APIC_BASE 0x1Bu
#define MSR_PATCH_LEVEL 0x8Bu
#define MSR_MTRR_CAP 0xFEu
#define MSR_MTRR_VAR_FIRST 0x200u
#define MSR_MTRR_VAR_LAST 0x20Fu
#define MSR_MTRR_FIX_64K 0x250u
#define MSR_MTRR_FIX_16K_FIRST 0x258u
#define MSR_MTRR_FIX_16K_LAST 0x259u
#define MSR_MTRR_FIX_4K_FIRST 0x268u
#define MSR_MTRR_FIX_4K_LAST 0x26Fu
#define MSR_MTRR_DEF_TYPE 0x2FFu
#define MSR_MCG_CAP 0x179u
#define MSR_MCG_STATUS 0x17Au
#define MSR_DEBUGCTL 0x1D9u
#define MSR_SYSCFG 0xC0010010u
#define MSR_HWCR 0xC0010015u
#define MSR_NB_CFG 0xC001001Fu
#define MSR_MMIO_CONF_BASE 0xC0010058u
#define MSR_VM_CR 0xC0010114u
#define MSR_DE_CFG 0xC0011029u

#define APIC_BASE_ADDR 0xFEE00000ull
#define APIC_BASE_BSP (1ull << 8)
#define APIC_BASE_EXTD (1ull << 10)
#define APIC_BASE_EN (1ull << 11)
/* HWCR bits KVM lets a guest set (kvm_set_msr_common, MSR_K7_HWCR). */
#define HWCR_WRITABLE (0x8ull | 0x40ull | 0x100ull | 0x40000ull)
#define DE_CFG_LFENCE_SERIALIZE (1ull << 1)
/* KVM's MTRRcap: 8 variable ranges, fixed ranges, write-combining. */
#define MTRR_CAP (0x500ull | 8u)
/* KVM's default microcode revision (kvm_arch_vcpu_create). */
#define MICROCODE_VERSION 0x100000000ull

/* The APIC starts enabled in x2APIC mode ("x2apic: enabled by BIOS");
 * Linux without IRQ remapping turns it back to xAPIC, whose registers
 * are MMIO (hv_mmio.c). */
static uint64_t apic_base(struct hv_vcpu *c)
{
	uint64_t mode = hv_apic_base_mode(c);

	return APIC_BASE_ADDR | (mode != 0 ? APIC_BASE_EN : 0) |
	       (mode == 2 ? APIC_BASE_EXTD : 0) |
	       (c->index == 0 ? APIC_BASE_BSP : 0);
}

/* The MTRRs KVM emulates: they mean nothing to memory types here (QEMU
 * has none), so a read is 0 (MTRRs off) and a write is taken and
 * dropped. */
static bool mtrr(uint32_t msr)
{
	return msr == MSR_MTRR_DEF_TYPE ||
	       (msr >= MSR_MTRR_VAR_FIRST && msr <= MSR_MTRR_VAR_LAST) ||
	       msr == MSR_MTRR_FIX_64K ||
	       (msr >= MSR_MTRR_FIX_16K_FIRST &&
		msr <= MSR_MTRR_FIX_16K_LAST) ||
	       (msr >= MSR_MTRR_FIX_4K_FIRST && msr <= MSR_MTRR_FIX_4K_LAST);
}

static bool read_only(bool write, uint64_t *val, uint64_t v)
{
	if (write) {
		return false;
	}
	*val = v;
	return true;
}

bool hv_msr(struct hv_vcpu *c, unsigned vmpl, bool write, uint32_t msr,
	    uint64_t *val)
{
	if ((msr >= MSR_X2APIC_FIRST && msr <= MSR_X2APIC_LAST) ||
	    msr == MSR_TSC_DEADLINE) {
		return vmpl == HV_APIC_VMPL && hv_apic_msr(c, write, msr, val);
	}
	if (msr == MSR_KVM_SYSTEM_TIME_NEW || msr == MSR_KVM_WALL_CLOCK_NEW) {
		return vmpl == HV_APIC_VMPL &&
		       hv_kvmclock_msr(c, write, msr, val);
	}
	if (mtrr(msr)) {
		if (!write) {
			*val = 0;
		}
		return true;
	}
	switch (msr) {
	case MSR_MTRR_CAP:
		return read_only(write, val, MTRR_CAP);
	case MSR_APIC_BASE:
		if (write) {
			/* The base stays; the mode moves as KVM lets it. */
			if ((*val & ~(APIC_BASE_BSP | APIC_BASE_EN |
				      APIC_BASE_EXTD)) != APIC_BASE_ADDR) {
				return false;
			}
			return hv_apic_set_mode(c, (*val & APIC_BASE_EN) != 0,
						(*val & APIC_BASE_EXTD) != 0);
		}
		*val = apic_base(c);
		return true;
	case MSR_PATCH_LEVEL:
		if (!write) {
			*val = MICROCODE_VERSION;
		}
		return true; /* KVM ignores a guest's write */
	case MSR_MCG_CAP:
		return read_only(write, val, 0); /* no MCE banks */
	case MSR_MCG_STATUS:
	case MSR_DEBUGCTL: /* no LBR or BTF to give */
		if (write) {
			return *val == 0;
		}
		*val = 0;
		return true;
	case MSR_NB_CFG:
		if (!write) {
			*val = 0;
		}
		return true; /* KVM reads 0 and drops a write */
	case MSR_SYSCFG:
	case MSR_MMIO_CONF_BASE:
	case MSR_VM_CR:
		return read_only(write, val, 0); /* KVM reads these as 0 */
	case MSR_HWCR:
		if (write) {
			if ((*val & ~HWCR_WRITABLE) != 0) {
				return false;
			}
			c->hwcr = *val;
			return true;
		}
		*val = c->hwcr;
		return true;
	case MSR_DE_CFG:
		if (write) {
			return (*val & ~DE_CFG_LFENCE_SERIALIZE) == 0;
		}
		*val = DE_CFG_LFENCE_SERIALIZE;
		return true;
	default:
		return false; /* KVM: unknown MSR, #GP */
	}
}
