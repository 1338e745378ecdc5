/* SPDX-License-Identifier: MIT */
/*
 * Memory is encrypted: a page whose owner changes never shows its former
 * plaintext. On SNP hardware a page's bytes are ciphertext under the
 * guest's key; read through a shared (C-bit clear) mapping after the host
 * took the page they are that ciphertext, and a shared page made private
 * and validated reads as the decryption of what was there (AMD APM vol. 2
 * 15.34.1, 15.36.1; with guest_memfd the two are even different host
 * pages). Each check writes a pattern, has the page change owner, and
 * reads the other side:
 * - private -> shared through the GHCB MSR protocol, one 4 KiB page of a
 *   2 MiB RMP entry (the host PSMASHes it), and back to private,
 *   validated through the SVSM's PVALIDATE call, as VMPL1 must;
 * - the same for a whole 2 MiB entry through the GHCB page's PSC;
 * - KVM's implicit conversion: a private page read through a shared
 *   mapping without a PSC, and back through the private one;
 * Back to private, VMPL1 reads neither the shared bytes nor garbage:
 * the SVSM zeroes every page it validates for the guest (T04,
 * core_pvalidate.c), so that direction of the machine's model is seen
 * only at VMPL0; the checks hold the guest's view there all the same.
 * - the attack: a page of the SVSM's own text, whose plaintext this guest
 *   knows from the SVSM's ELF (svsm_page.h, scripts/emu-svsm-page.py),
 *   made shared at VMPL1's request and read shared. The host may do that
 *   (it cannot know whose page it is); the hardware shows only
 *   ciphertext, and the SVSM would fault on its next touch of the page
 *   (its validation is gone). It is a boot-only function's page, and this
 *   suite runs last, so the SVSM never touches it again in this run.
 */
#include "svsm/std.h"

#include "guest.h"
#include "svsm_page.h"

#define R_SUCCESS 0x00000000u
#define C_PVALIDATE 1ull
#define PV_2M 1ull
#define PV_VALIDATE 4ull
#define PAGE 4096ull
#define SPAN_2M 0x200000ull
/* After the 2 MiB RMP suite's 4 MiB: one 2 MiB for 4 KiB conversions,
 * one converted whole. Their private views are aliases at 3 GiB + 4 MiB
 * (tests_faults uses the first 4 MiB there); the identity maps are made
 * shared. */
#define CRYPT_4K (G_RMP2M_BASE + 2 * SPAN_2M)
#define CRYPT_2M (G_RMP2M_BASE + 3 * SPAN_2M)
#define ALIAS_4K 0xC0400000ull
#define ALIAS_2M 0xC0600000ull
#define ALIAS_SVSM 0xC0800000ull
#define PATTERN_PRIVATE 0x5EC12E7000000000ull
#define PATTERN_SHARED 0x5A12ED0000000000ull
/* GHCB page protocol (56421): the PSC event, its buffer in the shared
 * buffer, an entry's fields. */
#define MSR_GHCB 0xC0010130u
#define NAE_PSC 0x80000010ull
#define GHCB_EXIT_CODE 0x390u
#define GHCB_EXIT_INFO_1 0x398u
#define GHCB_EXIT_INFO_2 0x3A0u
#define GHCB_SCRATCH 0x3A8u
#define GHCB_BITMAP 0x3F0u
#define GHCB_BUFFER 0x800u
#define GHCB_VERSION 0xFFAu
#define GHCB_USAGE 0xFFCu
#define PSC_OP_PRIVATE 1ull
#define PSC_OP_SHARED 2ull
#define PSC_ENTRY_2M (1ull << 56)

static const uint8_t svsm_page[PAGE] = SVSM_PAGE_BYTES;

/* One PVALIDATE entry through the SVSM (58019 7.3), as Linux's
 * svsm_pval_4k_page. */
static uint32_t pvalidate_one(uint64_t entry)
{
	struct svsm_ca *ca = ca_get();
	uint16_t hdr[4] = {1, 0, 0, 0};
	struct svsm_regs r = {.rax = C_PVALIDATE};

	memcpy(ca->buffer, hdr, sizeof(hdr));
	memcpy(ca->buffer + 8, &entry, 8);
	r.rcx = (uint64_t)ca->buffer;
	return svsm_call(&r);
}

