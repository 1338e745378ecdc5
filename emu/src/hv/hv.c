/* SPDX-License-Identifier: MIT */
/*
 * The machine's hypervisor is KVM's model (model/kvm, the one sim
 * uses): this file owns its struct kvm (a copy per CPU), the vCPUs
 * (hv_vcpu.h), and each vCPU's run loop, as KVM's vcpu_enter_guest and
 * bhyve's vm_run: take AP Creation's posts, decide halt and wake, inject
 * the APIC's interrupt, run the hardware (world_run) and dispatch the
 * automatic exit it returns through one table. It gives the model the
 * machine as kvm_ops. The model checks every GHCB field and GPA the
 * guest gives before an op sees it; the ops here are the host's side:
 * guest RAM, the RMP lock, nested-table sync and TLB shoot-down, QEMU's
 * devices, the world switch, the PSP. What KVM does outside the GHCB
 * protocol (HLT, nested faults) is here too.
 *
 * Concurrency: vCPU i runs only on CPU i, so its struct hv_vcpu is CPU
 * i's alone (hv_vcpu.h); the RMP is shared, under rmp_lock.
 */
#include "hv.h"

#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"

#include "model/kvm.h"
#include "model/psp_model.h"

#include "hv/dev/hv_apic.h"
#include "hv/dev/hv_vblk.h"
#include "hv/dev/hv_vuart.h"
#include "hv_cpuid.h"
#include "hv_io.h"
#include "hv_kvmclock.h"
#include "hv_mmio.h"
#include "hv_msr.h"
#include "hv_vcpu.h"
#include "hw/rmp.h"
#include "hw/world.h"
#include "machine/lapic.h"
#include "machine/layout.h"
#include "psp/psp.h"

static enum hv_mode mode;
static unsigned lies_told;  /* lies the log has shown (LIES_LOGGED) */
static unsigned vmpl0_runs; /* RUN_VMPL requests from VMPL0 (inject-ri) */
static struct spinlock term_lock;
/* The model's state, one copy per CPU: they differ only in the
 * behaviour, which a run-time mode (hv_when) sets at each exit of that
 * CPU's vCPU, honest or lying by the exit's VMPL; the copies share the
 * vCPUs and the RMP, and keep their own counts. */
static struct kvm kvm[MACHINE_MAX_CPUS];
static enum kvm_behaviour lie; /* the mode's KVM lie */
static enum hv_when lie_when;  /* and when it is told */
static bool guest_ran;	       /* the guest VMPL has made an exit */
static struct kvm_vcpu kvm_vcpus[MACHINE_MAX_CPUS];

void hv_cpuid_table(struct snp_cpuid_table *t)
{
	if (mode == HV_CPUID_LIE) {
		mlog("hypervisor lies (cpuid-lie): a CPUID page entry the CPU "
		     "refutes");
	}
	hv_cpuid_fill(t, mode == HV_CPUID_LIE);
}

/* Stop the VM: flush the guest's console lines, report, exit QEMU. */
static void hv_stop(unsigned exit_value) __attribute__((noreturn));
static void hv_stop(unsigned exit_value)
{
	spin_lock(&term_lock); /* one CPU ends the VM */
	hv_vuart_flush();
	hv_vblk_report();
	world_report();
	machine_exit(exit_value);
}

/* The model's vCPU @v is entry v->index of both lists. */
static struct hv_vcpu *vcpu_of(const struct kvm_vcpu *v)
{
	return hv_vcpu_at(v->index);
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
	rmp_commit(gpa, len, true);
}

static void op_io(struct kvm *k, struct kvm_vcpu *v, uint16_t port,
		  unsigned size, bool in, uint32_t *val)
{
	(void)k;
	hv_io(vcpu_of(v), vcpu_of(v)->exit_vmpl, port, size, in, val);
}

static bool op_msr(struct kvm *k, struct kvm_vcpu *v, bool write, uint32_t msr,
		   uint64_t *val)
{
	(void)k;
	return hv_msr(vcpu_of(v), vcpu_of(v)->exit_vmpl, write, msr, val);
}

static void op_cpuid(struct kvm *k, uint32_t leaf, uint32_t subleaf,
		     uint64_t xcr0, uint32_t out[4])
{
	(void)k;
	hv_cpuid(leaf, subleaf, xcr0, out);
}

#define X2APIC_TPR 0x808u /* the x2APIC TPR MSR */
/* How often the machine looks for the user's keys at QEMU's UART. */
#define SERIAL_POLL_MS 10u
#define INJECT_RI_AFTER 8u
#define HV_DOORBELL_VECTOR 0x20u

