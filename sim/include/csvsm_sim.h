/* SPDX-License-Identifier: MIT */
/*
 * csvsm_sim.h: the stable API of the simulated SEV-SNP machine.
 *
 * A machine is guest memory with a modelled RMP, N vCPUs, the csvsm SVSM at
 * VMPL0 and a hypervisor model that may be honest or hostile. The caller
 * plays the guest at its VMPL (1 by default): it reads and writes guest
 * memory (subject to RMP permissions, as a guest would be) and performs SVSM
 * calls exactly as Linux does: registers in, call_pending = 1 in its Calling
 * Area, VMGEXIT, then registers out and call_pending exchanged with 0.
 *
 * One machine exists at a time in a process (the SVSM it runs is a single
 * image with global state, as in firmware). Not thread-safe.
 */
#ifndef CSVSM_SIM_H
#define CSVSM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/kvm_behaviours.h"

struct csvsm_boot_params;

#ifdef __cplusplus
extern "C" {
#endif

#define SIM_MAX_VCPUS 64u

struct sim_machine;
struct vtpm_disk;

struct sim_config {
	uint64_t guest_mem_size;    /* bytes of guest RAM from GPA 0 (64 MiB) */
	unsigned vcpu_count;	    /* 1..SIM_MAX_VCPUS (1); APIC ID = index */
	uint64_t svsm_base;	    /* SVSM region, 2 MiB aligned (16 MiB) */
	uint64_t svsm_size;	    /* (4 MiB) */
	uint64_t guest_secrets_gpa; /* the guest's secrets page (8 MiB) */
	uint64_t guest_caa_gpa;	    /* the boot vCPU's first CA (8 MiB + 4K) */
	uint8_t guest_vmpl;	    /* 1..3 (1) */
	uint64_t sev_features;	    /* guest VMSA SEV_FEATURES (SNPActive) */
	bool rmp_2m;	 /* the hypervisor backs 2 MiB-aligned RAM with 2 MiB
			    RMP entries (false: 4 KiB entries everywhere) */
	uint64_t seed;	 /* for the PSP's VMPCKs and stale memory contents */
	int log_level;	 /* SVSM log threshold 1..5; 0: silent (default) */
	bool log_stderr; /* also print the SVSM log on stderr */
	bool abort_on_panic; /* abort() on an SVSM panic (for fuzzers) */
	bool vtpm; /* serve a vTPM (libtpms; manufacture + EK cost ~0.1 s) */
	/* With vtpm, on the sim platform (not snp_ghcb): the SVSM's block
	 * device for the vTPM's state (svsm/vtpm_store.h; the tests' RAM
	 * disk), NULL: none, the state is volatile. */
	const struct vtpm_disk *vtpm_disk;
	/* The SVSM runs as the snp platform (src/plat/snp/): booted by
	 * snp_boot() from boot parameters laid out as csvsm-igvm does,
	 * entered through snp_serve(), and talking to the hypervisor model
	 * only through the GHCB (console, guest requests, termination).
	 * Needs the snp platform linked (build/libcsvsm_sim_snp.a, as in
	 * csvsm-tests-snp), where it is the default; false there runs the
	 * snp platform's SVSM without a GHCB of its own (for tests that
	 * drive the GHCB client alone). build/libcsvsm_sim.a links the sim
	 * platform: sim_create() refuses true. */
	bool snp_ghcb;
	/* With snp_ghcb: a guest firmware volume the image launches at
	 * guest_fw_gpa (validated, measured, VMPL0 rights only, as the PSP
	 * leaves launched pages), plus the ranges its SEV metadata wants
	 * pre-validated; csvsm's boot parameters name the volume. */
	const uint8_t *guest_fw;
	uint64_t guest_fw_gpa, guest_fw_size;
	struct {
		uint64_t gpa, size;
	} guest_fw_launch[4];
	/* With guest_fw: CSVSM_GUEST_ENTRY_KERNEL makes it a kernel started
	 * at guest_kernel_rip on its page tables at guest_kernel_cr3. */
	uint32_t guest_entry_mode;
	uint64_t guest_kernel_rip, guest_kernel_cr3;
	/* With CSVSM_GUEST_ENTRY_LINUX: the layout csvsm-igvm --linux would
	 * write (its linux_* fields, entry, CR3 and guest pages are copied
	 * into the boot parameters; guest_secrets_gpa and guest_caa_gpa
	 * must agree with it), and the 4 KiB setup header copy, written
	 * into its launched page. The test launches the kernel, initrd
	 * and loader pages through guest_fw and guest_fw_launch. */
	const struct csvsm_boot_params *linux_layout;
	const uint8_t *linux_setup_hdr;
	/* The host's virtio-blk device (model/dev/, the SVSM's storage) in
	 * the first SVSM virtio-mmio slot, over a disk of vblk_sectors
	 * 512-byte sectors (0: no device). The disk is vblk_disk when not
	 * NULL (the caller's, vblk_sectors * 512 bytes, so it outlives the
	 * machine as a host's file would), else zeroed host memory. */
	uint64_t vblk_sectors;
	uint8_t *vblk_disk;
};

/** Registers of an SVSM call, in and out (58019 section 5). */
struct sim_regs {
	uint64_t rax;
	uint64_t rcx;
	uint64_t rdx;
	uint64_t r8;
	uint64_t r9;
};

enum sim_status {
	SIM_OK = 0,	  /* the call went through; regs hold the outputs */
	SIM_NOT_SERVED,	  /* call_pending was still set: the SVSM never ran */
	SIM_NOT_RUNNABLE, /* the hypervisor cannot run this vCPU's VMSA */
	SIM_GUEST_FAULT,  /* a guest access faulted (#NPF or #VC) */
	SIM_TERMINATED,	  /* the SVSM terminated the VM */
	SIM_BAD_ARG,	  /* a bad argument to this API */
};

/** How the hypervisor model behaves from now on. */
enum sim_hv_behaviour {
	SIM_HV_HONEST = 0,
	/** Ignore the guest's run-VMPL0 request: the SVSM never runs. */
	SIM_HV_REFUSE_RUN_VMPL,
	/** Enter VMPL0 when the guest did not ask: once after an interrupt
	 * exit with call_pending set, once after a VMGEXIT that was not a
	 * call; then serve the real call. */
	SIM_HV_SPURIOUS_ENTRY,
	/** Enter VMPL0 a second time after the SVSM answered a call. */
	SIM_HV_DOUBLE_ENTRY,
	/* The SVSM's SNP guest requests (attestation): */
	/** Answer every guest request BUSY, never passing it on. */
	SIM_HV_GREQ_BUSY,
	/** Refuse every guest request with a firmware error, unsent. */
	SIM_HV_GREQ_REFUSE,
	/** Pass requests on, but hand back the first response again. */
	SIM_HV_GREQ_REPLAY,
	/** Flip one ciphertext byte of every response. */
	SIM_HV_GREQ_CORRUPT,
	/** Report that the certificates need 8 pages (INVALID_LEN). */
	SIM_HV_GREQ_CERTS_TOO_BIG,
	/** INVALID_LEN claiming 100 bytes, which would fit. */
	SIM_HV_GREQ_CERTS_LIE,
	/** A host CPU racing the SVSM: right after VMPL0 validates a page
	 * or range, the host PSMASHes it (if its entry is 2 MiB) and makes
	 * its last 4 KiB page shared, before the SVSM can zero it. */
	SIM_HV_SHARE_AFTER_VALIDATE,
	/** A host CPU racing the SVSM: right after VMPL0's RMPADJUST
	 * clears a page's VMSA bit, the host makes the page shared. */
	SIM_HV_SHARE_AFTER_VMSA_CLEARED,
	/** A host CPU racing the SVSM (say on another vCPU's page-state
	 * change): right before VMPL0's RMPADJUST grants a guest VMPL access,
	 * the host makes the range's last 4 KiB page shared, PSMASHing a
	 * 2 MiB entry first as KVM does. */
	SIM_HV_SHARE_BEFORE_GRANT,
};

/*
 * The hypervisor as the snp platform's GHCB client meets it (KVM's side
 * of the GHCB MSR and page protocols: model/kvm), honest or hostile.
 * SIM_GHCB_ID for each way the model lies (model/kvm_behaviours.h, which
 * says what each does), value for value the model's enum kvm_behaviour;
 * then the simulator's own.
 */
#define SIM_GHCB_BEHAVIOURS(X)                                                 \
	KVM_BEHAVIOURS(X)                                                      \
	X(FUZZ) /* every NAE reply is sim_ghcb_fuzz_reply()'s page */
#define SIM_GHCB_BEHAVIOUR_ENUM(id) SIM_GHCB_##id,
enum sim_ghcb_behaviour { SIM_GHCB_BEHAVIOURS(SIM_GHCB_BEHAVIOUR_ENUM) };
#undef SIM_GHCB_BEHAVIOUR_ENUM

struct sim_ghcb_stats {
	unsigned msr_calls, nae_calls, psc_calls, run_vmpl, ap_created;
	unsigned guest_requests, console_bytes;
	uint32_t last_wrmsr; /* WRMSR through the GHCB: MSR, value */
	uint64_t last_wrmsr_value;
	uint64_t doorbell_gpa;	/* the #HV doorbell page registered */
	uint32_t last_out_port; /* OUT to a port other than COM1 */
	uint32_t last_out_value;
	uint64_t registered_gpa;
	uint32_t ap_apic_id;
	uint64_t ap_vmsa_gpa, ap_info1;
	bool ap_vmsa_ok; /* the last AP's page was a VMSA in the RMP */
};

void sim_ghcb_set_behaviour(struct sim_machine *m, enum sim_ghcb_behaviour b);
/* What the model answers to RDMSR (any MSR) and IN (any port). */
#define SIM_GHCB_RDMSR(msr) (0x1122334455667788ull ^ (uint64_t)(msr))
#define SIM_GHCB_IN_VALUE 0xA5A5A5A5u

/**
 * Signal @events through the #HV doorbell (vector [7:0], NMI [8], MC
 * [9]) and deliver #HV to the SVSM, as the CPU would under Restricted
 * Injection. False if the SVSM terminated.
 */
bool sim_ghcb_inject_hv(struct sim_machine *m, uint16_t events);

/** From now on, answer every NAE event with @page and GHCB MSR @msr. */
void sim_ghcb_fuzz_reply(struct sim_machine *m, const void *page, size_t len,
			 uint64_t msr);
void sim_ghcb_get_stats(const struct sim_machine *m, struct sim_ghcb_stats *s);
/** The GHCB and #HV doorbell page vCPU @index's VMPL0 registered (0:
 * none; KVM keeps one of each per vCPU) and its run-VMPL requests. */
void sim_ghcb_cpu(struct sim_machine *m, unsigned index, uint64_t *ghcb_gpa,
		  uint64_t *doorbell_gpa, unsigned *run_vmpl);
/**
 * Run @fn as snp-platform code at VMPL0 (src/plat/snp/ over the seam
 * snp_hw.h). False if it ended in a termination request: *set, *code.
 */
bool sim_snp_run(struct sim_machine *m, void (*fn)(void *), void *arg,
		 uint32_t *set, uint32_t *code);
/** Was this machine's SVSM booted and is it entered the snp way, over its
 * own GHCB (config snp_ghcb)? */
bool sim_uses_snp_platform(const struct sim_machine *m);
/** MSR_AMD64_SEV as the snp code reads it (default SIM_SNP_SEV_STATUS:
 * SEV, SEV-ES, SNP, Restricted Injection). */
#define SIM_SNP_SEV_STATUS 0x27ull
void sim_snp_set_sev_status(struct sim_machine *m, uint64_t status);

/**
 * Answer the next @n SNP guest requests BUSY without passing them on (an
 * honest host whose PSP queue is full), then behave as set.
 */
void sim_hv_greq_busy_for(struct sim_machine *m, unsigned n);
/**
 * The TSC's rate as the hypervisor sets it, in percent of the true one
 * (on SNP without Secure TSC it may): a simulated wait of the SVSM's
 * (plat_delay_ns) moves the SVSM's clock by ns * @percent / 100; 0 is
 * a frozen clock, 100 (the default) an honest one.
 */
void sim_hv_set_clock_rate(struct sim_machine *m, unsigned percent);
/** How many request pages the hypervisor keeps a copy of. */
#define SIM_GREQ_LOG 64u
/**
 * The @i-th SNP guest request page (from 0, in the order the SVSM sent
 * them since the machine was made) as the hypervisor saw it. False if
 * there was no such request or it is past SIM_GREQ_LOG.
 */
bool sim_hv_greq_seen(const struct sim_machine *m, unsigned i,
		      uint8_t page[4096]);

/* How the emulated PSP misbehaves; values of enum psp_fault. */
void sim_psp_set_fault(struct sim_machine *m, int psp_fault);
/** Reports the PSP signed; the last request sequence number it took. */
uint32_t sim_psp_reports(const struct sim_machine *m);
uint64_t sim_psp_last_seqno(const struct sim_machine *m);
/** Make the PSP another chip (its 48-byte secret, the root of derived
 * keys) or the launch another image (its 48-byte MEASUREMENT); NULL
 * keeps either. For the sealing tests: the keys the SVSM derives next. */
void sim_psp_set_identity(struct sim_machine *m, const uint8_t *chip_secret,
			  const uint8_t *measurement);

struct sim_rmp_info {
	bool assigned; /* guest-owned (private); false: hypervisor-owned */
	bool validated;
	bool size_2m;
	bool vmsa;
	bool in_use;	  /* a VMSA some CPU is running */
	uint8_t perms[4]; /* per VMPL: bit0 R, bit1 W, bit2 X-user, bit3 X-super
			   */
};

struct sim_stats {
	uint64_t svsm_entries;	   /* times the hypervisor entered VMPL0 */
	uint64_t calls_served;	   /* entries that dispatched a call */
	uint64_t entries_declined; /* spurious or repeated entries ignored */
	uint64_t tlb_flushes;
	uint64_t guest_requests; /* SNP guest requests the SVSM made */
	uint64_t delays;	 /* plat_delay_ns() calls (simulated waits) */
	/* PVALIDATEs that went through the snp platform's instruction seam
	 * (snp_hw_pvalidate): always 0 with the sim platform linked. */
	uint64_t snp_pvalidates;
};

void sim_config_default(struct sim_config *cfg);
/** Build and boot a machine; NULL if the config is invalid, one already
 * exists, or the SVSM refused to boot. */
struct sim_machine *sim_create(const struct sim_config *cfg);
/** After sim_create() returned NULL: true if the SVSM terminated during
 * boot, with the reason it gave. */
bool sim_last_boot_failure(uint32_t *set, uint32_t *code);
void sim_destroy(struct sim_machine *m);

/** Perform one SVSM call on @vcpu. After a successful REMAP_CA the guest
 * model uses the new Calling Area for later calls, as Linux does. */
enum sim_status sim_call(struct sim_machine *m, unsigned vcpu,
			 struct sim_regs *regs);
/** sim_call() by a guest that writes @pending (not 1) into call_pending,
 * as a buggy or hostile guest may. */
enum sim_status sim_call_pending(struct sim_machine *m, unsigned vcpu,
				 struct sim_regs *regs, uint8_t pending);

/** The secrets page GPA the guest is given (its SVSM fields are filled). */
uint64_t sim_secrets_gpa(const struct sim_machine *m);
/** The CA GPA as the guest first sees it: the secrets page's SVSM_CAA for
 * vCPU 0; for an AP, the one given to sim_ap_create(). 0 also for a vCPU
 * that has none yet: sim_vcpu_has_caa() tells them apart. */
uint64_t sim_initial_caa_gpa(const struct sim_machine *m, unsigned vcpu);
/** The CA the guest model will use for its next call on @vcpu. */
uint64_t sim_current_caa_gpa(const struct sim_machine *m, unsigned vcpu);
bool sim_vcpu_has_caa(const struct sim_machine *m, unsigned vcpu);
uint64_t sim_svsm_base(const struct sim_machine *m);
uint64_t sim_svsm_size(const struct sim_machine *m);
uint64_t sim_guest_mem_size(const struct sim_machine *m);
unsigned sim_vcpu_count(const struct sim_machine *m);

/**
 * Run @fn(@arg) as SVSM code at VMPL0 on the boot CPU, outside a guest
 * call, as the linked platform runs it (the snp one over its GHCB). False
 * if it ended in a termination: its reason in *@set and *@code.
 */
bool sim_run_svsm(struct sim_machine *m, void (*fn)(void *), void *arg,
		  uint32_t *set, uint32_t *code);

/**
 * The host's virtio-blk device from now on: honestly, or with one lie
 * (an enum vblk_behaviour of model/virtio_blk.h). False if the machine
 * has none.
 */
bool sim_vblk_set_behaviour(struct sim_machine *m, int behaviour);
/**
 * Fuzzing the SVSM's driver: the device's answers perturbed by @script
 * from now on (vblk_set_script of model/virtio_blk.h; kept by pointer).
 * False if the machine has no device.
 */
bool sim_vblk_script(struct sim_machine *m, const uint8_t *script, size_t len);
/** The device's disk (vblk_sectors * 512 bytes), NULL if none. */
uint8_t *sim_vblk_disk(struct sim_machine *m);
/** Requests the device completed so far (0 if none). */
uint64_t sim_vblk_requests(const struct sim_machine *m);

/** Guest accesses at the guest VMPL, checked against the RMP as hardware
 * would: SIM_GUEST_FAULT when not validated, not assigned or not permitted. */
enum sim_status sim_mem_read(struct sim_machine *m, uint64_t gpa, void *buf,
			     size_t len);
enum sim_status sim_mem_write(struct sim_machine *m, uint64_t gpa,
			      const void *buf, size_t len);
/** An instruction fetch by the guest at supervisor level. */
enum sim_status sim_mem_exec(struct sim_machine *m, uint64_t gpa);

/** The model's RMP entry for @gpa; false if @gpa is outside guest RAM. */
bool sim_rmp_query(const struct sim_machine *m, uint64_t gpa,
		   struct sim_rmp_info *info);

/** The guest's own RMPADJUST and PVALIDATE at its VMPL; *eax is the
 * instruction's result once the hypervisor has resolved any #NPF(SIZEM)
 * (rmp_guest_rmpadjust()). PVALIDATE faults below VMPL0 (SIM_GUEST_FAULT). */
enum sim_status sim_guest_rmpadjust(struct sim_machine *m, uint64_t gpa,
				    bool size_2m, uint64_t attrs,
				    uint32_t *eax);
enum sim_status sim_guest_pvalidate(struct sim_machine *m, uint64_t gpa,
				    bool size_2m, bool validate, uint32_t *eax);

/* The hypervisor model. */
void sim_hv_set_behaviour(struct sim_machine *m, enum sim_hv_behaviour b);
/**
 * Run @fn(@m, @arg) once, inside the hypervisor, the next time the SVSM
 * sends a guest request and waits on the host for the PSP's answer: other
 * vCPUs' calls, served on other CPUs while this one's call waits (SMP),
 * made deterministic. @fn may sim_call() on vCPUs other than the waiting
 * one; on hardware that one's VMPL0 cannot be entered twice.
 */
void sim_hv_during_next_guest_request(struct sim_machine *m,
				      void (*fn)(struct sim_machine *, void *),
				      void *arg);
/**
 * Run @fn(@m, @arg) once, the next time SVSM code enters the linked
 * libraries (libtpms, libcrypto) without holding the ownership lock: other
 * vCPUs' calls, served on other CPUs while this one runs a TPM command
 * (SMP), made deterministic. @fn may sim_call() on other vCPUs.
 */
void sim_during_next_library_call(struct sim_machine *m,
				  void (*fn)(struct sim_machine *, void *),
				  void *arg);
/** Page State Change as an honest hypervisor performs it (RMPUPDATE):
 * to private (assigned, not validated, stale contents) or to shared. A
 * 4 KiB change inside a 2 MiB entry PSMASHes it first, as KVM does. */
enum sim_status sim_hv_page_state(struct sim_machine *m, uint64_t gpa,
				  bool size_2m, bool to_private);
/** PSMASH a 2 MiB RMP entry into 4 KiB entries. */
enum sim_status sim_hv_psmash(struct sim_machine *m, uint64_t gpa);
/** The guest's AP_CREATION request: run @vmsa_gpa as @vcpu's VMPL VMSA;
 * the guest model will use @caa_gpa as that vCPU's Calling Area. */
enum sim_status sim_ap_create(struct sim_machine *m, unsigned vcpu,
			      uint64_t vmsa_gpa, uint64_t caa_gpa);
/** Model another physical CPU running @vcpu's VMSA (its VMSA is in use). */
enum sim_status sim_vcpu_set_running(struct sim_machine *m, unsigned vcpu,
				     bool running);
/** The GPA of the VMSA the hypervisor runs for @vcpu (0: none). */
uint64_t sim_vmsa_gpa(const struct sim_machine *m, unsigned vcpu);
/** Copy @vcpu's current VMSA page (as the hardware holds it). */
enum sim_status sim_vmsa_read(const struct sim_machine *m, unsigned vcpu,
			      void *buf4k);

/**
 * The machine's security invariants: the SVSM has not terminated, no page
 * of the SVSM region is accessible at any guest VMPL, and no VMSA page is
 * writable at any guest VMPL. False with a reason in @why if one fails.
 */
bool sim_check_invariants(const struct sim_machine *m, char *why,
			  size_t why_len);

/** Fill a 4 KiB VMSA as Linux does for an AP it starts at the real-mode
 * trampoline (wakeup_cpu_via_vmgexit): EFER = SVME, the given VMPL and
 * SEV_FEATURES, CS at 0x9900:0, architectural defaults elsewhere. */
void sim_linux_ap_vmsa(void *vmsa4k, uint8_t vmpl, uint64_t sev_features);

void sim_get_stats(const struct sim_machine *m, struct sim_stats *stats);
/** True once the SVSM terminated the VM; *set and *code give the reason. */
bool sim_terminated(const struct sim_machine *m, uint32_t *set, uint32_t *code);
/** The SVSM's console output so far (NUL-terminated; oldest may be cut). */
const char *sim_console(const struct sim_machine *m);

#ifdef __cplusplus
}
#endif

