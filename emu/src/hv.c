/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor's GHCB protocol, as KVM serves an SNP guest. Threats:
 * the GHCB is a page the guest shares and may change at any moment, so
 * each field is copied once, checked, and used from the copy; every GPA
 * the guest names is checked against guest RAM and the RMP before the
 * machine touches it. A request the protocol does not allow gets KVM's
 * error reply; what KVM would kill the guest for ends the VM.
 */
#include "hv.h"

#include "svsm/std.h"

#include "abi/ghcb.h"

#include "cpuid.h"
#include "hv_io.h"
#include "layout.h"
#include "psp.h"
#include "rmp.h"
#include "vc.h"
#include "world.h"

#define GPA_MASK 0x000FFFFFFFFFF000ull
#define MSR_CPUID_REQ 0x004ull
#define MSR_CPUID_RESP 0x005ull
#define MSR_ERROR 0xFFFull   /* KVM: an unknown request */
#define GHCB_ERR_RETURN 1ull /* exit_info_1 = 1: inject the event in info2 */
#define EVENT_GP (13u | (3u << 8) | (1u << 11) | (1u << 31))

static enum hv_mode mode;
static unsigned vmpl0_runs; /* RUN_VMPL requests from VMPL0 (inject-ri) */
static struct mlock term_lock;
/* KVM's per-vCPU, per-VMPL registrations. */
static uint64_t ghcb_gpa[MACHINE_MAX_CPUS][MACHINE_VMPLS];
static uint64_t doorbell_gpa[MACHINE_MAX_CPUS][MACHINE_VMPLS];

void hv_init(enum hv_mode m)
{
	mode = m;
}

/* The leaves a guest's CPUID page carries (Linux reads them early). */
static const uint32_t cpuid_leaves[][2] = {
	{0x0, 0},	  {0x1, 0},	    {0x7, 0},
	{0xD, 0},	  {0xD, 1},	    {0x80000000u, 0},
	{0x80000001u, 0}, {0x80000008u, 0}, {0x8000001Fu, 0},
};
#define LEAF7_EBX_SHA (1u << 29) /* SHA-NI: the machine's CPU has none */

void hv_cpuid_table(struct snp_cpuid_table *t)
{
	unsigned i, n = sizeof(cpuid_leaves) / sizeof(cpuid_leaves[0]);

	for (i = 0; i < n; i++) {
		struct hw_cpuid r =
			hw_cpuid(cpuid_leaves[i][0], cpuid_leaves[i][1]);
		struct snp_cpuid_fn *fn = &t->fn[i];

		fn->eax_in = cpuid_leaves[i][0];
		fn->ecx_in = cpuid_leaves[i][1];
		fn->xcr0_in = fn->eax_in == 0xD ? 1 : 0;
		fn->eax = r.eax;
		fn->ebx = r.ebx;
		fn->ecx = r.ecx;
		fn->edx = r.edx;
		if (mode == HV_CPUID_LIE && fn->eax_in == 0x7) {
			fn->ebx |= LEAF7_EBX_SHA;
		}
	}
	t->count = n;
}

void hv_stop(unsigned exit_value)
{
	mlock_take(&term_lock); /* one CPU ends the VM */
	hv_io_flush();
	world_report();
	machine_exit(exit_value);
}

static void terminate(struct mcpu *c, unsigned vmpl, uint64_t set,
		      uint64_t code) __attribute__((noreturn));
static void terminate(struct mcpu *c, unsigned vmpl, uint64_t set,
		      uint64_t code)
{
	hv_io_flush();
	mlog("vCPU %u VMPL%u asked to terminate: reason set %llu code %llu",
	     c->index, vmpl, (unsigned long long)set, (unsigned long long)code);
	hv_stop(vmpl == 0 ? MACHINE_EXIT_SVSM_TERM : MACHINE_EXIT_GUEST_TERM);
}

/* KVM's page-state change of one page (RMPUPDATE, PSMASH first inside a
 * 2 MiB entry). */
static bool psc_page(uint64_t gpa, bool size_2m, bool to_private)
{
	uint64_t span = size_2m ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;
	enum snp_ret rc;

	if ((gpa & (span - 1)) != 0 || guest_ptr(gpa, span) == NULL) {
		return false;
	}
	rmp_lock();
	rc = rmp_hv_page_state(&machine_rmp, gpa, size_2m, to_private);
	if (rc == SNP_RET_SUCCESS) {
		rmp_changed(gpa & ~(SNP_PAGE_SIZE_2M - 1), SNP_PAGE_SIZE_2M);
	}
	rmp_unlock();
	if (rc == SNP_RET_SUCCESS) {
		rmp_flush_tlbs();
	}
	return rc == SNP_RET_SUCCESS;
}

