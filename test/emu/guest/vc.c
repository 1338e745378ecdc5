/* SPDX-License-Identifier: MIT */
/*
 * The test guest's #VC handler, as an SNP guest needs one (Linux:
 * arch/x86/coco/sev/vc-handle.c): the CPU raises #VC with the exit code
 * as error code for what SEV-ES intercepts, and the handler asks the
 * hypervisor through the GHCB. Served here: port I/O (the console and
 * isa-debug-exit: IN/OUT with an immediate or DX port) and CPUID (GHCB MSR
 * protocol CPUID requests, which work before a GHCB exists). Anything
 * else is unexpected (entry.S); faults the probes arm never come here.
 */
#include "guest.h"

#define EXIT_CPUID 0x72u
#define EXIT_IOIO 0x7Bu
#define EXIT_MSR 0x7Cu
#define IOIO_IN 0x1ull
#define IOIO_SZ8 (1ull << 4)
#define IOIO_SZ16 (1ull << 5)
#define IOIO_SZ32 (1ull << 6)
#define IOIO_A16 (1ull << 7)
#define MSR_GHCB 0xC0010130u
#define MSR_CPUID_REQ 0x004ull
#define MSR_CPUID_RESP 0x005ull
#define MSR_SEV_INFO_REQ 0x002ull
#define MSR_SEV_INFO_RESP 0x001ull

/* The frame entry.S builds: saved registers, then the CPU's. */
struct vc_frame {
	uint64_t r11, r10, r9, r8, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;
};

bool guest_vc(struct vc_frame *f);

static uint64_t msr_request(uint64_t req)
{
	uint64_t saved = g_rdmsr(MSR_GHCB);
	uint64_t resp;

	g_wrmsr(MSR_GHCB, req);
	__asm__ volatile("rep; vmmcall" ::: "memory");
	resp = g_rdmsr(MSR_GHCB);
	g_wrmsr(MSR_GHCB, saved);
	return resp;
}

static bool vc_cpuid(struct vc_frame *f)
{
	uint64_t *regs[4] = {&f->rax, &f->rbx, &f->rcx, &f->rdx};
	uint32_t leaf = (uint32_t)f->rax;
	uint64_t i;

	for (i = 0; i < 4; i++) {
		uint64_t r = msr_request(((uint64_t)leaf << 32) | (i << 30) |
					 MSR_CPUID_REQ);

		if ((r & 0xFFFu) != MSR_CPUID_RESP) {
			return false;
		}
		*regs[i] = r >> 32;
	}
	f->rip += 2;
	return true;
}

static bool vc_ioio(struct vc_frame *f)
{
	const uint8_t *insn = (const uint8_t *)f->rip;
	volatile uint8_t *g = ghcb_for_vc();
	unsigned len = 1, size = 4;
	uint64_t info, port, rax = f->rax;
	bool in;

	if (g == NULL) {
		return false;
	}
	if (insn[0] == 0x66) {
		size = 2;
		insn++;
		len++;
	}
	switch (insn[0]) {
	case 0xE4:
	case 0xE5:
	case 0xE6:
	case 0xE7:
		port = insn[1];
		len++;
		break;
	case 0xEC:
	case 0xED:
	case 0xEE:
	case 0xEF:
		port = (uint16_t)f->rdx;
		break;
	default:
		return false;
	}
	if ((insn[0] & 1) == 0) {
		size = 1;
	}
	in = (insn[0] & 2) == 0;
	info = (port << 16) | IOIO_A16 | (in ? IOIO_IN : 0) |
	       (size == 1   ? IOIO_SZ8
		: size == 2 ? IOIO_SZ16
			    : IOIO_SZ32);
	if (ghcb_nae(g, EXIT_IOIO, info, 0, &rax) != 0) {
		return false;
	}
	if (in) {
		uint64_t mask =
			size == 4 ? 0xFFFFFFFFull : (1ull << (size * 8)) - 1;

		f->rax = (f->rax & ~mask) | (rax & mask);
	}
	f->rip += len;
	return true;
}

/* RDMSR/WRMSR (0F 32 / 0F 30) through the GHCB MSR event, as Linux's
 * vc_handle_msr; a #GP answer is unexpected here (the tests ask for one
 * through ghcb_nae_msr). */
static bool vc_msr(struct vc_frame *f)
{
	const uint8_t *insn = (const uint8_t *)f->rip;
	volatile uint8_t *g = ghcb_for_vc();
	uint64_t val = (f->rdx << 32) | (uint32_t)f->rax, info2 = 0;
	bool write;

	if (g == NULL || insn[0] != 0x0F ||
	    (insn[1] != 0x30 && insn[1] != 0x32)) {
		return false;
	}
	write = insn[1] == 0x30;
	if (ghcb_nae_msr(g, write, (uint32_t)f->rcx, &val, &info2) != 0) {
		return false;
	}
	if (!write) {
		f->rax = (uint32_t)val;
		f->rdx = val >> 32;
	}
	f->rip += 2;
	return true;
}

bool guest_vc(struct vc_frame *f)
{
	switch (f->error) {
	case EXIT_MSR:
		return vc_msr(f);
	case EXIT_CPUID:
		return vc_cpuid(f);
	case EXIT_IOIO:
		return vc_ioio(f);
	default:
		return false;
	}
}

unsigned g_c_bit(void)
{
	uint64_t r = msr_request(MSR_SEV_INFO_REQ);

	return (r & 0xFFFu) == MSR_SEV_INFO_RESP ? (unsigned)(r >> 24) & 0x3Fu
						 : 0;
}

void g_map_shared_2m(uint64_t gpa)
{
	uint64_t c = 1ull << g_c_bit();
	uint64_t mask = 0x000FFFFFFFFFF000ull & ~c;
	uint64_t cr3, *pml4, *pdpt, *pd;

	__asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
	pml4 = (uint64_t *)(cr3 & mask);
	pdpt = (uint64_t *)(pml4[(gpa >> 39) & 511] & mask);
	pd = (uint64_t *)(pdpt[(gpa >> 30) & 511] & mask);
	pd[(gpa >> 21) & 511] &= ~c;
	__asm__ volatile("invlpg (%0)" ::"r"(gpa) : "memory");
}

void g_alias_private_2m(uint64_t va, uint64_t gpa)
{
	uint64_t c = 1ull << g_c_bit();
	uint64_t mask = 0x000FFFFFFFFFF000ull & ~c;
	uint64_t cr3, *pml4, *pdpt, *pd, *e;

	__asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
	pml4 = (uint64_t *)(cr3 & mask);
	pdpt = (uint64_t *)(pml4[(va >> 39) & 511] & mask);
	pd = (uint64_t *)(pdpt[(va >> 30) & 511] & mask);
	e = &pd[(va >> 21) & 511];
	*e = (*e & ~(0x000FFFFFFFE00000ull)) | (gpa & 0x000FFFFFFFE00000ull) |
	     c;
	__asm__ volatile("invlpg (%0)" ::"r"(va) : "memory");
}

uint64_t *g_pte_of(uint64_t va, unsigned level)
{
	uint64_t mask = 0x000FFFFFFFFFF000ull & ~(1ull << g_c_bit());
	uint64_t cr3, *t;
	unsigned l;

	__asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
	t = (uint64_t *)(cr3 & mask);
	for (l = 3; l > level; l--) {
		t = (uint64_t *)(t[(va >> (12 + 9 * l)) & 511] & mask);
	}
	return &t[(va >> (12 + 9 * level)) & 511];
}