/*
 * inject-ri: a hypervisor that, instead of running VMPL1, signals an
 * interrupt to the SVSM. The hardware refuses the direct injection
 * (Restricted Injection); through the doorbell and #HV it arrives, and
 * the SVSM, which asks for no events, must terminate.
 */
static bool inject_into_svsm(struct hv_vcpu *hv)
{
	uint64_t gpa = hv->kvm->doorbell_gpa[0];
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
	(void)world_inject(hv->hw, &hv->ctl[0], 0,
			   HV_DOORBELL_VECTOR); /* refused */
	__atomic_store_n((uint16_t *)db, (uint16_t)HV_DOORBELL_VECTOR,
			 __ATOMIC_SEQ_CST);
	mlog("hypervisor lies (inject-ri) to vCPU %u VMPL0: #HV with vector "
	     "0x%x, an event its VMSA's Restricted Injection refuses",
	     hv->index, HV_DOORBELL_VECTOR);
	return world_inject(hv->hw, &hv->ctl[0], 0, X86_VEC_HV);
}

static bool op_run_vmpl(struct kvm *k, struct kvm_vcpu *v, unsigned vmpl)
{
	struct hv_vcpu *hv = vcpu_of(v);

	(void)k;
	if (hv->exit_vmpl == 0 && inject_into_svsm(hv)) {
		return true; /* VMPL0 runs on, with #HV pending */
	}
	/* With no VMSA there, the vCPU waits. */
	hv->vmpl = vmpl;
	hv->halted = false;
	hv->held = false;
	return true;
}

/* AP creation: give vCPU @target the VMSA at @gpa for @vmpl (or take it
 * away, @destroy), at its next loop turn; the hardware checks it at
 * VMRUN. */
static void post(struct hv_vcpu *target, unsigned vmpl, uint64_t gpa,
		 bool destroy)
{
	bool posted;

	spin_lock(&target->post_lock);
	posted = ap_post_put(&target->posts, vmpl, gpa, destroy);
	spin_unlock(&target->post_lock);
	MCHECK(posted);
	if (target != hv_vcpu_this()) {
		lapic_send_ipi(target->apic_id, MACHINE_VEC_WAKEUP);
	}
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
	struct hv_vcpu *target = hv_vcpu_by_apic(apic_id);

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
	post(target, vmpl, vmsa_gpa, request == SVM_VMGEXIT_AP_DESTROY);
	return 0;
}

