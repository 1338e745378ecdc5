/* SPDX-License-Identifier: MIT */
/*
 * Core-protocol scenarios through real VMGEXITs: discovery, faults,
 * PVALIDATE, REMAP_CA, DEPOSIT/WITHDRAW and hostile calls. Expected values
 * come from 58019 (result codes, list formats) and the SNP architecture
 * (what faults).
 */
#include "svsm/std.h"

#include "guest.h"

/* 58019 Table 4 and section 6. */
#define R_SUCCESS 0x00000000u
#define R_UNSUPPORTED_PROTOCOL 0x80000001u
#define R_UNSUPPORTED_CALL 0x80000002u
#define R_INVALID_ADDRESS 0x80000003u
#define R_INVALID_PARAMETER 0x80000005u
#define R_FAIL_SIZEMISMATCH 0x80001006u
#define R_FAIL_UNCHANGED 0x80001010u
#define CORE(n) ((uint64_t)(n))
#define C_REMAP_CA CORE(0)
#define C_PVALIDATE CORE(1)
#define C_DEPOSIT CORE(4)
#define C_WITHDRAW CORE(5)
#define C_QUERY CORE(6)
#define PV_2M 1ull
#define PV_VALIDATE 4ull
#define PV_IGNORE_CF 8ull
#define LIST_MAX 509u /* (4088 - 8) / 8 entries in the CA buffer */
#define MSR_SEV_STATUS 0xC0010131u
#define SEV_STATUS_SNP (1ull << 2)
#define PAGE 4096ull
#define SPAN_2M 0x200000ull

static uint32_t call(uint64_t rax, uint64_t rcx, uint64_t rdx, uint64_t *out)
{
	struct svsm_regs r = {.rax = rax, .rcx = rcx, .rdx = rdx};
	uint32_t ret = svsm_call(&r);

	if (out != NULL) {
		*out = r.rcx;
	}
	return ret;
}

/* A PVALIDATE list in the CA buffer, as Linux builds it. */
static uint64_t list_write(const uint64_t *e, unsigned n, uint16_t next)
{
	struct svsm_ca *ca = ca_get();
	uint16_t hdr[4] = {(uint16_t)n, next, 0, 0};

	memcpy(ca->buffer, hdr, sizeof(hdr));
	memcpy(ca->buffer + 8, e, n * 8);
	return (uint64_t)ca->buffer;
}

static uint16_t list_next(void)
{
	uint16_t next;

	memcpy(&next, ca_get()->buffer + 2, 2);
	return next;
}

static uint32_t pvalidate_range(uint64_t gpa, uint64_t len, bool validate)
{
	static uint64_t e[LIST_MAX];
	uint64_t pages = len / PAGE;
	uint64_t done = 0;

	while (done < pages) {
		unsigned n = pages - done > LIST_MAX ? LIST_MAX
						     : (unsigned)(pages - done);
		unsigned i;
		uint32_t ret;

		for (i = 0; i < n; i++) {
			e[i] = (gpa + (done + i) * PAGE) |
			       (validate ? PV_VALIDATE : 0);
		}
		ret = call(C_PVALIDATE, list_write(e, n, 0), 0, NULL);
		if (ret != R_SUCCESS) {
			return ret;
		}
		done += n;
	}
	return R_SUCCESS;
}

static bool all_zero(uint64_t gpa, uint64_t len)
{
	const uint64_t *p = (const uint64_t *)gpa;
	uint64_t i;

	for (i = 0; i < len / 8; i++) {
		if (p[i] != 0) {
			return false;
		}
	}
	return true;
}

