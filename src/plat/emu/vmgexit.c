/* SPDX-License-Identifier: MIT */
/*
 * VMGEXIT on emu. QEMU has no SEV-ES, so the guest's VMGEXIT (F3 0F 01
 * D9) arrives as a VMMCALL exit with RIP at the F3 byte (no next-RIP: the
 * length is ours to apply), and the GHCB MSR is emulated per vCPU. Both
 * GHCB protocols are served:
 * - MSR protocol: SEV info, hypervisor features, GHCB registration, page
 *   state change, run VMPL, termination;
 * - GHCB page: SNP Run VMPL, AP Creation, termination.
 * "Run VMPL0" is an SVSM call: the VMSA records a VMGEXIT exit and
 * request_process() runs it, exactly the path snp and sim take.
 * Threat T12: the GHCB is a shared page the guest writes concurrently: the
 * fields are copied once, checked (valid bits) and used from the copy.
 */
#include "svsm/log.h"
#include "svsm/memmap.h"
#include "svsm/request.h"
#include "svsm/std.h"
#include "svsm/vcpu.h"

#include "abi/ghcb.h"
#include "abi/snp.h"

#include "emu_rmp.h"
#include "emu_vcpu.h"
#include "guest_walk.h"
#include "host.h"

#define VMGEXIT_LEN 4u
#define VMMCALL_LEN 3u
#define EMU_C_BIT 51ull

struct ghcb_copy {
	uint64_t rax;
	uint64_t exit_code;
	uint64_t info1;
	uint64_t info2;
	uint64_t valid[2];
	uint16_t version;
	uint32_t usage;
};

static bool ghcb_valid(const struct ghcb_copy *g, unsigned off)
{
	unsigned bit = GHCB_VALID_BIT(off);

	return (g->valid[bit / 64] >> (bit % 64) & 1u) != 0;
}

/* The GHCB must be a registered, shared page of guest RAM. */
static bool ghcb_page_ok(const struct emu_vcpu *v, uint64_t gpa)
{
	bool shared;

	if (gpa != v->ghcb_gpa || gpa == 0 ||
	    !memmap_is_guest_ram(gpa_init(gpa), SNP_PAGE_SIZE)) {
		return false;
	}
	emu_rmp_lock();
	shared = rmp_check_shared_access(&emu_rmp, gpa) == RMP_ACCESS_OK;
	emu_rmp_unlock();
	return shared;
}

static void ghcb_read(uint64_t gpa, struct ghcb_copy *g)
{
	const volatile uint8_t *p = (const volatile uint8_t *)gpa;

	g->rax = *(const volatile uint64_t *)(p + GHCB_OFF_RAX);
	g->exit_code = *(const volatile uint64_t *)(p + GHCB_OFF_SW_EXIT_CODE);
	g->info1 = *(const volatile uint64_t *)(p + GHCB_OFF_SW_EXIT_INFO_1);
	g->info2 = *(const volatile uint64_t *)(p + GHCB_OFF_SW_EXIT_INFO_2);
	g->valid[0] = *(const volatile uint64_t *)(p + GHCB_OFF_VALID_BITMAP);
	g->valid[1] =
		*(const volatile uint64_t *)(p + GHCB_OFF_VALID_BITMAP + 8);
	g->version =
		*(const volatile uint16_t *)(p + GHCB_OFF_PROTOCOL_VERSION);
	g->usage = *(const volatile uint32_t *)(p + GHCB_OFF_USAGE);
}

static void ghcb_reply(uint64_t gpa, uint64_t info1, uint64_t info2)
{
	volatile uint8_t *p = (volatile uint8_t *)gpa;

	*(volatile uint64_t *)(p + GHCB_OFF_SW_EXIT_INFO_1) = info1;
	*(volatile uint64_t *)(p + GHCB_OFF_SW_EXIT_INFO_2) = info2;
}

/* "Run VMPL0": the SVSM serves the call this vCPU has pending, if any. */
static enum request_outcome run_vmpl0(struct emu_cpu *cpu, struct emu_vcpu *v)
{
	struct svsm_cpu *scpu = cpu_by_apic(cpu->apic_id);

	v->vmsa->guest_exit_code = SVM_EXIT_VMGEXIT;
	emu_vcpu_release(v);
	return scpu != NULL ? request_process(scpu) : REQUEST_NO_GUEST;
}