static void fill(uint64_t va, uint64_t pattern)
{
	volatile uint64_t *p = (volatile uint64_t *)va;
	uint64_t i;

	for (i = 0; i < PAGE / 8; i++) {
		p[i] = pattern | i;
	}
}

/* How many of the page's 512 words still hold @pattern: ciphertext
 * matches one by chance with probability 2^-55. */
static unsigned pattern_words(uint64_t va, uint64_t pattern)
{
	const volatile uint64_t *p = (const volatile uint64_t *)va;
	unsigned n = 0;
	uint64_t i;

	for (i = 0; i < PAGE / 8; i++) {
		n += p[i] == (pattern | i) ? 1u : 0u;
	}
	return n;
}

static void set(volatile uint8_t *g, unsigned off, uint64_t v)
{
	unsigned bit = off / 8;

	*(volatile uint64_t *)(g + off) = v;
	*(volatile uint64_t *)(g + GHCB_BITMAP + (bit / 64) * 8) |=
		1ull << (bit % 64);
}

/* The GHCB page's PSC of one 2 MiB entry at @gpa; true when the host
 * reports it done (no error, the header past its one entry). */
static bool ghcb_psc_2m(uint64_t gpa, uint64_t op)
{
	volatile uint8_t *g = ghcb_for_vc();
	volatile uint8_t *buf;
	uint64_t entry = gpa | (op << 52) | PSC_ENTRY_2M;
	uint16_t hdr[4] = {0, 0, 0, 0};
	uint64_t saved;

	if (g == NULL) {
		return false;
	}
	buf = g + GHCB_BUFFER;
	*(volatile uint64_t *)(g + GHCB_BITMAP) = 0;
	*(volatile uint64_t *)(g + GHCB_BITMAP + 8) = 0;
	set(g, GHCB_EXIT_CODE, NAE_PSC);
	set(g, GHCB_EXIT_INFO_1, 0);
	set(g, GHCB_EXIT_INFO_2, 0);
	set(g, GHCB_SCRATCH, (uint64_t)buf);
	memcpy((void *)buf, hdr, sizeof(hdr));
	memcpy((void *)(buf + 8), &entry, 8);
	*(volatile uint16_t *)(g + GHCB_VERSION) = 2;
	*(volatile uint32_t *)(g + GHCB_USAGE) = 0;
	saved = g_rdmsr(MSR_GHCB);
	g_wrmsr(MSR_GHCB, (uint64_t)g);
	__asm__ volatile("rep; vmmcall" ::: "memory");
	g_wrmsr(MSR_GHCB, saved);
	memcpy(hdr, (const void *)buf, sizeof(hdr));
	return *(volatile uint64_t *)(g + GHCB_EXIT_INFO_2) == 0 && hdr[0] == 1;
}

/* One 4 KiB page of a 2 MiB RMP entry through the GHCB MSR protocol. */
static void crypt_msr_4k(void)
{
	uint64_t gpa = CRYPT_4K;
	uint64_t priv = ALIAS_4K;

	CHECK_EQ(pvalidate_one(gpa | PV_VALIDATE), R_SUCCESS);
	fill(priv, PATTERN_PRIVATE);
	CHECK_EQ(pattern_words(priv, PATTERN_PRIVATE), PAGE / 8);
	/* set_memory_decrypted(): rescind, the PSC, the shared mapping. */
	CHECK_EQ(pvalidate_one(gpa), R_SUCCESS);
	CHECK_THAT(msr_page_state(gpa, true), "MSR PSC to shared");
	CHECK_EQ(pattern_words(gpa, PATTERN_PRIVATE), 0);
	fill(gpa, PATTERN_SHARED);
	CHECK_EQ(pattern_words(gpa, PATTERN_SHARED), PAGE / 8);
	/* set_memory_encrypted(): the PSC, then validate. */
	CHECK_THAT(msr_page_state(gpa, false), "MSR PSC to private");
	CHECK_EQ(pvalidate_one(gpa | PV_VALIDATE), R_SUCCESS);
	CHECK_EQ(pattern_words(priv, PATTERN_SHARED), 0);
	CHECK_EQ(pattern_words(priv, PATTERN_PRIVATE), 0);
}

/* A whole 2 MiB RMP entry through the GHCB page's PSC: its first, a
 * middle and its last page. */