void tests_discovery(void)
{
	const struct snp_secrets_page *s = g_secrets;
	uint64_t out = 0;
	bool vmpck0_zero = true;
	bool vmpck1_set = false;
	unsigned i;

	g_section("discovery: secrets page, SEV_STATUS, QUERY_PROTOCOL");
	CHECK_THAT(s->svsm_size != 0 &&
			   s->svsm_base + s->svsm_size > s->svsm_base,
		   "SVSM range in the secrets page");
	CHECK_EQ(s->svsm_guest_vmpl, 1);
	CHECK_THAT(s->svsm_max_version >= 1, "SVSM protocol version >= 1");
	CHECK_EQ(s->svsm_caa & 0xFFF, 0);
	CHECK_THAT(s->svsm_caa + PAGE <= s->svsm_base ||
			   s->svsm_caa >= s->svsm_base + s->svsm_size,
		   "the CA is outside the SVSM");
	for (i = 0; i < sizeof(s->vmpck[0]); i++) {
		vmpck0_zero = vmpck0_zero && s->vmpck[0][i] == 0;
		vmpck1_set = vmpck1_set || s->vmpck[1][i] != 0;
	}
	CHECK_THAT(vmpck0_zero, "VMPCK0 is hidden from VMPL1");
	CHECK_THAT(vmpck1_set, "VMPCK1 is given to VMPL1");
	CHECK_THAT((g_rdmsr(MSR_SEV_STATUS) & SEV_STATUS_SNP) != 0,
		   "SEV_STATUS says SNP");
	ca_set((struct svsm_ca *)s->svsm_caa);
	/* MSR protocol first, as Linux's early boot does. */
	CHECK_EQ(call(C_QUERY, 1, 0, &out), R_SUCCESS);
	CHECK_EQ(out, (1ull << 32) | 1);
	CHECK_THAT(ghcb_setup(G_GHCB_BASE), "GHCB set up (PSC + register)");
	CHECK_EQ(call(C_QUERY, 1, 0, &out), R_SUCCESS);
	CHECK_EQ(out, (1ull << 32) | 1);
	CHECK_EQ(call(C_QUERY, (99ull << 32) | 1, 0, &out), R_SUCCESS);
	CHECK_EQ(out, 0);
	CHECK_EQ(call(CORE(99), 0, 0, NULL), R_UNSUPPORTED_CALL);
	CHECK_EQ(call(99ull << 32, 0, 0, NULL), R_UNSUPPORTED_PROTOCOL);
}

#define SPAN_2M 0x200000ull
#define SVSM_ALIAS 0xC0000000ull

void tests_faults(void)
{
	uint64_t svsm = g_secrets->svsm_base;
	uint64_t last = svsm + g_secrets->svsm_size - 1;

	g_section("faults: SVSM memory, unvalidated pages, SNP instructions");
	/* The SVSM region may lie beyond the 4 GiB this guest maps: reach
	 * its first and last 2 MiB through aliases in an unused 4 GiB
	 * slot (3 GiB: above RAM, below the MMIO this guest uses). */
	g_alias_private_2m(SVSM_ALIAS, svsm & ~(SPAN_2M - 1));
	g_alias_private_2m(SVSM_ALIAS + SPAN_2M, last & ~(SPAN_2M - 1));
	CHECK_EQ(probe_read(SVSM_ALIAS + svsm % SPAN_2M), FAULT_VC);
	CHECK_EQ(probe_write(SVSM_ALIAS + SPAN_2M + last % SPAN_2M), FAULT_VC);
	CHECK_EQ(probe_read(0x7000), FAULT_VC); /* not guest RAM */
	CHECK_EQ(probe_read(G_PV_BASE), FAULT_VC);
	CHECK_EQ(probe_write(G_PV_BASE + 0x5000), FAULT_VC);
	CHECK_EQ(probe_read((uint64_t)g_secrets), 0);
	/* PVALIDATE is VMPL0's; VMMCALL is no SNP hypercall: SEV-ES turns
	 * its intercept into #VC with exit code 0x81 (APM 15.35.5). */
	CHECK_EQ(probe_insn_pvalidate(G_PV_BASE), FAULT_GP);
	CHECK_EQ(probe_insn_vmmcall(), FAULT_VC);
	CHECK_EQ(probe_error, 0x81);
	/* RMPADJUST: VMPL1 may not target itself (Linux's VMPL check)... */
	CHECK_EQ(insn_rmpadjust((uint64_t)g_secrets, 0, 1 | 0xF00), 2);
	/* ...but may give VMPL2 what it has itself. */
	CHECK_EQ(insn_rmpadjust((uint64_t)g_secrets, 0, 2 | 0x300), 0);
	/* An INT3 whose delivery an exit cuts short: its first push meets,
	 * through the shared mapping, a page just made private; KVM
	 * converts the page back (implicit conversion) and the vCPU runs
	 * again. The #BP handler still gets the RIP past the INT3: the
	 * machine lets the INT3 run again (RIP is still at it) rather than
	 * inject a software event, which would return to the INT3 itself
	 * (Linux's text patching then misses its patch site: an oops). */
	CHECK_THAT(msr_page_state(G_CUT_STACK, false), "PSC to private");
	CHECK_EQ(probe_int3_stack(G_CUT_STACK + PAGE), FAULT_BP);
}