static void vmgexit_ghcb(struct emu_cpu *cpu, struct emu_vcpu *v, uint64_t gpa)
{
	struct ghcb_copy g;
	uint64_t err;

	if (!ghcb_page_ok(v, gpa)) {
		LOG_GUEST("VMGEXIT with an unregistered or private GHCB %llx",
			  (unsigned long long)gpa);
		return; /* nowhere to reply: the guest sees no change */
	}
	ghcb_read(gpa, &g);
	if (g.usage != 0) {
		ghcb_reply(gpa, GHCB_RESULT_MALFORMED, GHCB_ERR_INVALID_USAGE);
		return;
	}
	if (!ghcb_valid(&g, GHCB_OFF_SW_EXIT_CODE) ||
	    !ghcb_valid(&g, GHCB_OFF_SW_EXIT_INFO_1) ||
	    !ghcb_valid(&g, GHCB_OFF_SW_EXIT_INFO_2)) {
		ghcb_reply(gpa, GHCB_RESULT_MALFORMED, GHCB_ERR_MISSING_INPUT);
		return;
	}
	switch (g.exit_code) {
	case SVM_VMGEXIT_SNP_RUN_VMPL:
		if ((uint32_t)g.info1 != 0) {
			ghcb_reply(gpa, GHCB_RESULT_MALFORMED,
				   GHCB_ERR_INVALID_INPUT);
			return;
		}
		ghcb_reply(gpa, GHCB_RESULT_OK, 0);
		if (run_vmpl0(cpu, v) == REQUEST_VCPU_DELETED) {
			emu_vcpu_unload(cpu);
		}
		return;
	case SVM_VMGEXIT_AP_CREATION:
		err = host_ap_creation(cpu, (uint32_t)g.info1 & 0xFFFFu,
				       (uint32_t)(g.info1 >> 32), g.info2);
		ghcb_reply(gpa,
			   err == 0 ? GHCB_RESULT_OK : GHCB_RESULT_MALFORMED,
			   err == 0 ? 0 : GHCB_ERR_INVALID_INPUT);
		return;
	case SVM_VMGEXIT_TERM_REQUEST:
		host_guest_terminate((uint32_t)g.info1 & 0xF,
				     (uint32_t)(g.info1 >> 4) & 0xFF);
	default:
		ghcb_reply(gpa, GHCB_RESULT_MALFORMED, GHCB_ERR_INVALID_INPUT);
		return;
	}
}

static uint64_t msr_psc(uint64_t req)
{
	uint64_t gpa = req & 0x000FFFFFFFFFF000ull;
	unsigned op = (unsigned)(req >> 52) & 0xF;

	if ((op != GHCB_PSC_OP_PRIVATE && op != GHCB_PSC_OP_SHARED) ||
	    !memmap_is_guest_ram(gpa_init(gpa), SNP_PAGE_SIZE) ||
	    emu_rmp_page_state(gpa, op == GHCB_PSC_OP_PRIVATE) !=
		    SNP_RET_SUCCESS) {
		return (1ull << 32) | GHCB_MSR_PSC_RESP;
	}
	return GHCB_MSR_PSC_RESP;
}

static void vmgexit_msr(struct emu_cpu *cpu, struct emu_vcpu *v)
{
	uint64_t req = v->ghcb_msr;
	uint64_t gfn = req >> 12;

	switch (req & GHCB_MSR_INFO_MASK) {
	case GHCB_MSR_SEV_INFO_REQ:
		v->ghcb_msr = (GHCB_PROTOCOL_MAX << 48) |
			      (GHCB_PROTOCOL_MIN << 32) | (EMU_C_BIT << 24) |
			      GHCB_MSR_SEV_INFO_RESP;
		return;
	case GHCB_MSR_HV_FT_REQ:
		v->ghcb_msr = ((GHCB_HV_FT_SNP | GHCB_HV_FT_SNP_AP_CREATION |
				GHCB_HV_FT_SNP_MULTI_VMPL)
			       << 12) |
			      GHCB_MSR_HV_FT_RESP;
		return;
	case GHCB_MSR_REG_GPA_REQ:
		if (memmap_is_guest_ram(gpa_init(gfn << 12), SNP_PAGE_SIZE)) {
			v->ghcb_gpa = gfn << 12;
			v->ghcb_msr = (gfn << 12) | GHCB_MSR_REG_GPA_RESP;
		} else {
			v->ghcb_msr = (0xFFFFFFFFFFFFFull << 12) |
				      GHCB_MSR_REG_GPA_RESP;
		}
		return;
	case GHCB_MSR_PSC_REQ:
		v->ghcb_msr = msr_psc(req);
		return;
	case GHCB_MSR_RUN_VMPL_REQ:
		if (((req >> GHCB_MSR_RUN_VMPL_SHIFT) & 0xFF) != 0) {
			v->ghcb_msr = (1ull << 32) | GHCB_MSR_RUN_VMPL_RESP;
			return;
		}
		v->ghcb_msr = GHCB_MSR_RUN_VMPL_RESP;
		if (run_vmpl0(cpu, v) == REQUEST_VCPU_DELETED) {
			emu_vcpu_unload(cpu);
		}
		return;
	case GHCB_MSR_TERM_REQ:
		host_guest_terminate((uint32_t)(req >> 12) & 0xF,
				     (uint32_t)(req >> 16) & 0xFF);
	case 0:
		vmgexit_ghcb(cpu, v, req);
		return;
	default:
		LOG_GUEST("unknown GHCB MSR request %llx",
			  (unsigned long long)req);
		return;
	}
}

void exit_vmmcall(struct emu_cpu *cpu, struct emu_vcpu *v)
{
	static const uint8_t vmgexit[VMGEXIT_LEN] = {0xF3, 0x0F, 0x01, 0xD9};
	uint8_t insn[VMGEXIT_LEN];

	if (guest_fetch(v->vmsa, v->vmsa->rip, insn, sizeof(insn)) &&
	    memcmp(insn, vmgexit, sizeof(insn)) == 0) {
		/* SEV-ES hardware reports a VMGEXIT with RIP after it. */
		v->vmsa->rip += VMGEXIT_LEN;
		vmgexit_msr(cpu, v);
		return;
	}
	/* A plain VMMCALL is not a hypercall an SNP guest has: #UD. */
	emu_inject_exception(v, VEC_UD, false, 0);
}