static bool op_mmio(struct kvm *k, struct kvm_vcpu *v, uint64_t gpa,
		    unsigned len, bool write, uint8_t data[8])
{
	(void)k;
	hv_mmio(vcpu_of(v), vcpu_of(v)->exit_vmpl, gpa, len, write, data);
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
	struct hv_vcpu *hv = vcpu_of(v);

	(void)k;
	hv->halted = true;
	hv->held = true;
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
	struct hv_vcpu *hv = vcpu_of(v);
	unsigned vmpl = hv->exit_vmpl;
	const char *why = term_reason(set, code);

	(void)k;
	hv_vuart_flush();
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
			     (unsigned long long)hv->exit_msr,
			     (unsigned long long)v->ghcb_gpa[vmpl],
			     (unsigned long long)sw[0],
			     (unsigned long long)sw[1],
			     (unsigned long long)sw[2]);
		} else {
			mlog("  GHCB MSR %llx, registered GHCB %llx: not a "
			     "shared page, not read",
			     (unsigned long long)hv->exit_msr,
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
	const struct hv_vcpu *hv = hv_vcpu_this();

	(void)k;
	if (n <= LIES_LOGGED) {
		mlog("hypervisor lies (%s) to vCPU %u VMPL%u: %s",
		     hv_mode_name(mode), hv->index, hv->exit_vmpl, what);
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
	hv_vcpus_init(n);
	for (i = 0; i < n; i++) {
		kvm_vcpus[i].index = i;
		kvm_vcpus[i].apic_id = hv_vcpu_at(i)->apic_id;
		hv_vcpu_at(i)->kvm = &kvm_vcpus[i];
	}
	psp_set_fault(mode_psp[m]);
	hv_apic_init(n);
	hv_io_init();
	hv_vblk_init(); /* after hv_io_init: bus mastering is off */
	hv_kvmclock_init();
	lie = mode_kvm[m];
	lie_when = mode_when[m];
	for (i = 0; i < n; i++) {
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

/* A run-time mode's lie for an exit from @vmpl on @v: told to the SVSM
 * (VMPL0) once the guest has made its first exit (HV_RUN_SVSM), or to
 * the guest only (HV_RUN_GUEST); the log says when it starts. */
static enum kvm_behaviour run_time_lie(const struct hv_vcpu *v, unsigned vmpl)
{
	if (vmpl != 0 &&
	    !__atomic_exchange_n(&guest_ran, true, __ATOMIC_RELAXED)) {
		mlog("hypervisor: vCPU %u VMPL%u made the guest's first "
		     "exit; %s is told to %s from now on",
		     v->index, vmpl, hv_mode_name(mode),
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

/* VMGEXIT: the model answers through the GHCB MSR (loaded at the VMPL's
 * next VMRUN) and the GHCB page. */
static void exit_vmgexit(struct hv_vcpu *v, unsigned vmpl,
			 const struct world_exit *e)
{
	struct kvm *k = &kvm[v->index];

	v->exit_vmpl = vmpl;
	v->exit_msr = e->ghcb_msr;
	if (lie_when != HV_BOOT) {
		k->behaviour = run_time_lie(v, vmpl);
	}
	v->ctl[vmpl].ghcb_msr = kvm_vmgexit(k, v->kvm, vmpl, e->ghcb_msr);
}

/*
 * The machine's tick, before the APIC is asked for an interrupt: while
 * the guest listens for COM1's received data, the UART is looked at
 * every SERIAL_POLL_MS (hv_vuart_poll), and every vCPU's physical timer
 * fires at least that often, halted or not, so one of them looks; then
 * the APIC's expired timers become pending.
 */
static void tick(struct hv_vcpu *v)
{
	uint64_t t =
		hv_vuart_rx_enabled() ? lapic_tsc_khz() * SERIAL_POLL_MS : 0;

	if (t != 0) {
		hv_vuart_poll(t);
	}
	hv_apic_poll(v, t);
}

/* The interrupt the vCPU's APIC would deliver now, -1 if none. */
static int apic_pending(struct hv_vcpu *v)
{
	tick(v);
	return hv_apic_pending(v);
}

/* HLT sleeps until an interrupt for the vCPU's APIC (VMPL1), or a new
 * VMSA or VMPL (any VMPL). */
static void exit_hlt(struct hv_vcpu *v, unsigned vmpl,
		     const struct world_exit *e)
{
	(void)e;
	if (vmpl == HV_APIC_VMPL && apic_pending(v) >= 0) {
		return;
	}
	v->halted = true;
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
	}
	/* A PSMASH may have split the 2 MiB around it. */
	rmp_commit(page & ~(SNP_PAGE_SIZE_2M - 1), ok ? SNP_PAGE_SIZE_2M : 0,
		   ok);
	return ok;
}

/* #NPF the hardware could not resolve: MMIO or an RMP violation. */
static void exit_npf(struct hv_vcpu *v, unsigned vmpl,
		     const struct world_exit *e)
{
	if (convert_on_fault(e->gpa)) {
		return; /* the access runs again */
	}
	if (vmpl == 0) {
		mlog("vCPU %u VMPL0: #NPF at %llx (error %llx): not RAM, or "
		     "the RMP refuses it",
		     v->index, (unsigned long long)e->gpa,
		     (unsigned long long)e->info1);
	}
	/* MMIO, or an access the RMP refuses: KVM's reserved-bit entries
	 * make the hardware raise #VC(NPF) for MMIO; an RMP violation is
	 * reflected the same way rather than hanging the vCPU. */
	world_vc_npf(v->hw, vmpl);
}

/* #NPF with SIZEM: smash the 2 MiB RMP entry that holds the page; the
 * instruction runs again. */
static void exit_sizem(struct hv_vcpu *v, unsigned vmpl,
		       const struct world_exit *e)
{
	bool ok;

	(void)v;
	(void)vmpl;
	rmp_lock();
	ok = rmp_hv_npf_sizem(&machine_rmp, e->gpa) == SNP_RET_SUCCESS;
	rmp_commit(e->gpa & ~(SNP_PAGE_SIZE_2M - 1), ok ? SNP_PAGE_SIZE_2M : 0,
		   false);
}

/* The guest wrote CR8 (a trap: the write is done): the local APIC's TPR
 * follows, as KVM's does. */
static void exit_cr8(struct hv_vcpu *v, unsigned vmpl,
		     const struct world_exit *e)
{
	uint64_t tpr = (e->cr8 & 0xFu) << 4;

	if (vmpl == HV_APIC_VMPL) {
		(void)hv_apic_msr(v, true, X2APIC_TPR, &tpr);
	}
}

/* A physical interrupt (the host took it), or the window opened: the
 * loop injects at the next turn. */
static void exit_intr(struct hv_vcpu *v, unsigned vmpl,
		      const struct world_exit *e)
{
	(void)v;
	(void)vmpl;
	(void)e;
}

/* A triple fault (the hardware logged where): QEMU stops the VM. */
static void exit_shutdown(struct hv_vcpu *v, unsigned vmpl,
			  const struct world_exit *e)
{
	(void)v;
	(void)vmpl;
	(void)e;
	world_report();
	machine_exit(MACHINE_EXIT_GUEST_SHUTDOWN);
}

/* VMRUN refused the VMSA (deleted, stopped with EFER.SVME clear,
 * running elsewhere): KVM stops running it; without its VMPL0 the VM is
 * over. */
static void exit_invalid(struct hv_vcpu *v, unsigned vmpl,
			 const struct world_exit *e)
{
	(void)e;
	if (vmpl == 0) {
		world_log_stop(v->hw, &v->ctl[0], 0, "VMPL0 VMSA cannot run");
		world_report();
		machine_exit(MACHINE_EXIT_GUEST_SHUTDOWN);
	}
	v->ctl[vmpl].vmsa_gpa = 0;
}

typedef void (*hv_exit_fn)(struct hv_vcpu *v, unsigned vmpl,
			   const struct world_exit *e);

/* The automatic exits, KVM's svm_exit_handlers[]. */
static const hv_exit_fn hv_exits[WORLD_EXIT_COUNT] = {
	[WORLD_EXIT_VMGEXIT] = exit_vmgexit,
	[WORLD_EXIT_HLT] = exit_hlt,
	[WORLD_EXIT_NPF] = exit_npf,
	[WORLD_EXIT_SIZEM] = exit_sizem,
	[WORLD_EXIT_CR8] = exit_cr8,
	[WORLD_EXIT_INTR] = exit_intr,
	[WORLD_EXIT_SHUTDOWN] = exit_shutdown,
	[WORLD_EXIT_INVALID] = exit_invalid,
};

/* Posts from other CPUs' AP Creation, each VMPL's: a new VMSA wakes the
 * vCPU. */
static void take_posts(struct hv_vcpu *v)
{
	struct ap_post got[MACHINE_VMPLS];
	unsigned vmpl;

	if (!ap_post_any(&v->posts)) {
		return;
	}
	spin_lock(&v->post_lock);
	ap_post_take(&v->posts, got);
	spin_unlock(&v->post_lock);
	for (vmpl = 0; vmpl < MACHINE_VMPLS; vmpl++) {
		if (!got[vmpl].taken) {
			continue;
		}
		world_new_vmsa(v->hw, &v->ctl[vmpl], vmpl, got[vmpl].vmsa);
		if (!got[vmpl].destroy) {
			v->halted = false;
			v->held = false;
		}
	}
}

/* Before VMPL1 runs: inject the APIC's highest pending interrupt if the
 * guest can take it now, else ask for the interrupt window (bhyve's
 * svm_inj_interrupts). */
static void inject(struct hv_vcpu *v, bool interruptible)
{
	struct world_ctl *ctl = &v->ctl[HV_APIC_VMPL];
	int vec = apic_pending(v);

	if (vec < 0) {
		return;
	}
	if (interruptible && world_inject_intr(v->hw, ctl, (unsigned)vec)) {
		hv_apic_accept(v, (unsigned)vec);
		return;
	}
	world_irq_window(v->hw, ctl);
}

static const char *state_name(const struct hv_vcpu *v)
{
	return v->held	   ? "held (AP waits for a VMSA)"
	       : v->halted ? "halted"
			   : "runnable";
}

void hv_vcpu_boot(uint64_t vmsa_gpa)
{
	struct hv_vcpu *v = hv_vcpu_this();

	v->ctl[0].vmsa_gpa = vmsa_gpa;
}

void hv_vcpu_run(void)
{
	struct hv_vcpu *v = hv_vcpu_this();

	world_vcpu_reset(v->hw);
	for (;;) {
		struct world_exit e;
		unsigned vmpl;
		bool irq_ok;

		take_posts(v);
		vmpl = v->vmpl;
		if (world_stop_asked(v->hw)) {
			world_answer_stop(v->hw, &v->ctl[vmpl], vmpl,
					  state_name(v));
		}
		if (v->ctl[vmpl].vmsa_gpa != 0 && v->halted && !v->held &&
		    vmpl == HV_APIC_VMPL && apic_pending(v) >= 0) {
			v->halted = false;
		}
		if (v->ctl[vmpl].vmsa_gpa == 0 || v->halted) {
			world_idle(v->hw, &v->posts);
			continue;
		}
		if (world_runnable(v->hw, &v->ctl[vmpl], vmpl, &irq_ok) &&
		    vmpl == HV_APIC_VMPL) {
			inject(v, irq_ok);
		}
		world_run(v->hw, &v->ctl[vmpl], vmpl, &e);
		MCHECK(e.code < WORLD_EXIT_COUNT);
		hv_exits[e.code](v, vmpl, &e);
		if (v->stop) {
			hv_stop(v->stop_status);
		}
		world_exit_done(v->hw, v->vmpl);
	}
}
