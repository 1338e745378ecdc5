/* SPDX-License-Identifier: MIT */
/*
 * #VC emulation for the SVSM's own instructions (vc.h). Threat (T18): the
 * hypervisor answers MSR and port reads; an answer without the register
 * marked valid is refused, never read as zero. CPUID never asks the
 * hypervisor: the CPUID page was checked by the PSP at launch.
 */
#include "vc.h"

#include "svsm/log.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"

bool snp_cpuid_table_ok(const struct snp_cpuid_table *t)
{
	return t->count >= 1 && t->count <= SNP_CPUID_MAX;
}

/* Leaves whose ECX selects a sub-leaf (Linux cpuid_function_is_indexed). */
static bool indexed(uint32_t leaf)
{
	switch (leaf) {
	case 0x4:
	case 0x7:
	case 0xB:
	case 0xD:
	case 0xF:
	case 0x10:
	case 0x12:
	case 0x14:
	case 0x17:
	case 0x18:
	case 0x1D:
	case 0x1F:
	case 0x20:
	case 0x24:
	case 0x8000001D:
	case 0x80000020:
	case 0x80000026:
		return true;
	default:
		return false;
	}
}

static const struct snp_cpuid_fn *find(const struct snp_cpuid_table *t,
				       uint32_t leaf, uint32_t subleaf)
{
	uint32_t i;

	for (i = 0; i < t->count && i < SNP_CPUID_MAX; i++) {
		const struct snp_cpuid_fn *e = &t->fn[i];

		if (e->eax_in != leaf ||
		    (indexed(leaf) && e->ecx_in != subleaf)) {
			continue;
		}
		if (leaf == 0xD && subleaf <= 1 &&
		    (e->xcr0_in != 1 || e->xss_in != 0)) {
			continue;
		}
		return e;
	}
	return NULL;
}

bool snp_cpuid_lookup(const struct snp_cpuid_table *t, uint32_t leaf,
		      uint32_t subleaf, struct cpuid_regs *out)
{
	const struct snp_cpuid_fn *e;
	const struct snp_cpuid_fn *range;
	uint32_t base = leaf & 0x80000000u;

	memset(out, 0, sizeof(*out));
	if (!snp_cpuid_table_ok(t)) {
		return false;
	}
	e = find(t, leaf, subleaf);
	if (e != NULL) {
		*out = (struct cpuid_regs){e->eax, e->ebx, e->ecx, e->edx};
		return true;
	}
	/* Absent but in range (leaf 0 / 0x80000000 give the maximum). */
	range = (leaf & 0x7FFFFFFFu) < 0x40000000u ? find(t, base, 0) : NULL;
	return range != NULL && leaf <= range->eax;
}

/* Macros, so the door names the function that saw it. */
#define unexpected(exit_code)                                                  \
	SNP_TERMINATE_HV(TERM_CSVSM_UNEXPECTED_VC,                             \
			 "snp: #VC for exit 0x%llx, which the SVSM never"      \
			 " causes",                                            \
			 (unsigned long long)(exit_code))
#define broken(what)                                                           \
	SNP_TERMINATE_HV(TERM_CSVSM_GHCB_RESPONSE, "snp: #VC reply: %s", (what))

static void vc_cpuid(const struct snp_cpuid_table *t, struct vc_regs *r)
{
	struct cpuid_regs c;

	/* Out of both ranges (hypervisor leaves): zeros, as for an absent
	 * leaf; the SVSM asks nothing of the hypervisor's CPUID. */
	(void)snp_cpuid_lookup(t, (uint32_t)r->rax, (uint32_t)r->rcx, &c);
	r->rax = c.eax;
	r->rbx = c.ebx;
	r->rcx = c.ecx;
	r->rdx = c.edx;
	r->rip += 2;
}

static void vc_msr(struct ghcb_cpu *g, struct vc_regs *r, bool write)
{
	struct ghcb_in in = {.exit_code = SVM_EXIT_MSR,
			     .info1 = write ? 1 : 0,
			     .rcx = (uint32_t)r->rcx,
			     .has_rcx = true,
			     .rax = (uint32_t)r->rax,
			     .rdx = (uint32_t)r->rdx,
			     .has_rax = write,
			     .has_rdx = write};
	struct ghcb_out out;

	ghcb_call(g, &in, &out);
	if (!write) {
		if (!out.has_rax || !out.has_rdx) {
			broken("RDMSR answered without RAX and RDX");
		}
		r->rax = (uint32_t)out.rax;
		r->rdx = (uint32_t)out.rdx;
	}
	r->rip += 2;
}

/* IN/OUT with AL or EAX, port in DX or an immediate; no string forms. */
static void vc_ioio(struct ghcb_cpu *g, struct vc_regs *r, const uint8_t *p)
{
	unsigned len = 1, prefix = 0;
	uint64_t size = SVM_IOIO_SZ32;
	uint64_t mask = 0xFFFFFFFFull;
	uint32_t port;
	bool in, imm;
	struct ghcb_in req = {.exit_code = SVM_EXIT_IOIO};
	struct ghcb_out out;

	if (p[0] == 0x66) { /* operand size: 16 bits */
		prefix = 1;
		size = SVM_IOIO_SZ16;
		mask = 0xFFFF;
	}
	switch (p[prefix]) {
	case 0xE4:
	case 0xE5:
	case 0xE6:
	case 0xE7:
		imm = true;
		break;
	case 0xEC:
	case 0xED:
	case 0xEE:
	case 0xEF:
		imm = false;
		break;
	default:
		unexpected(SVM_EXIT_IOIO);
	}
	in = (p[prefix] & 0x2) == 0;
	if ((p[prefix] & 0x1) == 0) { /* AL */
		size = SVM_IOIO_SZ8;
		mask = 0xFF;
	}
	port = imm ? p[prefix + 1] : (uint16_t)r->rdx;
	len = prefix + (imm ? 2 : 1);
	req.info1 = SVM_IOIO_INFO1(port, size, in);
	req.rax = r->rax & mask;
	req.has_rax = !in;
	ghcb_call(g, &req, &out);
	if (in) {
		if (!out.has_rax) {
			broken("IN answered without RAX");
		}
		r->rax = (r->rax & ~mask) | (out.rax & mask);
	}
	r->rip += len;
}

void snp_vc_handle(struct ghcb_cpu *g, const struct snp_cpuid_table *cpuid,
		   struct vc_regs *r, uint64_t exit_code, const uint8_t *insn)
{
	/* Before this CPU's GHCB is registered only CPUID can be served;
	 * the SVSM does nothing else that traps that early. */
	if (g == NULL && exit_code != SVM_EXIT_CPUID) {
		unexpected(exit_code);
	}
	switch (exit_code) {
	case SVM_EXIT_CPUID:
		if (insn[0] != 0x0F || insn[1] != 0xA2) {
			unexpected(exit_code);
		}
		vc_cpuid(cpuid, r);
		return;
	case SVM_EXIT_MSR:
		if (insn[0] != 0x0F || (insn[1] != 0x32 && insn[1] != 0x30)) {
			unexpected(exit_code);
		}
		vc_msr(g, r, insn[1] == 0x30);
		return;
	case SVM_EXIT_IOIO:
		vc_ioio(g, r, insn);
		return;
	default:
		unexpected(exit_code);
	}
}
