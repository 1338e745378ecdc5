/* SPDX-License-Identifier: MIT */
/*
 * The machine's hypervisor is KVM's model (model/kvm, the one sim
 * uses): this file owns its struct kvm (a copy per CPU) and one struct
 * kvm_vcpu per vCPU
 * and gives it the machine as kvm_ops. The model checks every GHCB field
 * and GPA the guest gives before an op sees it; the ops here are the
 * host's side: guest RAM, the RMP lock, nested-table sync and TLB
 * shoot-down, QEMU's devices, the world switch, the PSP. What KVM does
 * outside the GHCB protocol (HLT, nested faults) is here too.
 *
 * Concurrency: vCPU i runs only on CPU i, so kvm_vcpus[i] and
 * exit_vmpl[i] are CPU i's alone; the RMP is shared, under rmp_lock.
 */
#include "hv.h"

#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"

#include "model/kvm.h"
#include "model/psp_model.h"

#include "hv_apic.h"
#include "hv_cpuid.h"
#include "hv_io.h"
#include "hv_kvmclock.h"
#include "hv_mmio.h"
#include "hv_msr.h"
#include "hv_vblk.h"
#include "layout.h"
#include "psp.h"
#include "rmp.h"
#include "vc.h"
#include "world.h"

static enum hv_mode mode;
static unsigned lies_told;  /* lies the log has shown (LIES_LOGGED) */
static unsigned vmpl0_runs; /* RUN_VMPL requests from VMPL0 (inject-ri) */
static struct mlock term_lock;
/* The model's state, one copy per CPU: they differ only in the
 * behaviour, which a run-time mode (hv_when) sets at each exit of that
 * CPU's vCPU, honest or lying by the exit's VMPL; the copies share the
 * vCPUs and the RMP, and keep their own counts. */
static struct kvm kvm[MACHINE_MAX_CPUS];
static enum kvm_behaviour lie; /* the mode's KVM lie */
static enum hv_when lie_when;  /* and when it is told */
static bool guest_ran;	       /* the guest VMPL has made an exit */
static struct kvm_vcpu kvm_vcpus[MACHINE_MAX_CPUS];
/* The VMPL whose VMGEXIT CPU i serves now (the ops are per vCPU), and
 * the GHCB MSR it came with (for the log when the guest is ended). */
static unsigned exit_vmpl[MACHINE_MAX_CPUS];
static uint64_t exit_msr[MACHINE_MAX_CPUS];

void hv_cpuid_table(struct snp_cpuid_table *t)
{
	if (mode == HV_CPUID_LIE) {
		mlog("hypervisor lies (cpuid-lie): a CPUID page entry the CPU "
		     "refutes");
	}
	hv_cpuid_fill(t, mode == HV_CPUID_LIE);
}

void hv_stop(unsigned exit_value)
{
	mlock_take(&term_lock); /* one CPU ends the VM */
	hv_io_flush();
	hv_vblk_report();
	world_report();
	machine_exit(exit_value);
}

static struct mcpu *cpu_of(const struct kvm_vcpu *v)
{
	struct mcpu *c = mcpu_by_apic(v->apic_id);

	MCHECK(c != NULL);
	return c;
}

static uint8_t *op_page(struct kvm *k, uint64_t gpa)
{
	(void)k;
	return guest_ptr(gpa, PAGE);
}

static void op_rmp_lock(struct kvm *k)
{
	(void)k;
	rmp_lock();
}

static void op_rmp_unlock(struct kvm *k)
{
	(void)k;
	rmp_unlock();
}

/* RMPUPDATE or PSMASH by the model: the nested tables follow the RMP,
 * and no CPU keeps a translation the RMP no longer allows once the
 * request returns (until then the change is in flight, as on hardware
 * before its TLB flush). */
static void op_rmp_changed(struct kvm *k, uint64_t gpa, uint64_t len)
{
	(void)k;
	rmp_lock();
	rmp_changed(gpa, len);
	rmp_unlock();
	rmp_flush_tlbs();
}

static void op_io(struct kvm *k, struct kvm_vcpu *v, uint16_t port,
		  unsigned size, bool in, uint32_t *val)
{
	(void)k;
	hv_io(cpu_of(v), exit_vmpl[v->index], port, size, in, val);
}

