/* SPDX-License-Identifier: MIT */
/*
 * The CPUID the hypervisor gives a guest holds together as Linux requires
 * it: every dependency Linux 7.3.4 checks at each CPU's bring-up
 * (arch/x86/kernel/cpu/cpuid-deps.c, cpuid_deps[], which
 * check_cpufeature_deps() walks and reports as "x86 CPU feature
 * dependency check failure") holds for the hypervisor's answers, which
 * are the guest's CPUID page too (emu/src/hv/hv_cpuid.c fills both from
 * one function; csvsm's own page alone adds INVLPGB). Features are read
 * as Linux reads them: the CPUID bit for words taken whole, and
 * scattered.c's source for the scattered ones; a leaf past its range's
 * maximum, or a subleaf of leaf 7 past its EAX, reads as zeros.
 */
#include "guest.h"

enum reg { EAX, EBX, ECX, EDX };

/* One CPUID bit (a scattered feature may have a second source). */
struct bit {
	uint32_t leaf, subleaf;
	uint8_t reg, bit;
};

struct feature {
	const char *name;
	struct bit src, alt; /* alt.leaf 0: none */
};

#define B(l, s, r, b)                                                          \
	{                                                                      \
		(l), (s), (r), (b)                                             \
	}
#define F(n, l, s, r, b)                                                       \
	{                                                                      \
		(n), B(l, s, r, b), B(0, 0, 0, 0)                              \
	}

/* The features cpuid_deps[] names, by Linux's word and bit. */
enum {
	FPU,
	FXSR,
	CMOV,
	MMX,
	SSE,
	SSE2,
	MMXEXT,
	FXSR_OPT,
	PNI,
	PCLMULQDQ,
	SSSE3,
	FMA,
	PCID,
	SSE4_1,
	SSE4_2,
	AES,
	XSAVE,
	AVX,
	F16C,
	SGX,
	AVX2,
	MPX,
	AVX512F,
	AVX512DQ,
	SMAP,
	AVX512IFMA,
	AVX512PF,
	AVX512ER,
	AVX512CD,
	SHA_NI,
	AVX512BW,
	AVX512VL,
	AVX512VBMI,
	PKU,
	AVX512_VBMI2,
	SHSTK,
	GFNI,
	VAES,
	VPCLMULQDQ,
	AVX512_VNNI,
	AVX512_BITALG,
	AVX512_VPOPCNTDQ,
	ENQCMD,
	SGX_LC,
	AVX512_4VNNIW,
	AVX512_4FMAPS,
	AVX512_VP2INTERSECT,
	AMX_BF16,
	AVX512_FP16,
	AMX_TILE,
	AMX_INT8,
	SPEC_CTRL,
	SPEC_CTRL_SSBD,
	AVX_VNNI,
	AVX512_BF16,
	LASS,
	FRED,
	LKGS,
	AMX_FP16,
	APX,
	XSAVEOPT,
	XSAVEC,
	XGETBV1,
	XSAVES,
	XFD,
	CQM_LLC,
	CQM_OCCUP_LLC,
	CQM_MBM_TOTAL,
	CQM_MBM_LOCAL,
	CAT_L3,
	MBA,
	PER_THREAD_MBA,
	SGX1,
	SGX2,
	SGX_EUPDATESVN,
	SGX_EDECCSSA,
	INVLPGB,
	BMEC,
	SDCIAE,
	FEATURES
};

