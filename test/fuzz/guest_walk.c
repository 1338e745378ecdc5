/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the emulated machine's walk of a vCPU's page tables
 * (emu/src/hw/walk.c), which the hardware role uses on tables the guest
 * controls: the instruction at RIP, RMPADJUST/PVALIDATE operands, the
 * IDT, TSS and stack of a #VC it delivers. The input fills 16 pages of
 * guest RAM with tables whose entries are folded to point back into those
 * pages (C-bit set or not, or anywhere), sets each page's RMP state, and
 * picks CR0/CR3/CR4/EFER, CPL, RFLAGS.AC, VMPL and address. Checks: no
 * fault or sanitizer report; a read that succeeds returns the bytes at the
 * translated address; an emulated instruction's operand write that
 * succeeds leaves its bytes there, one that faults names an address in
 * the operand and the error code of a write at that CPL; nothing outside
 * guest RAM is touched (guest_ptr below is the only way in).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/rmp.h"
#include "hw/walk.h"
#include "machine/layout.h"
#include "machine/machine.h"

#define PAGES 16u
#define RAM (PAGES * PAGE)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t ram[RAM] __attribute__((aligned(4096)));
static struct rmp_entry entries[PAGES];
struct rmp machine_rmp;
uint64_t guest_ram_size = RAM;

void *guest_ptr(uint64_t gpa, uint64_t len)
{
	gpa &= ~MACHINE_C_MASK;
	if (len == 0 || gpa >= guest_ram_size || len > guest_ram_size - gpa) {
		return NULL;
	}
	return ram + gpa;
}

void rmp_lock(void)
{
}

void rmp_unlock(void)
{
}

static uint64_t fold(uint64_t e, uint8_t how)
{
	uint64_t flags = e & (0xFFFull | (1ull << 63));
	uint64_t page = (e >> 12) % PAGES;

	switch (how % 4) {
	case 0:
		return e; /* as it is: mostly outside RAM */
	case 1:
		return (page << 12) | flags | MACHINE_C_MASK | 1;
	case 2:
		return (page << 12) | flags | 1; /* shared */
	default:
		return (page << 12) | flags | MACHINE_C_MASK | 0x81; /* large */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snp_vmsa v;
	uint8_t buf[64], src[64];
	uint64_t va, gpa;
	unsigned vmpl, i;
	bool fetch;
	struct gw_fault f;
	enum gw_result r;
	unsigned how;

	if (size < 48 + PAGES) {
		return 0;
	}
	memset(&v, 0, sizeof(v));
	memset(ram, 0, sizeof(ram));
	rmp_init(&machine_rmp, entries, PAGES);
	for (i = 0; i < PAGES; i++) {
		uint8_t s = data[i];

		if (s & 1) {
			(void)rmp_launch_page(&machine_rmp, i * PAGE);
			if (s & 2) {
				(void)rmp_rmpadjust(&machine_rmp, 0, i * PAGE,
						    0, 1 | (s & 0xF0u) << 4);
			}
		}
	}
	data += PAGES;
	size -= PAGES;
	memcpy(&v.cr3, data, 8);
	v.cr3 = fold(v.cr3, data[8]) & ~0xFFFull;
	v.cr0 = (data[9] & 1) ? (1ull << 31) | 1 : 1;
	v.cr4 = (data[9] & 2) ? 1ull << 12 : 0;
	v.efer = (data[9] & 4) ? 1ull << 10 : 0;
	vmpl = data[10] % 4;
	fetch = (data[12] & 1) != 0;
	v.cpl = (data[12] & 2) != 0 ? 3 : 0;
	v.cr0 |= (data[12] & 4) != 0 ? 1ull << 16 : 0;	  /* WP */
	v.cr4 |= (data[12] & 8) != 0 ? 1ull << 21 : 0;	  /* SMAP */
	v.rflags = (data[12] & 16) != 0 ? 1ull << 18 : 0; /* AC */
	how = (data[12] & 32) != 0 ? GW_WRITE : 0;
	memcpy(&va, data + 16, 8);
	if (data[11] & 1) {
		va &= RAM - 1;
	}
	memcpy(src, data + 24, 24);
	data += 48;
	size -= 48;
	for (i = 0; i + 9 <= size && i / 9 < RAM / 8; i += 9) {
		uint64_t e;

		memcpy(&e, data + i, 8);
		((uint64_t *)ram)[i / 9] = fold(e, data[i + 8]);
	}
	if (gw_translate(&v, vmpl, va, &gpa) &&
	    (gpa & (PAGE - 1)) != (va & (PAGE - 1)) &&
	    (v.cr0 & (1ull << 31)) != 0) {
		abort(); /* a translation keeps the page offset */
	}
	if (gw_read(&v, vmpl, va, buf, sizeof(buf), fetch) &&
	    gw_translate(&v, vmpl, va, &gpa)) {
		const uint8_t *p = guest_ptr(gpa, 1);
		size_t n = PAGE - (gpa & (PAGE - 1));

		if (p == NULL ||
		    memcmp(buf, p, n < sizeof(buf) ? n : sizeof(buf)) != 0) {
			abort();
		}
	}
	(void)gw_write(&v, vmpl, va, src, 24);
	r = gw_operand_read(&v, vmpl, va, buf, sizeof(buf), how, &f);
	if (r == GW_PF && f.addr - va >= sizeof(buf)) {
		abort(); /* CR2 names a byte of the operand */
	}
	r = gw_operand_write(&v, vmpl, va, src, 24, &f);
	if (r == GW_PF && (f.addr - va >= 24 || (f.error & 2) == 0 ||
			   ((f.error & 4) != 0) != (v.cpl == 3))) {
		abort(); /* a write's error code, at its CPL */
	}
	if (r == GW_OK && gw_translate(&v, vmpl, va, &gpa)) {
		const uint8_t *p = guest_ptr(gpa, 1);
		size_t n = PAGE - (gpa & (PAGE - 1));

		if (p == NULL || memcmp(src, p, n < 24 ? n : 24) != 0) {
			abort(); /* the operand's bytes, where it maps */
		}
	}
	return 0;
}
