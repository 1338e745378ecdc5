/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor's virtual x2APIC, as Linux at VMPL1 uses it (spec notes
 * linux-snp-guest.md 6.2): every APIC register is an MSR, reached through
 * #VC and the GHCB MSR event; interrupts arrive by injection into VMPL1.
 * Truths: the x2APIC architecture (SDM vol. 3 ch. 11 / APM vol. 2 ch. 16)
 * and KVM's answers (#GP for read-only, write-only and reserved
 * registers). Vectors: 0x40 timer, 0x41 self-IPI, 0x42 the BSP's ping to
 * an AP, 0x43 the AP's pong.
 */
#include "svsm/std.h"

#include "abi/virtio_mmio.h"

#include "guest.h"
#include "port_io.h"

#define MSR_APIC_BASE 0x1Bu
#define MSR_TSC_DEADLINE 0x6E0u
#define X_ID 0x802u
#define X_VERSION 0x803u
#define X_TPR 0x808u
#define X_PPR 0x80Au
#define X_EOI 0x80Bu
#define X_LDR 0x80Du
#define X_SVR 0x80Fu
#define X_ISR0 0x810u
#define X_IRR0 0x820u
#define X_ICR 0x830u
#define X_LVT_TIMER 0x832u
#define X_TMICT 0x838u
#define X_TMCCT 0x839u
#define X_TDCR 0x83Eu
#define X_SELF_IPI 0x83Fu

#define IOAPIC 0xFEC00000ull
#define HPET 0xFED00000ull
#define VEC_TIMER 0x40u
#define VEC_SELF 0x41u
#define VEC_PING 0x42u
#define VEC_PONG 0x43u
#define VEC_COM1 0x44u
#define LVT_MASKED (1u << 16)
#define TIMER_PERIODIC (1u << 17)
#define TIMER_DEADLINE (2u << 17)
#define ICR_LOGICAL (1ull << 11)
#define EVENT_GP 0x8000030Dull /* valid, exception, vector 13 */
#define CPUS 16u
/* TSC cycles: a short wait, and the most any delivery may take. */
#define SHORT 2000000ull
#define PATIENCE 8000000000ull

static unsigned irqs[5][CPUS];
static bool ap_ready[CPUS];
static bool park_req[CPUS]; /* the BSP asks the AP to park */
static bool parked[CPUS];

static unsigned count(unsigned vector, unsigned cpu)
{
	return __atomic_load_n(&irqs[vector - VEC_TIMER][cpu % CPUS],
			       __ATOMIC_SEQ_CST);
}

void guest_irq(unsigned vector);
void guest_irq(unsigned vector)
{
	unsigned cpu = g_apic_id() % CPUS;

	if (vector >= VEC_TIMER && vector <= VEC_COM1) {
		__atomic_fetch_add(&irqs[vector - VEC_TIMER][cpu], 1,
				   __ATOMIC_SEQ_CST);
	}
	if (vector == VEC_PING) {
		g_wrmsr(X_ICR, VEC_PONG); /* to APIC ID 0, the BSP */
	}
	g_wrmsr(X_EOI, 0);
}

/* Interrupts on for one instruction's window. */
static void irq_window(void)
{
	__asm__ volatile("sti; nop; cli" ::: "memory");
}

/* HLT with interrupts on until @vector's count on this CPU passes
 * @before (a working timer or IPI wakes it; a broken one hangs here and
 * the run times out). */
static void halt_for(unsigned vector, unsigned before)
{
	while (count(vector, g_apic_id()) == before) {
		__asm__ volatile("sti; hlt; cli" ::: "memory");
	}
}

/* Interrupts on while spinning, until @vector's count on @cpu passes
 * @before or PATIENCE runs out: whether it came. */
static bool spin_for(unsigned vector, unsigned cpu, unsigned before,
		     uint64_t patience)
{
	uint64_t end = g_rdtsc() + patience;

	__asm__ volatile("sti" ::: "memory");
	while (count(vector, cpu) == before && g_rdtsc() < end) {
		__builtin_ia32_pause();
	}
	__asm__ volatile("cli" ::: "memory");
	return count(vector, cpu) != before;
}