/**
 * The Linux vTPM driver's side of one TPM command (tpm_svsm.c): the
 * request block (command 8, locality 0, size, bytes) written at
 * @block_gpa, an SVSM_VTPM_CMD call from @vcpu, the response read back.
 * *@result is the call's RAX; on SVSM_SUCCESS, *@rsp_len bytes of TPM
 * response are in @rsp. @block_gpa must be guest memory the guest may
 * write (validated).
 */
enum sim_status sim_vtpm_command(struct sim_machine *m, unsigned vcpu,
				 uint64_t block_gpa, const void *cmd,
				 uint32_t cmd_len, void *rsp, uint32_t rsp_max,
				 uint32_t *rsp_len, uint32_t *result);

/*
 * The Linux attestation client's side (arch/x86/coco/sev/svsm.c
 * snp_issue_svsm_attest_req, sev-guest.c sev_svsm_report_new): the request
 * in the Calling Area's buffer (RCX = CA + 8), RDX = R8 = -1 preset, a
 * 64-byte nonce at @nonce_gpa (Linux's is kmalloc'd, not page aligned),
 * report 4 KiB, manifest 4 KiB and certificates 16 KiB from @bufs_gpa (one
 * page-aligned allocation; 24 KiB the guest may write), and up to 3
 * retries with the lengths the SVSM reports after INVALID_PARAMETER.
 * @guid NULL: ATTEST_SERVICES. @no_certs: certificates length 0.
 */
struct sim_attest_result {
	uint32_t result;			      /* RAX of the last call */
	unsigned calls;				      /* 1 + retries */
	uint64_t manifest_len, certs_len, report_len; /* RCX, RDX, R8 */
	uint8_t report[1184];
	uint8_t manifest[4096];
	uint8_t certs[16384];
};

enum sim_status sim_attest(struct sim_machine *m, unsigned vcpu,
			   const uint8_t *guid, const uint8_t nonce[64],
			   uint64_t nonce_gpa, uint64_t bufs_gpa, bool no_certs,
			   struct sim_attest_result *out);

#endif /* CSVSM_SIM_H */