static bool op_msr(struct kvm *k, struct kvm_vcpu *v, bool write, uint32_t msr,
		   uint64_t *val)
{
	(void)k;
	return hv_msr(cpu_of(v), exit_vmpl[v->index], write, msr, val);
}

static void op_cpuid(struct kvm *k, uint32_t leaf, uint32_t subleaf,
		     uint64_t xcr0, uint32_t out[4])
{
	(void)k;
	hv_cpuid(leaf, subleaf, xcr0, out);
}

#define X2APIC_TPR 0x808u /* the x2APIC TPR MSR */
#define INJECT_RI_AFTER 8u
#define HV_DOORBELL_VECTOR 0x20u

/*
 * inject-ri: a hypervisor that, instead of running VMPL1, signals an
 * interrupt to the SVSM. The hardware refuses the direct injection
 * (Restricted Injection); through the doorbell and #HV it arrives, and
 * the SVSM, which asks for no events, must terminate.
 */
static bool inject_into_svsm(struct mcpu *c, const struct kvm_vcpu *v)
{
	uint64_t gpa = v->doorbell_gpa[0];
	uint8_t *db = guest_ptr(gpa, PAGE);
	bool shared;

	if (mode != HV_INJECT_RI ||
	    __atomic_add_fetch(&vmpl0_runs, 1, __ATOMIC_RELAXED) !=
		    INJECT_RI_AFTER ||
	    gpa == 0 || db == NULL) {
		return false;
	}
	rmp_lock();
	shared = rmp_check_shared_access(&machine_rmp, gpa) == RMP_ACCESS_OK;
	rmp_unlock();
	if (!shared) {
		return false;
	}
	(void)world_inject(c, 0, HV_DOORBELL_VECTOR); /* refused */
	__atomic_store_n((uint16_t *)db, (uint16_t)HV_DOORBELL_VECTOR,
			 __ATOMIC_SEQ_CST);
	mlog("hypervisor lies (inject-ri) to vCPU %u VMPL0: #HV with vector "
	     "0x%x, an event its VMSA's Restricted Injection refuses",
	     c->index, HV_DOORBELL_VECTOR);
	return world_inject(c, 0, VEC_HV);
}

static bool op_run_vmpl(struct kvm *k, struct kvm_vcpu *v, unsigned vmpl)
{
	struct mcpu *c = cpu_of(v);

	(void)k;
	if (exit_vmpl[v->index] == 0 && inject_into_svsm(c, v)) {
		return true; /* VMPL0 runs on, with #HV pending */
	}
	world_run_vmpl(c, vmpl); /* with no VMSA there, the vCPU waits */
	return true;
}

/* The model checked the APIC ID, the VMPL and the VMSA's page; the
 * hardware checks the VMSA when it runs. KVM's create-on-INIT takes
 * effect at the next INIT, which this machine's vCPUs never get: it is
 * a create. */
static uint64_t op_ap_create(struct kvm *k, struct kvm_vcpu *v,
			     unsigned request, uint32_t apic_id,
			     uint64_t vmsa_gpa, unsigned vmpl,
			     uint64_t sev_features)
{
	struct mcpu *target = mcpu_by_apic(apic_id);

	(void)k;
	(void)v;
	(void)sev_features;
	if (target == NULL) {
		return GHCB_ERR_INVALID_INPUT;
	}
	if (vmpl == HV_APIC_VMPL) {
		/* KVM: the request resets the target vCPU (kvm_vcpu_reset
		 * with init_event), its local APIC with it. */
		hv_apic_init_event(target);
	}
	world_post(target, vmpl, vmsa_gpa, request == SVM_VMGEXIT_AP_DESTROY);
	return 0;
}

static bool op_mmio(struct kvm *k, struct kvm_vcpu *v, uint64_t gpa,
		    unsigned len, bool write, uint8_t data[8])
{
	(void)k;
	hv_mmio(cpu_of(v), exit_vmpl[v->index], gpa, len, write, data);
	return true;
}

static uint64_t op_guest_request(struct kvm *k, const void *req, void *rsp,
				 void *certs, size_t *certs_len)
{
	(void)k;
	return psp_serve_request(req, rsp, certs, certs_len);
}

/* Linux's CPU offline: held until AP Creation gives the vCPU a new VMSA
 * (no SIPI wakes an SNP vCPU). */