static bool gp(bool write, uint32_t msr, uint64_t val)
{
	uint64_t info2 = 0;

	return ghcb_nae_msr(ghcb_for_vc(), write, msr, &val, &info2) == 1 &&
	       info2 == EVENT_GP;
}

static void registers(void)
{
	uint64_t base = g_rdmsr(MSR_APIC_BASE);
	uint32_t id = g_apic_id();
	uint32_t ecx;

	__asm__ volatile("cpuid" : "=c"(ecx) : "a"(1), "c"(0) : "ebx", "edx");
	CHECK_THAT((ecx & (1u << 21)) != 0, "CPUID 1: x2APIC");
	CHECK_THAT((ecx & (1u << 24)) != 0, "CPUID 1: TSC-deadline timer");
	CHECK_EQ(base & ~0xFFFull, 0xFEE00000ull);
	CHECK_EQ(base & 0xD00, 0xD00); /* enabled, x2APIC, BSP */
	CHECK_EQ(g_rdmsr(X_ID), id);
	CHECK_EQ(g_rdmsr(X_VERSION) & 0xFF, 0x14);
	CHECK_EQ(g_rdmsr(X_LDR), (1u << (id & 15)) | ((id >> 4) << 16));
	/* KVM's #GP: read-only, write-only, reserved, non-zero EOI, the
	 * upper half of a 32-bit register, an MSR it does not know. */
	CHECK_THAT(gp(true, X_ID, 5), "#GP: write of the APIC ID");
	CHECK_THAT(gp(false, X_EOI, 0), "#GP: read of EOI");
	CHECK_THAT(gp(true, X_EOI, 1), "#GP: EOI with a value");
	CHECK_THAT(gp(false, 0x804, 0), "#GP: reserved x2APIC register");
	CHECK_THAT(gp(true, X_TPR, 1ull << 32), "#GP: TPR's upper half");
	CHECK_THAT(gp(true, MSR_APIC_BASE, 0xFEE00800ull),
		   "#GP: leaving x2APIC mode");
	CHECK_THAT(gp(false, 0xC0011234u, 0), "#GP: an unknown MSR");
	CHECK_THAT(!gp(false, 0xC0010010u, 0), "SYSCFG reads (as 0)");
	g_wrmsr(X_SVR, 0x1FF); /* software-enabled, spurious 0xFF */
	CHECK_EQ(g_rdmsr(X_SVR), 0x1FF);
}

static void self_ipi(void)
{
	unsigned cpu = g_apic_id(), before = count(VEC_SELF, cpu);

	g_wrmsr(X_SELF_IPI, VEC_SELF);
	CHECK_EQ(g_rdmsr(X_IRR0 + VEC_SELF / 32) >> (VEC_SELF % 32) & 1, 1);
	CHECK_EQ(count(VEC_SELF, cpu), before); /* IF was clear */
	irq_window();
	CHECK_EQ(count(VEC_SELF, cpu), before + 1);
	CHECK_EQ(g_rdmsr(X_IRR0 + VEC_SELF / 32), 0);
	CHECK_EQ(g_rdmsr(X_ISR0 + VEC_SELF / 32), 0); /* EOI'd */
	/* A task priority of class 5 holds back vector 0x41 (class 4). */
	g_wrmsr(X_TPR, 0x50);
	g_wrmsr(X_SELF_IPI, VEC_SELF);
	CHECK_EQ(g_rdmsr(X_PPR), 0x50);
	irq_window();
	CHECK_EQ(count(VEC_SELF, cpu), before + 1);
	g_wrmsr(X_TPR, 0);
	irq_window();
	CHECK_EQ(count(VEC_SELF, cpu), before + 2);
}