void tests_pvalidate(void)
{
	uint64_t big = G_PV_BASE;		  /* a 2 MiB RMP entry */
	uint64_t small = G_PV_BASE + SPAN_2M;	  /* made 4 KiB below */
	uint64_t mixed = G_PV_BASE + 2 * SPAN_2M; /* 2 MiB again */
	uint64_t e[8];
	uint16_t next = 0;
	unsigned fallbacks = 0;
	unsigned i;

	g_section("PVALIDATE: 2 MiB, 4 KiB batches, the Linux fallback");
	e[0] = big | PV_2M | PV_VALIDATE;
	CHECK_EQ(call(C_PVALIDATE, list_write(e, 1, 0), 0, NULL), R_SUCCESS);
	CHECK_EQ(list_next(), 1);
	CHECK_EQ(probe_read(big), 0);
	CHECK_EQ(probe_write(big + SPAN_2M - 1), 0);
	CHECK_THAT(all_zero(big, SPAN_2M - PAGE), "validated 2 MiB is zero");
	e[0] = big | PV_2M;
	CHECK_EQ(call(C_PVALIDATE, list_write(e, 1, 0), 0, NULL), R_SUCCESS);
	CHECK_EQ(probe_read(big + 0x1000), FAULT_VC);

	/* A page state change splits the 2 MiB RMP entry (as KVM does). */
	CHECK_THAT(msr_page_state(small, false), "PSC to private");
	for (i = 0; i < 8; i++) {
		e[i] = (small + i * PAGE) | PV_VALIDATE;
	}
	CHECK_EQ(call(C_PVALIDATE, list_write(e, 8, 0), 0, NULL), R_SUCCESS);
	for (i = 0; i < 8; i++) {
		CHECK_EQ(probe_write(small + i * PAGE), 0);
	}
	CHECK_EQ(probe_read(small + 8 * PAGE), FAULT_VC);
	CHECK_EQ(call(C_PVALIDATE, list_write(e, 8, 0), 0, NULL),
		 R_FAIL_UNCHANGED);
	e[0] |= PV_IGNORE_CF;
	CHECK_EQ(call(C_PVALIDATE, list_write(e, 1, 0), 0, NULL), R_SUCCESS);
	CHECK_EQ(pvalidate_range(small, 8 * PAGE, false), R_SUCCESS);
	CHECK_EQ(probe_read(small), FAULT_VC);

	/* Linux: a 2 MiB list; on SIZEMISMATCH, 4 KiB for that entry. */
	e[0] = mixed | PV_2M | PV_VALIDATE;
	e[1] = small | PV_2M | PV_VALIDATE;
	while (next < 2) {
		uint32_t ret =
			call(C_PVALIDATE, list_write(e, 2, next), 0, NULL);

		next = list_next();
		if (ret == R_SUCCESS) {
			break;
		}
		CHECK_EQ(ret, R_FAIL_SIZEMISMATCH);
		if (ret != R_FAIL_SIZEMISMATCH || next >= 2) {
			break;
		}
		fallbacks++;
		CHECK_EQ(pvalidate_range(e[next] & ~0xFFFull, SPAN_2M, true),
			 R_SUCCESS);
		next++;
	}
	CHECK_EQ(fallbacks, 1);
	CHECK_EQ(probe_write(mixed + SPAN_2M - 1), 0);
	CHECK_EQ(probe_write(small + SPAN_2M - 1), 0);
	CHECK_THAT(all_zero(small, SPAN_2M - PAGE), "4 KiB fallback zeroed");
}