static bool op_ap_hlt_loop(struct kvm *k, struct kvm_vcpu *v)
{
	(void)k;
	world_hold(cpu_of(v));
	return false;
}

/* What a GHCB termination reason means, for the reason sets the GHCB
 * spec (set 0) and Linux (set 1, arch/x86/include/asm/sev-common.h)
 * define, and csvsm's own (set 3, by their names in svsm/terminate.h:
 * the SVSM's log names them too, unless its console is what the host
 * lies about). "" if none. */
static const char *term_reason(uint32_t set, uint32_t code)
{
	static const char *const gen[] = {
		"general request", "GHCB protocol version unsupported",
		"SEV-SNP unsupported by the hypervisor"};
	static const char *const lnx[] = {
		"GHCB registration failed",
		"page state change failed",
		"PVALIDATE failed",
		"not running at VMPL0: a kernel without SVSM support",
		"CPUID validation failed",
		"CPUID failed in the hypervisor fallback",
		"secrets page failure",
		"no SVSM advertised in the secrets page",
		"the SVSM set the guest's VMPL to 0",
		"the SVSM's Calling Area is not page aligned",
		"Secure TSC initialisation failed",
		"the SVSM's Calling Area could not be remapped",
		"Secure AVIC failure"};
#define TERM_NAME(reason) [reason] = #reason
	static const char *const svsm[] = {
		TERM_NAME(TERM_CSVSM_PANIC),
		TERM_NAME(TERM_CSVSM_BAD_BOOT_INFO),
		TERM_NAME(TERM_CSVSM_RMP_FAILURE),
		TERM_NAME(TERM_CSVSM_NO_MEMORY),
		TERM_NAME(TERM_CSVSM_GUEST_MSG_TAMPERED),
		TERM_NAME(TERM_CSVSM_GHCB_RESPONSE),
		TERM_NAME(TERM_CSVSM_PSC_FAILED),
		TERM_NAME(TERM_CSVSM_RUN_VMPL_REFUSED),
		TERM_NAME(TERM_CSVSM_NOT_VMPL0),
		TERM_NAME(TERM_CSVSM_UNEXPECTED_VC),
		TERM_NAME(TERM_CSVSM_UNEXPECTED_EVENT),
		TERM_NAME(TERM_CSVSM_LINUX_MEMORY_MAP),
		TERM_NAME(TERM_CSVSM_DEVICE_PROTOCOL)};
#undef TERM_NAME

	if (set == 0 && code < sizeof(gen) / sizeof(gen[0])) {
		return gen[code];
	}
	if (set == 1 && code < sizeof(lnx) / sizeof(lnx[0])) {
		return lnx[code];
	}
	if (set == TERM_SET_CSVSM && code < sizeof(svsm) / sizeof(svsm[0]) &&
	    svsm[code] != NULL) {
		return svsm[code];
	}
	return "";
}

static void op_terminate(struct kvm *k, struct kvm_vcpu *v, uint32_t set,
			 uint32_t code)
{
	unsigned vmpl = exit_vmpl[v->index];
	const char *why = term_reason(set, code);

	(void)k;
	hv_io_flush();
	mlog("vCPU %u VMPL%u asked to terminate: reason set %u code %u%s%s%s",
	     v->index, vmpl, set, code, *why != '\0' ? " (" : "", why,
	     *why != '\0' ? ")" : "");
	if (set == 0 && code == 0) { /* also KVM's own kill */
		uint64_t gpa = v->ghcb_gpa[vmpl] & ~(uint64_t)(PAGE - 1);
		uint8_t *g = guest_ptr(gpa, PAGE);
		uint64_t sw[3] = {0, 0, 0};
		bool shared;

		/* What KVM can read of the registered GHCB: a shared page
		 * only (the page may have become private since). */
		rmp_lock();
		shared = g != NULL &&
			 rmp_check_shared_access(&machine_rmp, gpa) ==
				 RMP_ACCESS_OK;
		if (shared) {
			memcpy(sw, g + GHCB_OFF_SW_EXIT_CODE, sizeof(sw));
		}
		rmp_unlock();
		if (shared) {
			mlog("  GHCB MSR %llx, registered GHCB %llx: exit code "
			     "%llx, info %llx %llx",
			     (unsigned long long)exit_msr[v->index],
			     (unsigned long long)v->ghcb_gpa[vmpl],
			     (unsigned long long)sw[0],
			     (unsigned long long)sw[1],
			     (unsigned long long)sw[2]);
		} else {
			mlog("  GHCB MSR %llx, registered GHCB %llx: not a "
			     "shared page, not read",
			     (unsigned long long)exit_msr[v->index],
			     (unsigned long long)v->ghcb_gpa[vmpl]);
		}
	}
	hv_stop(vmpl == 0 ? MACHINE_EXIT_SVSM_TERM : MACHINE_EXIT_GUEST_TERM);
}

