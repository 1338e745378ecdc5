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
#define REG_LVT_TIMER 0x320
#define REG_LVT_LINT0 0x350
#define REG_LVT_LINT1 0x360
#define REG_TIMER_INIT 0x380
#define REG_TIMER_CUR 0x390
#define REG_TIMER_DIV 0x3E0
#define LVT_MASKED (1u << 16)
#define LVT_MODE_NMI (4u << 8)
#define TIMER_DIV_1 0xBu
#define CALIBRATE_TICKS 10000000u /* 10 ms of QEMU's 1 GHz APIC timer */

/* Timer ticks (divide by 1) and TSC cycles in one calibration run. */
static uint64_t cal_ticks = 1, cal_tsc = 1;

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
	/* No legacy interrupt (the BIOS's ExtINT on LINT0) ever reaches the
	 * machine, whatever is done to the 8259s. */
	*reg(REG_LVT_LINT0) = LVT_MASKED;
	/* LINT1 takes NMIs, as on a PC: QEMU's inject-nmi arrives there,
	 * the host's request for a stop (postmortem.h). */
	*reg(REG_LVT_LINT1) = LVT_MODE_NMI;
}

uint32_t lapic_id(void)
{
	return *reg(REG_ID) >> 24;
}

void lapic_eoi(void)
{
	*reg(REG_EOI) = 0;
}

/* The TSC against the APIC timer, once (the boot CPU, before the APs
 * start; every CPU's timer and TSC run at the same rates). */
void lapic_timer_calibrate(void)
{
	uint32_t start = 0xFFFFFFFFu;
	uint64_t t0, t1;

	*reg(REG_TIMER_DIV) = TIMER_DIV_1;
	*reg(REG_LVT_TIMER) = LVT_MASKED | MACHINE_VEC_WAKEUP;
	*reg(REG_TIMER_INIT) = start;
	t0 = rdtsc();
	while (start - *reg(REG_TIMER_CUR) < CALIBRATE_TICKS) {
		cpu_relax();
	}
	t1 = rdtsc();
	cal_ticks = start - *reg(REG_TIMER_CUR);
	cal_tsc = t1 - t0 != 0 ? t1 - t0 : 1;
	*reg(REG_TIMER_INIT) = 0;
}

uint64_t lapic_tsc_khz(void)
{
	/* QEMU's APIC timer ticks at 1 GHz: cal_ticks ns took cal_tsc. */
	return cal_tsc * 1000000ull / cal_ticks;
}

void lapic_timer_arm(uint64_t tsc_delta)
{
	uint64_t ticks = tsc_delta * cal_ticks / cal_tsc + 1;

	if (tsc_delta > (1ull << 40)) { /* no overflow; re-armed later */
		ticks = 0xFFFFFFFFu;
	}
	*reg(REG_TIMER_DIV) = TIMER_DIV_1;
	*reg(REG_LVT_TIMER) = MACHINE_VEC_WAKEUP; /* one-shot */
	*reg(REG_TIMER_INIT) =
		ticks > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)ticks;
}

void lapic_timer_stop(void)
{
	*reg(REG_TIMER_INIT) = 0;
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