static const struct feature features[FEATURES] = {
	[FPU] = F("fpu", 1, 0, EDX, 0),
	[FXSR] = F("fxsr", 1, 0, EDX, 24),
	[CMOV] = F("cmov", 1, 0, EDX, 15),
	[MMX] = F("mmx", 1, 0, EDX, 23),
	[SSE] = F("sse", 1, 0, EDX, 25),
	[SSE2] = F("sse2", 1, 0, EDX, 26),
	[MMXEXT] = F("mmxext", 0x80000001, 0, EDX, 22),
	[FXSR_OPT] = F("fxsr_opt", 0x80000001, 0, EDX, 25),
	[PNI] = F("pni", 1, 0, ECX, 0),
	[PCLMULQDQ] = F("pclmulqdq", 1, 0, ECX, 1),
	[SSSE3] = F("ssse3", 1, 0, ECX, 9),
	[FMA] = F("fma", 1, 0, ECX, 12),
	[PCID] = F("pcid", 1, 0, ECX, 17),
	[SSE4_1] = F("sse4_1", 1, 0, ECX, 19),
	[SSE4_2] = F("sse4_2", 1, 0, ECX, 20),
	[AES] = F("aes", 1, 0, ECX, 25),
	[XSAVE] = F("xsave", 1, 0, ECX, 26),
	[AVX] = F("avx", 1, 0, ECX, 28),
	[F16C] = F("f16c", 1, 0, ECX, 29),
	[SGX] = F("sgx", 7, 0, EBX, 2),
	[AVX2] = F("avx2", 7, 0, EBX, 5),
	[MPX] = F("mpx", 7, 0, EBX, 14),
	[AVX512F] = F("avx512f", 7, 0, EBX, 16),
	[AVX512DQ] = F("avx512dq", 7, 0, EBX, 17),
	[SMAP] = F("smap", 7, 0, EBX, 20),
	[AVX512IFMA] = F("avx512ifma", 7, 0, EBX, 21),
	[AVX512PF] = F("avx512pf", 7, 0, EBX, 26),
	[AVX512ER] = F("avx512er", 7, 0, EBX, 27),
	[AVX512CD] = F("avx512cd", 7, 0, EBX, 28),
	[SHA_NI] = F("sha_ni", 7, 0, EBX, 29),
	[AVX512BW] = F("avx512bw", 7, 0, EBX, 30),
	[AVX512VL] = F("avx512vl", 7, 0, EBX, 31),
	[AVX512VBMI] = F("avx512vbmi", 7, 0, ECX, 1),
	[PKU] = F("pku", 7, 0, ECX, 3),
	[AVX512_VBMI2] = F("avx512_vbmi2", 7, 0, ECX, 6),
	[SHSTK] = F("shstk", 7, 0, ECX, 7),
	[GFNI] = F("gfni", 7, 0, ECX, 8),
	[VAES] = F("vaes", 7, 0, ECX, 9),
	[VPCLMULQDQ] = F("vpclmulqdq", 7, 0, ECX, 10),
	[AVX512_VNNI] = F("avx512_vnni", 7, 0, ECX, 11),
	[AVX512_BITALG] = F("avx512_bitalg", 7, 0, ECX, 12),
	[AVX512_VPOPCNTDQ] = F("avx512_vpopcntdq", 7, 0, ECX, 14),
	[ENQCMD] = F("enqcmd", 7, 0, ECX, 29),
	[SGX_LC] = F("sgx_lc", 7, 0, ECX, 30),
	[AVX512_4VNNIW] = F("avx512_4vnniw", 7, 0, EDX, 2),
	[AVX512_4FMAPS] = F("avx512_4fmaps", 7, 0, EDX, 3),
	[AVX512_VP2INTERSECT] = F("avx512_vp2intersect", 7, 0, EDX, 8),
	[AMX_BF16] = F("amx_bf16", 7, 0, EDX, 22),
	[AVX512_FP16] = F("avx512_fp16", 7, 0, EDX, 23),
	[AMX_TILE] = F("amx_tile", 7, 0, EDX, 24),
	[AMX_INT8] = F("amx_int8", 7, 0, EDX, 25),
	[SPEC_CTRL] = F("spec_ctrl", 7, 0, EDX, 26),
	[SPEC_CTRL_SSBD] = F("spec_ctrl_ssbd", 7, 0, EDX, 31),
	[AVX_VNNI] = F("avx_vnni", 7, 1, EAX, 4),
	[AVX512_BF16] = F("avx512_bf16", 7, 1, EAX, 5),
	[LASS] = F("lass", 7, 1, EAX, 6),
	[FRED] = F("fred", 7, 1, EAX, 17),
	[LKGS] = F("lkgs", 7, 1, EAX, 18),
	[AMX_FP16] = F("amx_fp16", 7, 1, EAX, 21),
	[APX] = F("apx", 7, 1, EDX, 21),
	[XSAVEOPT] = F("xsaveopt", 0xD, 1, EAX, 0),
	[XSAVEC] = F("xsavec", 0xD, 1, EAX, 1),
	[XGETBV1] = F("xgetbv1", 0xD, 1, EAX, 2),
	[XSAVES] = F("xsaves", 0xD, 1, EAX, 3),
	[XFD] = F("xfd", 0xD, 1, EAX, 4),
	[CQM_LLC] = F("cqm_llc", 0xF, 0, EDX, 1),
	[CQM_OCCUP_LLC] = F("cqm_occup_llc", 0xF, 1, EDX, 0),
	[CQM_MBM_TOTAL] = F("cqm_mbm_total", 0xF, 1, EDX, 1),
	[CQM_MBM_LOCAL] = F("cqm_mbm_local", 0xF, 1, EDX, 2),
	[CAT_L3] = F("cat_l3", 0x10, 0, EBX, 1),
	[MBA] = {"mba", B(0x10, 0, EBX, 3), B(0x80000008, 0, EBX, 6)},
	[PER_THREAD_MBA] = F("per_thread_mba", 0x10, 3, ECX, 0),
	[SGX1] = F("sgx1", 0x12, 0, EAX, 0),
	[SGX2] = F("sgx2", 0x12, 0, EAX, 1),
	[SGX_EUPDATESVN] = F("sgx_eupdatesvn", 0x12, 0, EAX, 10),
	[SGX_EDECCSSA] = F("sgx_edeccssa", 0x12, 0, EAX, 11),
	[INVLPGB] = F("invlpgb", 0x80000008, 0, EBX, 3),
	[BMEC] = F("bmec", 0x80000020, 0, EBX, 3),
	[SDCIAE] = F("sdciae", 0x80000020, 0, EBX, 6),
};