/* A shared page of guest RAM (the RMP says hypervisor-owned). */
static uint8_t *shared_page(uint64_t gpa)
{
	uint8_t *p = guest_ptr(gpa, PAGE);
	bool ok;

	if (p == NULL || (gpa & (PAGE - 1)) != 0) {
		return NULL;
	}
	rmp_lock();
	ok = rmp_check_shared_access(&machine_rmp, gpa) == RMP_ACCESS_OK;
	rmp_unlock();
	return ok ? p : NULL;
}

#define INJECT_RI_AFTER 8u
#define HV_DOORBELL_VECTOR 0x20u

/*
 * inject-ri: a hypervisor that, instead of running VMPL1, signals an
 * interrupt to the SVSM. The hardware refuses the direct injection
 * (Restricted Injection); through the doorbell and #HV it arrives, and
 * the SVSM, which asks for no events, must terminate.
 */
static bool inject_into_svsm(struct mcpu *c)
{
	uint8_t *db;

	if (mode != HV_INJECT_RI || ++vmpl0_runs != INJECT_RI_AFTER ||
	    doorbell_gpa[c->index][0] == 0) {
		return false;
	}
	db = shared_page(doorbell_gpa[c->index][0]);
	if (db == NULL) {
		return false;
	}
	(void)world_inject(c, 0, HV_DOORBELL_VECTOR); /* refused */
	__atomic_store_n((uint16_t *)db, (uint16_t)HV_DOORBELL_VECTOR,
			 __ATOMIC_SEQ_CST);
	mlog("hypervisor: #HV with vector 0x%x for vCPU %u's VMPL0",
	     HV_DOORBELL_VECTOR, c->index);
	return world_inject(c, 0, VEC_HV);
}

/* SNP Run VMPL from @vmpl: false when refused. */
static bool run_vmpl(struct mcpu *c, unsigned vmpl, unsigned target)
{
	if (target >= MACHINE_VMPLS || mode == HV_REFUSE_RUN_VMPL) {
		return false;
	}
	if (vmpl == 0 && inject_into_svsm(c)) {
		return true; /* VMPL0 runs on, with #HV pending */
	}
	world_run_vmpl(c, target);
	return true;
}

static uint64_t msr_protocol(struct mcpu *c, unsigned vmpl, uint64_t v)
{
	uint64_t data = GHCB_MSR_DATA(v);

	switch (GHCB_MSR_INFO(v)) {
	case GHCB_MSR_SEV_INFO_REQ:
		return (mode == HV_LIE_SEV_INFO ? 9ull : GHCB_PROTOCOL_MAX)
			       << 48 |
		       (mode == HV_LIE_SEV_INFO ? 9ull : GHCB_PROTOCOL_MIN)
			       << 32 |
		       (uint64_t)MACHINE_C_BIT << 24 | GHCB_MSR_SEV_INFO_RESP;
	case MSR_CPUID_REQ: {
		unsigned reg = (unsigned)(v >> 30) & 3u;
		struct hw_cpuid r = hw_cpuid((uint32_t)(v >> 32), 0);
		uint32_t regs[4] = {r.eax, r.ebx, r.ecx, r.edx};

		return (uint64_t)regs[reg] << 32 | (v & (3ull << 30)) |
		       MSR_CPUID_RESP;
	}
	case GHCB_MSR_HV_FT_REQ:
		return (GHCB_HV_FT_SNP | GHCB_HV_FT_SNP_AP_CREATION |
			GHCB_HV_FT_SNP_MULTI_VMPL)
			       << 12 |
		       GHCB_MSR_HV_FT_RESP;
	case GHCB_MSR_REG_GPA_REQ:
		if (guest_ptr(data << 12, PAGE) == NULL) {
			return GPA_MASK | GHCB_MSR_REG_GPA_RESP;
		}
		ghcb_gpa[c->index][vmpl] = data << 12;
		return (data << 12) | GHCB_MSR_REG_GPA_RESP;
	case GHCB_MSR_PSC_REQ: {
		unsigned op = (unsigned)(v >> 52) & 0xFu;
		bool ok = (op == GHCB_PSC_OP_PRIVATE ||
			   op == GHCB_PSC_OP_SHARED) &&
			  psc_page(v & GPA_MASK, false,
				   op == GHCB_PSC_OP_PRIVATE);

		return (ok ? 0 : 1ull << 32) | GHCB_MSR_PSC_RESP;
	}
	case GHCB_MSR_RUN_VMPL_REQ:
		return (run_vmpl(c, vmpl, (unsigned)(v >> 32) & 0xFFu)
				? 0
				: 1ull << 32) |
		       GHCB_MSR_RUN_VMPL_RESP;
	case GHCB_MSR_TERM_REQ:
		terminate(c, vmpl, (v >> 12) & 0xF, (v >> 16) & 0xFF);
	default:
		mlog("vCPU %u VMPL%u: unknown GHCB MSR request %llx", c->index,
		     vmpl, (unsigned long long)v);
		return MSR_ERROR;
	}
}