void tests_remap_ca(void)
{
	/* A page the PVALIDATE suite validated: the new CA. */
	uint64_t new_ca = G_PV_BASE + 2 * SPAN_2M + 0x10000;
	uint64_t old_ca = (uint64_t)ca_get();
	uint64_t out;

	g_section("REMAP_CA: the boot CA to a CA in validated memory");
	CHECK_EQ(call(C_REMAP_CA, new_ca + 8, 0, NULL), R_INVALID_PARAMETER);
	CHECK_EQ(call(C_REMAP_CA, g_secrets->svsm_base, 0, NULL),
		 R_INVALID_ADDRESS);
	CHECK_EQ(call(C_REMAP_CA, G_PV_BASE, 0, NULL), R_INVALID_ADDRESS);
	CHECK_EQ(call(C_REMAP_CA, new_ca, 0, NULL), R_SUCCESS);
	ca_set((struct svsm_ca *)new_ca);
	CHECK_EQ(call(C_QUERY, 1, 0, &out), R_SUCCESS);
	CHECK_EQ(out, (1ull << 32) | 1);
	(void)old_ca;
}

void tests_memory(void)
{
	uint64_t pool = G_MEM_BASE;
	uint64_t out_page = G_MEM_BASE + 16 * PAGE;
	uint64_t e[4];
	uint64_t got;
	unsigned i;

	g_section("DEPOSIT_MEM and WITHDRAW_MEM");
	CHECK_THAT(msr_page_state(pool, false), "PSC to private");
	CHECK_EQ(pvalidate_range(pool, 17 * PAGE, true), R_SUCCESS);
	for (i = 0; i < 4; i++) {
		memset((void *)(pool + i * PAGE), 0x77, PAGE);
		e[i] = pool + i * PAGE;
	}
	CHECK_EQ(call(C_DEPOSIT, list_write(e, 4, 0), 0, NULL), R_SUCCESS);
	CHECK_EQ(list_next(), 4);
	for (i = 0; i < 4; i++) {
		CHECK_EQ(probe_read(pool + i * PAGE), FAULT_VC);
	}
	e[0] = pool | PV_VALIDATE | PV_IGNORE_CF;
	CHECK_EQ(call(C_PVALIDATE, list_write(e, 1, 0), 0, NULL),
		 R_INVALID_ADDRESS);
	CHECK_EQ(call(C_WITHDRAW, out_page, 0, NULL), R_SUCCESS);
	got = *(volatile uint16_t *)out_page;
	CHECK_EQ(got, 4);
	for (i = 0; i < 4; i++) {
		uint64_t page = ((volatile uint64_t *)(out_page + 8))[i];

		CHECK_THAT(page >= pool && page < pool + 4 * PAGE,
			   "withdrawn page was deposited");
		CHECK_EQ(probe_write(page), 0);
	}
	CHECK_THAT(all_zero(pool + PAGE + 8, PAGE - 8),
		   "withdrawn page zeroed");
}

void tests_hostile(void)
{
	uint64_t svsm = g_secrets->svsm_base;
	uint64_t e[2];

	g_section("hostile calls: SVSM addresses, bad lists");
	CHECK_EQ(call(C_PVALIDATE, svsm + 8, 0, NULL), R_INVALID_ADDRESS);
	CHECK_EQ(call(C_PVALIDATE, (uint64_t)ca_get()->buffer + 4, 0, NULL),
		 R_INVALID_PARAMETER);
	CHECK_EQ(call(C_PVALIDATE, 0xFFFFFFFFFFFFFFF8ull, 0, NULL),
		 R_INVALID_ADDRESS);
	e[0] = svsm | PV_VALIDATE;
	CHECK_EQ(call(C_PVALIDATE, list_write(e, 1, 0), 0, NULL),
		 R_INVALID_ADDRESS);
	e[0] = (svsm + SPAN_2M) | PV_2M;
	CHECK_EQ(call(C_PVALIDATE, list_write(e, 1, 0), 0, NULL),
		 R_INVALID_ADDRESS);
	e[0] = (uint64_t)ca_get(); /* the CA's own page */
	CHECK_EQ(call(C_PVALIDATE, list_write(e, 1, 0), 0, NULL),
		 R_INVALID_ADDRESS);
	e[0] = svsm; /* deposit SVSM memory */
	CHECK_EQ(call(C_DEPOSIT, list_write(e, 1, 0), 0, NULL),
		 R_INVALID_ADDRESS);
	CHECK_EQ(call(C_WITHDRAW, svsm, 0, NULL), R_INVALID_ADDRESS);
	/* The SVSM still serves. */
	CHECK_EQ(call(C_QUERY, 1, 0, NULL), R_SUCCESS);
}