static void timers(void)
{
	unsigned cpu = g_apic_id(), before;
	uint64_t deadline;

	/* TSC-deadline: HLT sleeps until it fires. */
	g_wrmsr(X_LVT_TIMER, TIMER_DEADLINE | VEC_TIMER);
	before = count(VEC_TIMER, cpu);
	deadline = g_rdtsc() + SHORT;
	g_wrmsr(MSR_TSC_DEADLINE, deadline);
	halt_for(VEC_TIMER, before);
	CHECK_THAT(g_rdtsc() >= deadline, "TSC-deadline: not early");
	CHECK_EQ(count(VEC_TIMER, cpu), before + 1);
	CHECK_EQ(g_rdmsr(MSR_TSC_DEADLINE), 0); /* disarmed once fired */
	/* Masked: no interrupt. */
	g_wrmsr(X_LVT_TIMER, TIMER_DEADLINE | LVT_MASKED | VEC_TIMER);
	g_wrmsr(MSR_TSC_DEADLINE, g_rdtsc() + SHORT / 4);
	CHECK_THAT(!spin_for(VEC_TIMER, cpu, before + 1, SHORT * 4),
		   "a masked timer stays quiet");
	/* One-shot count-down: 2 ms of the 1 GHz APIC bus. */
	g_wrmsr(X_LVT_TIMER, VEC_TIMER);
	g_wrmsr(X_TDCR, 0xB); /* divide by 1 */
	before = count(VEC_TIMER, cpu);
	g_wrmsr(X_TMICT, 2000000);
	CHECK_THAT(g_rdmsr(X_TMCCT) <= 2000000, "current count counts down");
	halt_for(VEC_TIMER, before);
	CHECK_EQ(g_rdmsr(X_TMCCT), 0);
	CHECK_THAT(!spin_for(VEC_TIMER, cpu, before + 1, SHORT * 4),
		   "one-shot fires once");
	/* Periodic, 1 ms: three ticks, then stopped. */
	g_wrmsr(X_LVT_TIMER, TIMER_PERIODIC | VEC_TIMER);
	before = count(VEC_TIMER, cpu);
	g_wrmsr(X_TMICT, 1000000);
	halt_for(VEC_TIMER, before);
	halt_for(VEC_TIMER, before + 1);
	halt_for(VEC_TIMER, before + 2);
	g_wrmsr(X_TMICT, 0);
	irq_window(); /* a tick already pending may still arrive */
	before = count(VEC_TIMER, cpu);
	CHECK_THAT(!spin_for(VEC_TIMER, cpu, before, SHORT * 8),
		   "a stopped periodic timer stays quiet");
	g_wrmsr(X_LVT_TIMER, LVT_MASKED | VEC_TIMER);
}

/* MMIO through the GHCB, as Linux's #VC handler sends it: the virtual
 * IO-APIC answers, other addresses read as no device, RAM is refused. */
static uint64_t mmio(bool write, uint64_t gpa, unsigned len, uint64_t v)
{
	uint64_t info1 = ghcb_nae_mmio(ghcb_for_vc(), write, gpa, len, &v);

	CHECK_EQ(info1, 0);
	return v;
}