/* The fields of a GHCB page this hypervisor reads: copied once. */
struct ghcb_in {
	uint64_t rax, rbx, rcx, rdx, xcr0;
	uint64_t code, info1, info2;
	uint8_t valid[16];
	uint16_t version;
	uint32_t usage;
};

static uint64_t rd64(const uint8_t *p, unsigned off)
{
	uint64_t v;

	__atomic_load(&*(const uint64_t *)(p + off), &v, __ATOMIC_RELAXED);
	return v;
}

static void wr64(uint8_t *p, unsigned off, uint64_t v)
{
	__atomic_store_n((uint64_t *)(p + off), v, __ATOMIC_RELAXED);
	p[GHCB_OFF_VALID_BITMAP + GHCB_VALID_BIT(off) / 8] |=
		(uint8_t)(1u << (GHCB_VALID_BIT(off) % 8));
}

static bool valid(const struct ghcb_in *g, unsigned off)
{
	return (g->valid[GHCB_VALID_BIT(off) / 8] >> (GHCB_VALID_BIT(off) % 8) &
		1u) != 0;
}

static void ghcb_read(const uint8_t *p, struct ghcb_in *g)
{
	g->rax = rd64(p, GHCB_OFF_RAX);
	g->rbx = rd64(p, GHCB_OFF_RBX);
	g->rcx = rd64(p, GHCB_OFF_RCX);
	g->rdx = rd64(p, GHCB_OFF_RDX);
	g->xcr0 = rd64(p, 0x3E8u);
	g->code = rd64(p, GHCB_OFF_SW_EXIT_CODE);
	g->info1 = rd64(p, GHCB_OFF_SW_EXIT_INFO_1);
	g->info2 = rd64(p, GHCB_OFF_SW_EXIT_INFO_2);
	memcpy(g->valid, p + GHCB_OFF_VALID_BITMAP, sizeof(g->valid));
	memcpy(&g->version, p + GHCB_OFF_PROTOCOL_VERSION, 2);
	memcpy(&g->usage, p + GHCB_OFF_USAGE, 4);
}

struct reply {
	uint64_t info1, info2;
	uint64_t rax, rbx, rcx, rdx;
	bool set_rax, set_rbx, set_rcx, set_rdx;
};

static void nae_ioio(struct mcpu *c, unsigned vmpl, const struct ghcb_in *g,
		     struct reply *r)
{
	uint16_t port = (uint16_t)(g->info1 >> SVM_IOIO_PORT_SHIFT);
	bool in = (g->info1 & SVM_IOIO_TYPE_IN) != 0;
	unsigned size = (g->info1 & SVM_IOIO_SZ32)   ? 4
			: (g->info1 & SVM_IOIO_SZ16) ? 2
						     : 1;
	uint32_t val = (uint32_t)g->rax;

	if ((g->info1 & 0xCu) != 0 || (!in && !valid(g, GHCB_OFF_RAX))) {
		r->info1 = GHCB_RESULT_MALFORMED; /* string I/O: not served */
		r->info2 = GHCB_ERR_INVALID_INPUT;
		return;
	}
	hv_io(c, vmpl, port, size, in, &val);
	if (in) {
		r->rax = (g->rax & ~0xFFFFFFFFull) | val;
		r->set_rax = true;
	}
}

static void nae_psc(uint8_t *buf, struct reply *r)
{
	uint16_t cur, end;

	memcpy(&cur, buf, 2);
	memcpy(&end, buf + 2, 2);
	if (end >= GHCB_PSC_MAX_ENTRIES || cur > end) {
		r->info2 = (1ull << 32) | 1;
		return;
	}
	for (; cur <= end; cur++) {
		uint64_t e;
		unsigned op;

		memcpy(&e, buf + GHCB_PSC_HDR_SIZE + 8u * cur, 8);
		op = (unsigned)GHCB_PSC_ENTRY_OP(e);
		if ((op != GHCB_PSC_OP_PRIVATE && op != GHCB_PSC_OP_SHARED) ||
		    !psc_page(GHCB_PSC_ENTRY_GFN(e) << 12,
			      GHCB_PSC_ENTRY_2M(e) != 0,
			      op == GHCB_PSC_OP_PRIVATE)) {
			memcpy(buf, &cur, 2);
			r->info2 = (1ull << 32) | 2;
			return;
		}
	}
	memcpy(buf, &cur, 2);
}

