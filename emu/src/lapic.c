/* SPDX-License-Identifier: MIT */
#include "lapic.h"

#include "arch.h"

#define LAPIC_BASE 0xFEE00000ull
#define APIC_BASE_ENABLE (1ull << 11)
#define REG_ID 0x020
#define REG_EOI 0x0B0
#define REG_SVR 0x0F0
#define REG_ICR_LO 0x300
#define REG_ICR_HI 0x310
#define ICR_PENDING (1u << 12)
#define ICR_ASSERT (1u << 14)
#define ICR_INIT (5u << 8)
#define ICR_SIPI (6u << 8)

static volatile uint32_t *reg(unsigned off)
{
	return (volatile uint32_t *)(LAPIC_BASE + off);
}

/* The legacy PICs: the BIOS left them at vector base 0x08, where a timer
 * tick would look like #DF. The SVSM takes no legacy interrupts. */
static void pic_mask_all(void)
{
	outb(0x21, 0xFF);
	outb(0xA1, 0xFF);
}

void lapic_init(void)
{
	pic_mask_all();
	wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | APIC_BASE_ENABLE);
	*reg(REG_SVR) = 0x100u | MACHINE_VEC_SPURIOUS;
}

uint32_t lapic_id(void)
{
	return *reg(REG_ID) >> 24;
}

void lapic_eoi(void)
{
	*reg(REG_EOI) = 0;
}

static void icr_send(uint32_t apic_id, uint32_t lo)
{
	unsigned spins = 0;

	*reg(REG_ICR_HI) = apic_id << 24;
	*reg(REG_ICR_LO) = lo;
	while ((*reg(REG_ICR_LO) & ICR_PENDING) != 0 && spins++ < 1000000) {
		cpu_relax();
	}
}

void lapic_send_ipi(uint32_t apic_id, uint8_t vector)
{
	icr_send(apic_id, ICR_ASSERT | vector);
}

static void delay_tsc(uint64_t ticks)
{
	uint64_t end = rdtsc() + ticks;

	while (rdtsc() < end) {
		cpu_relax();
	}
}

void lapic_start_ap(uint32_t apic_id, uint64_t trampoline)
{
	uint32_t page = (uint32_t)(trampoline >> 12) & 0xFF;

	icr_send(apic_id, ICR_ASSERT | ICR_INIT);
	delay_tsc(10000000); /* ~10 ms at 1 GHz */
	icr_send(apic_id, ICR_ASSERT | ICR_SIPI | page);
	delay_tsc(200000);
	icr_send(apic_id, ICR_ASSERT | ICR_SIPI | page);
}