static void mmio_devices(void)
{
	uint64_t v = 0;
	unsigned before;

	(void)mmio(true, IOAPIC, 4, 1); /* IOREGSEL: version */
	CHECK_EQ(mmio(false, IOAPIC + 0x10, 4, 0), 0x170020);
	(void)mmio(true, IOAPIC, 4, 0x10 + 2 * 4); /* pin 4, low half */
	CHECK_EQ(mmio(false, IOAPIC + 0x10, 4, 0), 0x10000); /* masked */
	(void)mmio(true, IOAPIC + 0x10, 4, 0x10024);
	CHECK_EQ(mmio(false, IOAPIC + 0x10, 4, 0), 0x10024);
	(void)mmio(true, IOAPIC, 4, 0x10 + 2 * 4 + 1); /* its destination */
	(void)mmio(true, IOAPIC + 0x10, 4, 0x01000000);
	CHECK_EQ(mmio(false, IOAPIC + 0x10, 4, 0), 0x01000000);
	CHECK_EQ(mmio(false, HPET, 8, 0), ~0ull); /* no HPET */
	mmio(true, HPET + 0x10, 8, 1);		  /* dropped */
	/* The SVSM's virtio-mmio slots (its block device) are VMPL0's: at
	 * VMPL1 no device, not even an empty transport's magic. */
	(void)mmio(true, VIRTIO_MMIO_SVSM_BASE + VIRTIO_MMIO_STATUS, 4, 1);
	CHECK_EQ(mmio(false, VIRTIO_MMIO_SVSM_BASE + VIRTIO_MMIO_MAGIC, 4, 0),
		 0xFFFFFFFFull);
	CHECK_EQ(mmio(false, VIRTIO_MMIO_SVSM_BASE + VIRTIO_MMIO_STATUS, 4, 0),
		 0xFFFFFFFFull);
	/* COM1's THRE interrupt through IO-APIC pin 4 to this CPU, as the
	 * 8250 driver enables it. */
	(void)mmio(true, IOAPIC, 4, 0x10 + 2 * 4 + 1);
	(void)mmio(true, IOAPIC + 0x10, 4, g_apic_id() << 24);
	(void)mmio(true, IOAPIC, 4, 0x10 + 2 * 4);
	(void)mmio(true, IOAPIC + 0x10, 4, VEC_COM1);
	before = count(VEC_COM1, g_apic_id());
	out8(0x3F9, 0x02); /* IER: THRI */
	irq_window();
	out8(0x3F9, 0);
	CHECK_EQ(count(VEC_COM1, g_apic_id()), before + 1);
	(void)mmio(true, IOAPIC + 0x10, 4, 0x10000 | VEC_COM1);
	CHECK_EQ(ghcb_nae_mmio(ghcb_for_vc(), false, G_MEM_BASE, 8, &v), 2);
	CHECK_EQ(ghcb_nae_mmio(ghcb_for_vc(), false, IOAPIC, 9, &v), 2);
}

/* Port I/O the machine keeps: the 8259s are virtual (Linux's probe
 * writes and reads back the mask); PCI configuration is the hypervisor's
 * q35 host bridge and LPC, nothing else (hv_pci.c). */
static void machine_ports(void)
{
	uint16_t pmbase;

	out8(0x21, 0xAB);
	CHECK_EQ(in8(0x21), 0xAB);
	out8(0x21, 0xFF);
	CHECK_EQ(in8(0x20), 0);	   /* nothing pending */
	out32(0xCF8, 0x80000000u); /* 00:00.0, the host bridge */
	CHECK_EQ(in32(0xCFC), 0x29C08086u);
	out32(0xCF8, 0x80000800u); /* 00:01.0: QEMU's VGA, not the guest's */
	CHECK_EQ(in32(0xCFC), 0xFFFFFFFFu);
	/* The LPC's PM block: its ACPI part (the PM timer ticks), not its
	 * SMI_EN (PMBASE + 0x30), which would steer SMIs into the firmware
	 * below the machine: no device, a write does not take. */
	out32(0xCF8, 0x8000F840u); /* 00:1f.0, PMBASE */
	pmbase = (uint16_t)(in32(0xCFC) & 0xFF80u);
	CHECK_THAT(pmbase != 0, "the LPC names a PM block");
	CHECK_THAT(in32((uint16_t)(pmbase + 8)) != 0xFFFFFFFFu,
		   "the PM timer reads");
	out32((uint16_t)(pmbase + 0x30), 0x1u);
	CHECK_EQ(in32((uint16_t)(pmbase + 0x30)), 0xFFFFFFFFu);
}

/* Linux without IRQ remapping leaves x2APIC for xAPIC (through
 * disabled, as KVM allows), whose registers are MMIO; and back. */