static void crypt_ghcb_2m(void)
{
	static const uint64_t at[3] = {0, 255 * PAGE, SPAN_2M - PAGE};
	uint64_t gpa = CRYPT_2M;
	uint64_t priv = ALIAS_2M;
	unsigned i, left = 0;

	CHECK_EQ(pvalidate_one(gpa | PV_2M | PV_VALIDATE), R_SUCCESS);
	for (i = 0; i < 3; i++) {
		fill(priv + at[i], PATTERN_PRIVATE);
	}
	CHECK_EQ(pvalidate_one(gpa | PV_2M), R_SUCCESS);
	CHECK_THAT(ghcb_psc_2m(gpa, PSC_OP_SHARED), "GHCB PSC 2 MiB to shared");
	for (i = 0; i < 3; i++) {
		left += pattern_words(gpa + at[i], PATTERN_PRIVATE);
		fill(gpa + at[i], PATTERN_SHARED);
	}
	CHECK_EQ(left, 0);
	left = 0;
	CHECK_THAT(ghcb_psc_2m(gpa, PSC_OP_PRIVATE),
		   "GHCB PSC 2 MiB to private");
	CHECK_EQ(pvalidate_one(gpa | PV_2M | PV_VALIDATE), R_SUCCESS);
	for (i = 0; i < 3; i++) {
		left += pattern_words(priv + at[i], PATTERN_SHARED);
	}
	CHECK_EQ(left, 0);
}

/* KVM's implicit conversion (QEMU's kvm_convert_memory): a private page
 * touched through a shared mapping becomes shared, and back. */
static void crypt_implicit(void)
{
	uint64_t gpa = CRYPT_4K + PAGE;
	uint64_t priv = ALIAS_4K + PAGE;

	CHECK_EQ(pvalidate_one(gpa | PV_VALIDATE), R_SUCCESS);
	fill(priv, PATTERN_PRIVATE);
	CHECK_EQ(pattern_words(gpa, PATTERN_PRIVATE), 0);
	fill(gpa, PATTERN_SHARED);
	/* Private again, and not validated: #VC 0x404. */
	CHECK_EQ(probe_read(priv), FAULT_VC);
	CHECK_EQ(probe_error, 0x404);
	CHECK_EQ(pvalidate_one(gpa | PV_VALIDATE), R_SUCCESS);
	CHECK_EQ(pattern_words(priv, PATTERN_SHARED), 0);
}

/* The attack: the SVSM's page made shared at VMPL1's request. */
static void crypt_svsm_page(void)
{
	uint64_t gpa = SVSM_PAGE_GPA;
	uint64_t va = ALIAS_SVSM + gpa % SPAN_2M;
	const volatile uint8_t *p = (const volatile uint8_t *)va;
	unsigned i, same = 0;
	bool plaintext = true;

	CHECK_THAT(gpa >= g_secrets->svsm_base &&
			   gpa + PAGE <=
				   g_secrets->svsm_base + g_secrets->svsm_size,
		   "the page is the SVSM's");
	g_alias_private_2m(ALIAS_SVSM, gpa & ~(SPAN_2M - 1));
	*g_pte_of(ALIAS_SVSM, 1) &= ~(1ull << g_c_bit());
	__asm__ volatile("invlpg (%0)" ::"r"(va) : "memory");
	CHECK_THAT(msr_page_state(gpa, true), "the host made it shared");
	for (i = 0; i < PAGE; i++) {
		same += p[i] == svsm_page[i] ? 1u : 0u;
		plaintext = plaintext && p[i] == svsm_page[i];
	}
	g_print("  SVSM page %llx (%s) read shared: %u of 4096 bytes its "
		"plaintext's\n",
		(unsigned long long)gpa, SVSM_PAGE_SYMBOL, same);
	CHECK_THAT(!plaintext, "the SVSM's plaintext is not shown");
	/* Chance alone matches about 16 bytes. */
	CHECK_THAT(same < 256, "the bytes read are not the SVSM's");
}

void tests_crypt(void)
{
	g_section("memory encryption: no plaintext across a change of owner");
	g_alias_private_2m(ALIAS_4K, CRYPT_4K);
	g_alias_private_2m(ALIAS_2M, CRYPT_2M);
	g_map_shared_2m(CRYPT_4K);
	g_map_shared_2m(CRYPT_2M);
	crypt_msr_4k();
	crypt_ghcb_2m();
	crypt_implicit();
	crypt_svsm_page();
}