/* At most this many lies are logged one by one (a lie told at every
 * exit would fill the log); the next says the rest are not. */
#define LIES_LOGGED 8u

/* The model told a lie: the log says which, on which vCPU and VMPL, as
 * it is told (docs/threat-model.md's table names them). */
static void op_lie(const struct kvm *k, const char *what)
{
	unsigned n = __atomic_add_fetch(&lies_told, 1, __ATOMIC_RELAXED);
	unsigned i = mcpu_this()->index;

	(void)k;
	if (n <= LIES_LOGGED) {
		mlog("hypervisor lies (%s) to vCPU %u VMPL%u: %s",
		     hv_mode_name(mode), i, exit_vmpl[i], what);
	} else if (n == LIES_LOGGED + 1) {
		mlog("hypervisor: further lies not logged");
	}
}

static const struct kvm_ops machine_kvm_ops = {
	.page = op_page,
	.rmp_lock = op_rmp_lock,
	.rmp_unlock = op_rmp_unlock,
	.rmp_changed = op_rmp_changed,
	.io = op_io,
	.msr = op_msr,
	.cpuid = op_cpuid,
	.run_vmpl = op_run_vmpl,
	.ap_create = op_ap_create,
	.guest_request = op_guest_request,
	.mmio = op_mmio,
	.ap_hlt_loop = op_ap_hlt_loop,
	.terminate = op_terminate,
	.lie = op_lie,
};