static void apic_modes(void)
{
	uint64_t base = g_rdmsr(MSR_APIC_BASE);
	uint32_t id = g_apic_id();

	g_wrmsr(MSR_APIC_BASE, base & ~0xC00ull); /* disabled */
	CHECK_EQ(g_rdmsr(MSR_APIC_BASE) & 0xC00, 0);
	g_wrmsr(MSR_APIC_BASE, (base & ~0xC00ull) | 0x800); /* xAPIC */
	CHECK_EQ(mmio(false, 0xFEE00020ull, 4, 0), (uint64_t)id << 24);
	CHECK_EQ(mmio(false, 0xFEE00030ull, 4, 0) & 0xFF, 0x14);
	CHECK_EQ(mmio(false, 0xFEE000F0ull, 4, 0), 0x1FF); /* SVR kept */
	CHECK_THAT(gp(false, X_ID, 0), "#GP: an x2APIC MSR in xAPIC mode");
	g_wrmsr(MSR_APIC_BASE, base); /* x2APIC again */
	CHECK_EQ(g_rdmsr(X_ID), id);
}

void tests_apic(void)
{
	g_section("virtual x2APIC (registers, self-IPI, timers), MMIO, ports");
	registers();
	self_ipi();
	timers();
	mmio_devices();
	apic_modes();
	machine_ports();
}

/* An AP the BSP takes "offline" (apic_park_ap): it leaves its APIC as
 * Linux's dying CPU does, with interrupts it will never take (Linux: the
 * local timer's vector, which fired after interrupts went off), and
 * halts until a new VMSA replaces it. Here a self-IPI under a raised task
 * priority and a periodic timer, both left pending or armed. */
static __attribute__((noreturn)) void park(unsigned idx)
{
	g_wrmsr(X_TPR, 0xF0);
	g_wrmsr(X_SELF_IPI, VEC_SELF);
	g_wrmsr(X_LVT_TIMER, TIMER_PERIODIC | VEC_TIMER);
	g_wrmsr(X_TMICT, 1000000);
	__atomic_store_n(&parked[idx % CPUS], true, __ATOMIC_SEQ_CST);
	for (;;) {
		__asm__ volatile("sti; hlt; cli" ::: "memory");
	}
}

void apic_ap_serve(unsigned idx)
{
	g_wrmsr(X_SVR, 0x1FF);
	__atomic_store_n(&ap_ready[idx % CPUS], true, __ATOMIC_SEQ_CST);
	for (;;) {
		__asm__ volatile("sti; hlt; cli" ::: "memory");
		if (__atomic_load_n(&park_req[idx % CPUS], __ATOMIC_SEQ_CST)) {
			park(idx);
		}
	}
}

void apic_park_ap(unsigned idx)
{
	unsigned pongs = count(VEC_PONG, 0);
	uint64_t end;

	__atomic_store_n(&park_req[idx % CPUS], true, __ATOMIC_SEQ_CST);
	g_wrmsr(X_ICR, ((uint64_t)idx << 32) | VEC_PING); /* wakes it */
	CHECK_THAT(spin_for(VEC_PONG, 0, pongs, PATIENCE),
		   "the AP answered before parking");
	end = g_rdtsc() + PATIENCE;
	while (!__atomic_load_n(&parked[idx % CPUS], __ATOMIC_SEQ_CST) &&
	       g_rdtsc() < end) {
		__builtin_ia32_pause();
	}
	CHECK_THAT(parked[idx % CPUS], "the AP parked with interrupts pending");
	/* Its next VMSA starts afresh and serves again. */
	__atomic_store_n(&park_req[idx % CPUS], false, __ATOMIC_SEQ_CST);
	__atomic_store_n(&parked[idx % CPUS], false, __ATOMIC_SEQ_CST);
	__atomic_store_n(&ap_ready[idx % CPUS], false, __ATOMIC_SEQ_CST);
}

/* KVM resets a vCPU's local APIC when AP Creation gives it a VMSA
 * (sev_snp_ap_creation's KVM_REQ_UPDATE_PROTECTED_GUEST_STATE, then
 * kvm_vcpu_reset(vcpu, true) -> kvm_lapic_reset(vcpu, true)): IRR, ISR
 * and TMR clear, TPR 0, SVR 0xFF, every LVT masked, the timer stopped.
 * What an AP's new VMSA finds, on its first start and after a park. */
