/* SPDX-License-Identifier: MIT */
/* Console, results and CPU helpers of the test guest. */
#include <stdarg.h>

#include "svsm/spinlock.h"
#include "svsm/std.h"

#include "guest.h"

#define COM1 0x3F8
/* isa-debug-exit: QEMU exits with status (value << 1) | 1. */
#define EXIT_PORT 0xF4
#define EXIT_PASS 0x10
#define EXIT_FAIL 0x11
#define MSR_GS_BASE 0xC0000101u

struct idt_entry {
	uint16_t off_lo, sel;
	uint8_t ist, type;
	uint16_t off_mid;
	uint32_t off_hi, reserved;
} __attribute__((packed));

#define IRQ_FIRST 0x40u
#define IRQ_COUNT 5u

struct idt_entry guest_idt[IRQ_FIRST + IRQ_COUNT] __attribute__((aligned(16)));
extern const uint64_t guest_exc_table[32];
extern const uint64_t guest_irq_table[IRQ_COUNT];

static struct idt_entry gate(uint64_t h)
{
	return (struct idt_entry){
		.off_lo = (uint16_t)h,
		.sel = 0x08,
		.type = 0x8E,
		.off_mid = (uint16_t)(h >> 16),
		.off_hi = (uint32_t)(h >> 32),
	};
}

static struct spinlock print_lock;
static struct spinlock probe_lock;
static unsigned passed;
static unsigned failed;

static void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

void guest_idt_build(void);
void guest_idt_build(void)
{
	unsigned v;

	for (v = 0; v < 32; v++) {
		guest_idt[v] = gate(guest_exc_table[v]);
	}
	for (v = 0; v < IRQ_COUNT; v++) {
		guest_idt[IRQ_FIRST + v] = gate(guest_irq_table[v]);
	}
}

void g_print(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;
	int i;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1) {
		n = (int)sizeof(buf) - 1;
	}
	spin_lock(&print_lock);
	for (i = 0; i < n; i++) {
		while ((inb(COM1 + 5) & 0x20) == 0) {
		}
		outb(COM1, (uint8_t)buf[i]);
	}
	spin_unlock(&print_lock);
}

void g_check(bool ok, const char *what, const char *file, int line)
{
	if (ok) {
		__atomic_fetch_add(&passed, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_fetch_add(&failed, 1, __ATOMIC_RELAXED);
	g_print("  FAIL %s:%d: %s\n", file, line, what);
}

unsigned g_passed(void)
{
	return __atomic_load_n(&passed, __ATOMIC_RELAXED);
}

unsigned g_failures(void)
{
	return __atomic_load_n(&failed, __ATOMIC_RELAXED);
}

void g_section(const char *name)
{
	g_print("[guest] %s\n", name);
}

void g_exit(bool pass)
{
	g_print("[guest] %u passed, %u failed\n", passed, failed);
	outb(EXIT_PORT, pass && failed == 0 ? EXIT_PASS : EXIT_FAIL);
	for (;;) {
		__asm__ volatile("hlt");
	}
}

void guest_unexpected_exception(uint64_t vector, const uint64_t *frame);
void guest_unexpected_exception(uint64_t vector, const uint64_t *frame)
{
	g_print("[guest] unexpected exception %llu, frame %llx %llx %llx\n",
		(unsigned long long)vector, (unsigned long long)frame[0],
		(unsigned long long)frame[1], (unsigned long long)frame[2]);
	failed++;
	g_exit(false);
}

uint64_t g_rdmsr(uint32_t msr)
{
	uint32_t lo;
	uint32_t hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

void g_wrmsr(uint32_t msr, uint64_t val)
{
	__asm__ volatile("wrmsr"
			 :
			 : "c"(msr), "a"((uint32_t)val),
			   "d"((uint32_t)(val >> 32))
			 : "memory");
}

/* CPUID is a #VC and a round trip to the hypervisor: each CPU keeps its
 * APIC ID + 1 in GS base (0 on a fresh VMSA), which SEV-ES does not
 * intercept. */
uint32_t g_apic_id(void)
{
	uint64_t cached = g_rdmsr(MSR_GS_BASE);
	uint32_t a;
	uint32_t b;
	uint32_t c;
	uint32_t d;

	if (cached != 0) {
		return (uint32_t)(cached - 1);
	}
	__asm__ volatile("cpuid"
			 : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
			 : "a"(1), "c"(0));
	(void)a;
	(void)c;
	(void)d;
	g_wrmsr(MSR_GS_BASE, (b >> 24) + 1ull);
	return b >> 24;
}

uint64_t g_rdtsc(void)
{
	uint32_t lo;
	uint32_t hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

int probe_read(uint64_t va)
{
	int r;

	spin_lock(&probe_lock);
	r = probe_read_raw(va);
	spin_unlock(&probe_lock);
	return r;
}

int probe_write(uint64_t va)
{
	int r;

	spin_lock(&probe_lock);
	r = probe_write_raw(va);
	spin_unlock(&probe_lock);
	return r;
}