static void nae_ap_creation(struct mcpu *c, const struct ghcb_in *g,
			    struct reply *r)
{
	unsigned request = (unsigned)(g->info1 & 0xFFFFu);
	unsigned vmpl =
		(unsigned)(g->info1 >> SVM_VMGEXIT_AP_VMPL_SHIFT) & 0xFFFFu;
	struct mcpu *target = mcpu_by_apic((uint32_t)(g->info1 >> 32));
	uint64_t vmsa = g->info2;

	(void)c;
	if (target == NULL || vmpl >= MACHINE_VMPLS ||
	    (request != SVM_VMGEXIT_AP_CREATE &&
	     request != SVM_VMGEXIT_AP_DESTROY && request != 0) ||
	    (request != SVM_VMGEXIT_AP_DESTROY &&
	     ((vmsa & (PAGE - 1)) != 0 || guest_ptr(vmsa, PAGE) == NULL))) {
		r->info1 = GHCB_RESULT_MALFORMED;
		r->info2 = GHCB_ERR_INVALID_INPUT;
		return;
	}
	world_post(target, vmpl, vmsa, request == SVM_VMGEXIT_AP_DESTROY);
}

static void nae_guest_request(const struct ghcb_in *g, bool ext,
			      struct reply *r)
{
	uint8_t *req = shared_page(g->info1);
	uint8_t *rsp = shared_page(g->info2);
	uint64_t pages = ext ? g->rbx : 0;
	uint8_t *certs = NULL;
	size_t len = 0;

	if (ext && pages != 0 && pages <= 64 &&
	    guest_ptr(g->rax, pages * PAGE) != NULL) {
		uint64_t i;

		certs = guest_ptr(g->rax, pages * PAGE);
		len = pages * PAGE;
		for (i = 0; i < pages; i++) { /* every page shared */
			if (shared_page(g->rax + i * PAGE) == NULL) {
				certs = NULL;
			}
		}
	}
	if (req == NULL || rsp == NULL ||
	    (ext && pages != 0 && certs == NULL)) {
		r->info1 = GHCB_RESULT_MALFORMED;
		r->info2 = GHCB_ERR_INVALID_INPUT;
		return;
	}
	r->info2 = psp_serve_request(req, rsp, ext ? certs : NULL,
				     ext ? &len : NULL);
	if (ext && (r->info2 >> 32) == 1) { /* INVALID_LEN */
		r->rbx = (len + PAGE - 1) / PAGE;
		r->set_rbx = true;
	}
	if (mode == HV_FLIP_SHARED) {
		rsp[64] ^= 0x80; /* after the PSP wrote it */
	}
}