void apic_ap_check_init(void)
{
	unsigned i;
	bool clear = true;

	for (i = 0; i < 8; i++) {
		clear = clear && g_rdmsr(X_IRR0 + i) == 0 &&
			g_rdmsr(X_ISR0 + i) == 0;
	}
	CHECK_THAT(clear, "a new VMSA's APIC: IRR and ISR empty");
	CHECK_EQ(g_rdmsr(X_TPR), 0);
	CHECK_EQ(g_rdmsr(X_SVR), 0xFF);
	CHECK_EQ(g_rdmsr(X_LVT_TIMER), LVT_MASKED);
	CHECK_EQ(g_rdmsr(X_TMICT), 0);
}

/* One IPI @icr to AP @ap: it takes the ping and its pong wakes the BSP
 * (spinning, or halted with @halted). */
static void ping(unsigned ap, uint64_t icr, bool halted, const char *what)
{
	unsigned pings = count(VEC_PING, ap), pongs = count(VEC_PONG, 0);
	bool got;

	g_wrmsr(X_ICR, icr | VEC_PING);
	if (halted) {
		/* A TSC-deadline backstop, should the pong never come. */
		g_wrmsr(X_LVT_TIMER, TIMER_DEADLINE | VEC_TIMER);
		g_wrmsr(MSR_TSC_DEADLINE, g_rdtsc() + PATIENCE);
		while (count(VEC_PONG, 0) == pongs &&
		       g_rdmsr(MSR_TSC_DEADLINE) != 0) {
			__asm__ volatile("sti; hlt; cli" ::: "memory");
		}
		g_wrmsr(MSR_TSC_DEADLINE, 0);
		got = count(VEC_PONG, 0) != pongs;
	} else {
		got = spin_for(VEC_PONG, 0, pongs, PATIENCE);
	}
	CHECK_THAT(got, what);
	CHECK_THAT(count(VEC_PING, ap) > pings, what);
}

void tests_apic_ipi(unsigned skip)
{
	uint64_t end = g_rdtsc() + PATIENCE;
	unsigned i, served = 0;
	uint64_t mask = 0;

	g_section("virtual x2APIC: IPIs between vCPUs");
	for (i = 1; i < g_cpu_count && i < CPUS; i++) {
		if (i == skip) {
			continue;
		}
		while (!__atomic_load_n(&ap_ready[i], __ATOMIC_SEQ_CST) &&
		       g_rdtsc() < end) {
			__builtin_ia32_pause();
		}
		CHECK_THAT(ap_ready[i], "the AP enabled its APIC");
		ping(i, (uint64_t)i << 32, false, "IPI, physical destination");
		ping(i, ((1ull << i) << 32) | ICR_LOGICAL, false,
		     "IPI, logical cluster destination");
		ping(i, (uint64_t)i << 32, true, "IPI wakes a halted BSP");
		served++;
		mask |= 1ull << i;
	}
	CHECK_THAT(served > 0, "an AP took IPIs");
	if (served > 0) {
		unsigned before[CPUS], got = 0;

		/* A logical multicast to every AP served: each takes it (their
		 * pongs may coalesce in the BSP's IRR, one vector). */
		for (i = 0; i < CPUS; i++) {
			before[i] = count(VEC_PING, i);
		}
		g_wrmsr(X_ICR, (mask << 32) | ICR_LOGICAL | VEC_PING);
		end = g_rdtsc() + PATIENCE;
		while (got < served && g_rdtsc() < end) {
			irq_window();
			for (i = 0, got = 0; i < CPUS; i++) {
				got += (mask >> i & 1) != 0 &&
				       count(VEC_PING, i) > before[i];
			}
		}
		CHECK_EQ(got, served);
	}
	g_print("[guest] IPIs: %u APs answered\n", served);
}