/* cpuid_deps[] of Linux 7.3.4, in its order: { feature, depends }. */
static const uint8_t deps[][2] = {
	{FXSR, FPU},
	{XSAVEOPT, XSAVE},
	{XSAVEC, XSAVE},
	{XSAVES, XSAVE},
	{AVX, XSAVE},
	{PKU, XSAVE},
	{MPX, XSAVE},
	{XGETBV1, XSAVE},
	{APX, XSAVE},
	{CMOV, FXSR},
	{MMX, FXSR},
	{MMXEXT, MMX},
	{FXSR_OPT, FXSR},
	{XSAVE, FXSR},
	{SSE, FXSR},
	{SSE2, SSE},
	{PNI, SSE2},
	{SSE4_1, SSE2},
	{SSE4_2, SSE2},
	{PCLMULQDQ, SSE2},
	{SSSE3, SSE2},
	{F16C, SSE2},
	{AES, SSE2},
	{SHA_NI, SSE2},
	{GFNI, SSE2},
	{AVX_VNNI, AVX},
	{FMA, AVX},
	{VAES, AVX},
	{VPCLMULQDQ, AVX},
	{AVX2, AVX},
	{AVX512F, AVX},
	{AVX512IFMA, AVX512F},
	{AVX512PF, AVX512F},
	{AVX512ER, AVX512F},
	{AVX512CD, AVX512F},
	{AVX512DQ, AVX512F},
	{AVX512BW, AVX512F},
	{AVX512VL, AVX512F},
	{AVX512VBMI, AVX512F},
	{AVX512_VBMI2, AVX512VL},
	{AVX512_VNNI, AVX512VL},
	{AVX512_BITALG, AVX512VL},
	{AVX512_4VNNIW, AVX512F},
	{AVX512_4FMAPS, AVX512F},
	{AVX512_VPOPCNTDQ, AVX512F},
	{AVX512_VP2INTERSECT, AVX512VL},
	{CQM_OCCUP_LLC, CQM_LLC},
	{CQM_MBM_TOTAL, CQM_LLC},
	{CQM_MBM_LOCAL, CQM_LLC},
	{BMEC, CQM_MBM_TOTAL},
	{BMEC, CQM_MBM_LOCAL},
	{SDCIAE, CAT_L3},
	{AVX512_BF16, AVX512VL},
	{AVX512_FP16, AVX512BW},
	{ENQCMD, XSAVES},
	{PER_THREAD_MBA, MBA},
	{SGX_LC, SGX},
	{SGX1, SGX},
	{SGX2, SGX1},
	{SGX_EUPDATESVN, SGX1},
	{SGX_EDECCSSA, SGX1},
	{XFD, XSAVES},
	{XFD, XGETBV1},
	{AMX_TILE, XFD},
	{AMX_FP16, AMX_TILE},
	{AMX_BF16, AMX_TILE},
	{AMX_INT8, AMX_TILE},
	{SHSTK, XSAVES},
	{FRED, LKGS},
	{SPEC_CTRL_SSBD, SPEC_CTRL},
	{LASS, SMAP},
	{INVLPGB, PCID},
};

/* The hypervisor's answer for @b's leaf and subleaf: zeros past its
 * range's maximum leaf, and for leaf 7 past its EAX (as Linux reads). */
static uint32_t cpuid_reg(struct bit b)
{
	uint32_t r[4] = {0, 0, 0, 0};
	volatile uint8_t *g = ghcb_for_vc();

	if (g == NULL) {
		return 0;
	}
	(void)ghcb_nae_cpuid(g, b.leaf & 0x80000000u, 0, r);
	if (b.leaf > r[0]) {
		return 0;
	}
	if (b.leaf == 7 && b.subleaf != 0) {
		(void)ghcb_nae_cpuid(g, 7, 0, r);
		if (b.subleaf > r[0]) {
			return 0;
		}
	}
	(void)ghcb_nae_cpuid(g, b.leaf, b.subleaf, r);
	return r[b.reg];
}

static bool has(unsigned f)
{
	const struct feature *x = &features[f];

	return (cpuid_reg(x->src) >> x->src.bit & 1) != 0 ||
	       (x->alt.leaf != 0 && (cpuid_reg(x->alt) >> x->alt.bit & 1) != 0);
}

void tests_cpuid(void)
{
	unsigned i, broken = 0;

	g_section("CPUID as Linux 7.3.4's cpuid-deps.c requires it");
	for (i = 0; i < sizeof(deps) / sizeof(deps[0]); i++) {
		if (has(deps[i][0]) && !has(deps[i][1])) {
			g_print("  '%s' without '%s'\n",
				features[deps[i][0]].name,
				features[deps[i][1]].name);
			broken++;
		}
	}
	CHECK_EQ(broken, 0);
	/* Linux's own words: what it printed before, on this machine. */
	CHECK_THAT(!has(INVLPGB) || has(PCID),
		   "no INVLPGB without PCID (Linux: '13*32+ 3' without "
		   "'pcid')");
}