static void nae(struct mcpu *c, unsigned vmpl, uint8_t *p)
{
	struct ghcb_in g;
	struct reply r = {0};

	ghcb_read(p, &g);
	if (g.usage != GHCB_USAGE_STANDARD) {
		r.info1 = GHCB_RESULT_MALFORMED;
		r.info2 = GHCB_ERR_INVALID_USAGE;
	} else if (!valid(&g, GHCB_OFF_SW_EXIT_CODE) ||
		   !valid(&g, GHCB_OFF_SW_EXIT_INFO_1) ||
		   !valid(&g, GHCB_OFF_SW_EXIT_INFO_2)) {
		r.info1 = GHCB_RESULT_MALFORMED;
		r.info2 = GHCB_ERR_MISSING_INPUT;
	} else {
		switch (g.code) {
		case SVM_EXIT_IOIO:
			nae_ioio(c, vmpl, &g, &r);
			break;
		case SVM_EXIT_MSR:
			/* No MSR is KVM's to give this guest yet: #GP. */
			r.info1 = GHCB_ERR_RETURN;
			r.info2 = EVENT_GP;
			break;
		case SVM_EXIT_CPUID: {
			struct hw_cpuid x =
				hw_cpuid((uint32_t)g.rax, (uint32_t)g.rcx);

			r.rax = x.eax;
			r.rbx = x.ebx;
			r.rcx = x.ecx;
			r.rdx = x.edx;
			r.set_rax = r.set_rbx = r.set_rcx = r.set_rdx = true;
			break;
		}
		case SVM_VMGEXIT_PSC:
			nae_psc(p + GHCB_OFF_SHARED_BUFFER, &r);
			break;
		case SVM_VMGEXIT_SNP_RUN_VMPL:
			if (!run_vmpl(c, vmpl, (unsigned)(g.info1 & 0xFF))) {
				r.info1 = GHCB_RESULT_MALFORMED;
				r.info2 = GHCB_ERR_INVALID_INPUT;
			}
			break;
		case SVM_VMGEXIT_AP_CREATION:
			nae_ap_creation(c, &g, &r);
			break;
		case SVM_VMGEXIT_GUEST_REQUEST:
		case SVM_VMGEXIT_EXT_GUEST_REQUEST:
			nae_guest_request(
				&g, g.code == SVM_VMGEXIT_EXT_GUEST_REQUEST,
				&r);
			break;
		case SVM_VMGEXIT_HV_DOORBELL:
			if (g.info1 == SVM_VMGEXIT_HV_DOORBELL_SET &&
			    shared_page(g.info2) != NULL) {
				doorbell_gpa[c->index][vmpl] = g.info2;
			} else if (g.info1 == 3) {
				doorbell_gpa[c->index][vmpl] = 0;
			} else if (g.info1 != 2) {
				r.info1 = GHCB_RESULT_MALFORMED;
				r.info2 = GHCB_ERR_INVALID_INPUT;
				break;
			}
			r.info2 = doorbell_gpa[c->index][vmpl];
			break;
		case SVM_VMGEXIT_TERM_REQUEST:
			terminate(c, vmpl, g.info1 & 0xF,
				  (g.info1 >> 4) & 0xFF);
		default:
			r.info1 = GHCB_RESULT_MALFORMED;
			r.info2 = GHCB_ERR_INVALID_INPUT;
			break;
		}
	}
	/* KVM clears the bitmap, then marks what it writes. */
	memset(p + GHCB_OFF_VALID_BITMAP, 0, 16);
	wr64(p, GHCB_OFF_SW_EXIT_INFO_1, r.info1);
	wr64(p, GHCB_OFF_SW_EXIT_INFO_2, r.info2);
	if (r.set_rax) {
		wr64(p, GHCB_OFF_RAX, r.rax);
	}
	if (r.set_rbx) {
		wr64(p, GHCB_OFF_RBX, r.rbx);
	}
	if (r.set_rcx) {
		wr64(p, GHCB_OFF_RCX, r.rcx);
	}
	if (r.set_rdx) {
		wr64(p, GHCB_OFF_RDX, r.rdx);
	}
}

uint64_t hv_vmgexit(struct mcpu *c, unsigned vmpl, uint64_t msr)
{
	uint8_t *p;

	if (GHCB_MSR_INFO(msr) != 0) {
		return msr_protocol(c, vmpl, msr);
	}
	p = msr == ghcb_gpa[c->index][vmpl] ? shared_page(msr) : NULL;
	if (p == NULL) {
		/* KVM stops a guest whose GHCB is not its registered,
		 * shared page. */
		mlog("vCPU %u VMPL%u: VMGEXIT with GHCB %llx, registered %llx",
		     c->index, vmpl, (unsigned long long)msr,
		     (unsigned long long)ghcb_gpa[c->index][vmpl]);
		hv_stop(vmpl == 0 ? MACHINE_EXIT_SVSM_TERM
				  : MACHINE_EXIT_GUEST_TERM);
	}
	nae(c, vmpl, p);
	return msr;
}

void hv_hlt(struct mcpu *c, unsigned vmpl)
{
	(void)vmpl;
	world_halt(c);
}

void hv_npf(struct mcpu *c, unsigned vmpl, uint64_t gpa, uint64_t info1)
{
	if (vmpl == 0) {
		mlog("vCPU %u VMPL0: #NPF at %llx (error %llx): not RAM, or "
		     "the RMP refuses it",
		     c->index, (unsigned long long)gpa,
		     (unsigned long long)info1);
	}
	/* MMIO, or an access the RMP refuses: KVM's reserved-bit entries
	 * make the hardware raise #VC(NPF) for MMIO; an RMP violation is
	 * reflected the same way rather than hanging the vCPU. */
	world_vc(c, vmpl, VC_NPF);
}

void hv_npf_sizem(struct mcpu *c, unsigned vmpl, uint64_t gpa)
{
	(void)c;
	(void)vmpl;
	rmp_lock();
	if (rmp_hv_npf_sizem(&machine_rmp, gpa) == SNP_RET_SUCCESS) {
		rmp_changed(gpa & ~(SNP_PAGE_SIZE_2M - 1), SNP_PAGE_SIZE_2M);
	}
	rmp_unlock();
}