#define HV_MODE_NAME(id, name, kvm, psp, when, st, log, lst, llog)             \
	[HV_##id] = (name),
#define HV_MODE_KVM(id, name, kvm, psp, when, st, log, lst, llog)              \
	[HV_##id] = (kvm),
#define HV_MODE_PSP(id, name, kvm, psp, when, st, log, lst, llog)              \
	[HV_##id] = (psp),
#define HV_MODE_WHEN(id, name, kvm, psp, when, st, log, lst, llog)             \
	[HV_##id] = (when),
static const char *const mode_names[HV_MODE_COUNT] = {HV_MODES(HV_MODE_NAME)};
static const enum kvm_behaviour mode_kvm[HV_MODE_COUNT] = {
	HV_MODES(HV_MODE_KVM)};
static const enum psp_fault mode_psp[HV_MODE_COUNT] = {HV_MODES(HV_MODE_PSP)};
static const enum hv_when mode_when[HV_MODE_COUNT] = {HV_MODES(HV_MODE_WHEN)};

bool hv_mode_by_name(const char *name, enum hv_mode *m)
{
	unsigned i;

	for (i = 0; i < HV_MODE_COUNT; i++) {
		if (str_eq(name, mode_names[i])) {
			*m = (enum hv_mode)i;
			return true;
		}
	}
	return false;
}

const char *hv_mode_name(enum hv_mode m)
{
	return m < HV_MODE_COUNT ? mode_names[m] : "?";
}

void hv_init(enum hv_mode m)
{
	unsigned i, n = mcpu_count();

	mode = m;
	psp_set_fault(mode_psp[m]);
	hv_apic_init(n);
	hv_io_init();
	hv_vblk_init(); /* after hv_io_init: bus mastering is off */
	hv_kvmclock_init();
	lie = mode_kvm[m];
	lie_when = mode_when[m];
	for (i = 0; i < n; i++) {
		kvm_vcpus[i].index = i;
		kvm_vcpus[i].apic_id = mcpu_by_apic(i)->apic_id;
		kvm[i] = (struct kvm){
			.ops = &machine_kvm_ops,
			.rmp = &machine_rmp,
			.c_bit = MACHINE_C_BIT,
			.behaviour = lie_when == HV_BOOT ? lie : KVM_HONEST,
			.vcpus = kvm_vcpus,
			.nr_vcpus = n,
		};
	}
}

/* A run-time mode's lie for an exit from @vmpl on @c: told to the SVSM
 * (VMPL0) once the guest has made its first exit (HV_RUN_SVSM), or to
 * the guest only (HV_RUN_GUEST); the log says when it starts. */
static enum kvm_behaviour run_time_lie(const struct mcpu *c, unsigned vmpl)
{
	if (vmpl != 0 &&
	    !__atomic_exchange_n(&guest_ran, true, __ATOMIC_RELAXED)) {
		mlog("hypervisor: vCPU %u VMPL%u made the guest's first "
		     "exit; %s is told to %s from now on",
		     c->index, vmpl, hv_mode_name(mode),
		     lie_when == HV_RUN_SVSM ? "the SVSM (VMPL0)"
					     : "the guest");
	}
	if (lie_when == HV_RUN_GUEST) {
		return vmpl != 0 ? lie : KVM_HONEST;
	}
	return vmpl == 0 && __atomic_load_n(&guest_ran, __ATOMIC_RELAXED)
		       ? lie
		       : KVM_HONEST;
}

uint64_t hv_vmgexit(struct mcpu *c, unsigned vmpl, uint64_t msr)
{
	struct kvm *k = &kvm[c->index];

	exit_vmpl[c->index] = vmpl;
	exit_msr[c->index] = msr;
	if (lie_when != HV_BOOT) {
		k->behaviour = run_time_lie(c, vmpl);
	}
	return kvm_vmgexit(k, &kvm_vcpus[c->index], vmpl, msr);
}

/* HLT sleeps until an interrupt for the vCPU's APIC (VMPL1), or a new
 * VMSA or VMPL (any VMPL). */
void hv_hlt(struct mcpu *c, unsigned vmpl)
{
	if (vmpl == HV_APIC_VMPL && hv_apic_pending(c)) {
		return;
	}
	world_halt(c);
}

void hv_before_run(struct mcpu *c, unsigned vmpl, bool interruptible)
{
	if (vmpl == HV_APIC_VMPL) {
		hv_apic_before_run(c, interruptible);
	}
}

bool hv_wake(struct mcpu *c, unsigned vmpl)
{
	return vmpl == HV_APIC_VMPL && hv_apic_pending(c);
}

/*
 * KVM's implicit conversion: an access to guest memory whose C-bit
 * disagrees with the page's state (shared access to a private page, or
 * the reverse) exits to QEMU (KVM_EXIT_MEMORY_FAULT), which converts the
 * page (kvm_convert_memory) and runs the vCPU again. OVMF's SEC relies on
 * it for its first GHCB. A page made shared so loses its validation, as
 * on a real host; one made private comes back unvalidated (#VC 0x404).
 */
static bool convert_on_fault(uint64_t gpa)
{
	bool to_private = (gpa & MACHINE_C_MASK) != 0;
	uint64_t page = gpa & ~MACHINE_C_MASK & ~(PAGE - 1);
	const struct rmp_entry *e;
	bool ok = false;

	if (guest_ptr(page, PAGE) == NULL) {
		return false;
	}
	rmp_lock();
	e = rmp_lookup(&machine_rmp, page);
	if (e != NULL && ((e->flags & RMP_F_ASSIGNED) != 0) != to_private) {
		ok = rmp_hv_page_state(&machine_rmp, page, false, to_private) ==
		     SNP_RET_SUCCESS;
		if (ok) {
			/* A PSMASH may have split the 2 MiB around it. */
			rmp_changed(page & ~(SNP_PAGE_SIZE_2M - 1),
				    SNP_PAGE_SIZE_2M);
		}
	}
	rmp_unlock();
	if (ok) {
		rmp_flush_tlbs();
	}
	return ok;
}

void hv_npf(struct mcpu *c, unsigned vmpl, uint64_t gpa, uint64_t info1)
{
	if (convert_on_fault(gpa)) {
		return; /* the access runs again */
	}
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

void hv_cr8_write(struct mcpu *c, unsigned vmpl, uint64_t cr8)
{
	uint64_t tpr = (cr8 & 0xFu) << 4;

	if (vmpl == HV_APIC_VMPL) {
		(void)hv_apic_msr(c, true, X2APIC_TPR, &tpr);
	}
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
