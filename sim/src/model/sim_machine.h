/* SPDX-License-Identifier: MIT */
/*
 * The simulated machine (sim/src/model): guest memory and its RMP, the
 * CPU at VMPL0, the PSP, the hypervisor (an adapter over model/kvm) and
 * the host's devices. The platforms' seams (sim_hw.h on sim, snp_hw.h on
 * snp; the CPU's clock and entropy of plat.h on both) and the harness
 * (sim/src/harness) call into it. It never calls the harness: the
 * harness's part of a machine (its jump contexts, the tests' hooks) is
 * data it is handed. Of the SVSM above the seams it asks one thing:
 * whether this CPU holds the ownership lock (cpu.c: a test's replay of
 * another CPU's calls runs only where this one has left it).
 */
#ifndef SIM_MACHINE_H
#define SIM_MACHINE_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/addr.h"

#include "model/kvm.h"
#include "model/psp_model.h"
#include "model/snpmodel.h"
#include "model/virtio_blk.h"

#include "csvsm_sim.h"

#define SIM_CONSOLE_SIZE 65536u

struct sim_vcpu {
	uint64_t vmsa_gpa; /* what the hypervisor runs at the guest VMPL */
	uint64_t caa_gpa;  /* the guest model's current Calling Area */
	bool has_caa;	   /* GPA 0 is a valid CA: no sentinel */
	uint64_t initial_caa_gpa;
	bool running; /* another CPU is running it */
};

/* Which code callgrind counts in benchmark builds (bench/). */
enum sim_bench_scope {
	SIM_BENCH_OFF = 0,
	SIM_BENCH_SVSM,	 /* SVSM instructions, not the model's */
	SIM_BENCH_MODEL, /* the model's instructions only */
};

struct sim_machine {
	struct sim_config cfg;
	uint8_t *mem;
	struct rmp rmp;
	struct rmp_entry *rmp_entries;
	struct sim_vcpu vcpu[SIM_MAX_VCPUS];
	enum sim_hv_behaviour hv;
	uint64_t secrets_gpa;
	uint64_t rng;
	struct sim_stats stats;
	bool terminated;
	uint32_t term_set;
	uint32_t term_code;
	jmp_buf *svsm_jmp; /* set while SVSM code runs */
	char console[SIM_CONSOLE_SIZE];
	size_t console_len;
	/* The snp platform's hypervisor: model/kvm, adapted by ghcb_hv.c. */
	enum sim_ghcb_behaviour ghcb_hv;
	struct kvm kvm;
	struct kvm_vcpu
		*kvm_vcpus; /* cfg.vcpu_count of them, APIC ID = index */
	uint64_t ghcb_msr;
	struct sim_ghcb_stats ghcb; /* the devices' part (console, ports) */
	jmp_buf *snp_jmp;
	uint32_t snp_term_set, snp_term_code;
	uint64_t snp_sev_status; /* MSR_AMD64_SEV as snp code reads it */
	struct snp_cpu *snp_cpu; /* the snp code's CPU (snp_hw_this_cpu) */
	/* The current vCPU's GHCB MSR and CPU are the fields above, the
	 * others wait here (sim_snp_switch_cpu); KVM's own per-vCPU state
	 * is kvm_vcpus[]. */
	struct sim_snp_cpu {
		uint64_t ghcb_msr;
		struct snp_cpu *cpu;
	} snp_cpus[SIM_MAX_VCPUS];
	unsigned snp_current;
	uint8_t ghcb_fuzz_reply[4096]; /* SIM_GHCB_FUZZ's reply page */
	uint64_t ghcb_fuzz_msr;
	struct psp_model psp;
	bool psp_measured;
	uint8_t greq_first_rsp[4096]; /* SIM_HV_GREQ_REPLAY's old answer */
	bool greq_have_first;
	unsigned entry_cpu; /* the vCPU whose VMPL0 runs (plat_cpu_self) */
	/* sim_hv_during_next_guest_request(): run once, then cleared. */
	void (*greq_hook)(struct sim_machine *m, void *arg);
	void *greq_hook_arg;
	/* sim_during_next_library_call(): run once, then cleared. */
	void (*lib_hook)(struct sim_machine *m, void *arg);
	void *lib_hook_arg;
	unsigned greq_busy_left; /* sim_hv_greq_busy_for() */
	/* The request pages the hypervisor saw, the first SIM_GREQ_LOG. */
	uint8_t (*greq_log)[4096];
	uint64_t clock_waited_ns; /* plat_delay_ns() on sim */
	unsigned clock_rate_pct;  /* sim_hv_set_clock_rate(); 100 honest */
	enum sim_bench_scope bench_scope;
	bool bench_collecting;
	/* The host's virtio-blk device (cfg.vblk_sectors != 0). */
	struct vblk *vblk;
	uint8_t *vblk_disk;
	bool vblk_disk_owned;
};

/** The live machine, or NULL. */
struct sim_machine *sim_current(void);
/** The live machine, for the SVSM's seams: there is one whenever SVSM
 * code runs, or the harness is wrong (abort). */
struct sim_machine *sim_live(void);
/** The VM ends with the SVSM's termination (@set, @code): back to the
 * harness's SVSM entry or run (m->svsm_jmp; none is a harness bug). */
void sim_vm_end(struct sim_machine *m, uint32_t set, uint32_t code)
	__attribute__((noreturn));
/** Make @m (or none) the live machine: sim_machine_new's and _free's. */
void sim_set_current(struct sim_machine *m);
/**
 * A new machine for the checked configuration @cfg, launched (its RMP and
 * the PSP's pages as the PSP leaves them, nothing of the SVSM run yet)
 * and the live one; NULL if another is live or memory is short.
 */
struct sim_machine *sim_machine_new(const struct sim_config *cfg);
/** Free @m; it is no longer the live machine. */
void sim_machine_free(struct sim_machine *m);
/** Guest-side RMP-checked access at the guest VMPL. */
bool sim_guest_access(struct sim_machine *m, uint64_t gpa, uint64_t len,
		      unsigned perm);
uint64_t sim_rng_next(struct sim_machine *m);
/** Can the hypervisor run @vcpu at the guest VMPL (VMRUN would succeed)? */
bool sim_vcpu_runnable(struct sim_machine *m, unsigned vcpu);
/** The exit with @exit_code: hardware saves @regs into @vcpu's VMSA. */
void sim_vcpu_exit(struct sim_machine *m, unsigned vcpu,
		   const struct sim_regs *regs, uint64_t exit_code);
/** The next VMRUN of @vcpu: hardware loads @regs from its VMSA. */
void sim_vcpu_resume(struct sim_machine *m, unsigned vcpu,
		     struct sim_regs *regs);
/** Set up the machine's KVM model (ghcb_hv.c); false: no memory. */
bool sim_kvm_init(struct sim_machine *m);
void sim_kvm_free(struct sim_machine *m);
/** Make vCPU @index's VMPL0 the one the GHCB model serves. */
void sim_snp_switch_cpu(struct sim_machine *m, unsigned index);
/** The hypervisor's SNP guest request (plat_guest_request on sim). */
uint64_t sim_hv_guest_request(struct sim_machine *m, const void *req, void *rsp,
			      void *certs, size_t *certs_len);
void sim_fill_stale(struct sim_machine *m, uint64_t gpa, uint64_t len);
/** What the host does right after VMPL0's PVALIDATE of @gpa returned @rc
 * (SIM_HV_SHARE_AFTER_VALIDATE). */
void sim_hv_after_pvalidate(struct sim_machine *m, uint64_t gpa, bool size_2m,
			    bool validate, uint32_t rc, bool unchanged);
/** What the host does right before VMPL0's RMPADJUST of @gpa with @attrs
 * (SIM_HV_SHARE_BEFORE_GRANT). */
void sim_hv_before_rmpadjust(struct sim_machine *m, uint64_t gpa, bool size_2m,
			     uint64_t attrs);
/** What the host does right after VMPL0's RMPADJUST of the 4 KiB page at
 * @gpa, which was a VMSA before it (SIM_HV_SHARE_AFTER_VMSA_CLEARED). */
void sim_hv_after_rmpadjust(struct sim_machine *m, uint64_t gpa, bool was_vmsa);

/*
 * The CPU at VMPL0 (cpu.c), for either linked platform: its
 * PVALIDATE and RMPADJUST on the RMP model (with the hypervisor's races
 * around them), the RMP check of its private accesses to guest memory,
 * and the point where the SVSM enters its libraries.
 */
enum snp_ret sim_cpu_pvalidate(struct sim_machine *m, uint64_t gpa,
			       bool size_2m, bool validate, bool *unchanged);
enum snp_ret sim_cpu_rmpadjust(struct sim_machine *m, uint64_t gpa,
			       bool size_2m, uint64_t attrs);
bool sim_cpu_can_access(struct sim_machine *m, uint64_t gpa, size_t len);
void sim_cpu_library_call(struct sim_machine *m);

/*
 * The host's devices (vblk_sim.c): its virtio-blk device, and the MMIO
 * both platforms reach it by (plat_mmio_* on sim, the KVM model's MMIO
 * events on snp): @len (1..8) bytes at @gpa; outside a device reads all
 * ones, as an unassigned address does.
 */
bool sim_vblk_init(struct sim_machine *m);
void sim_vblk_free(struct sim_machine *m);
void sim_hv_mmio(struct sim_machine *m, uint64_t gpa, unsigned len, bool write,
		 uint8_t data[8]);
/** The host's side of making @pages SVSM pages at @gpa shared (the sim
 * platform's plat_shared_alloc; validation is rescinded already). */
void sim_hv_share(struct sim_machine *m, uint64_t gpa, unsigned pages);

/* Benchmark scoping (callgrind collection), a no-op when scope is OFF. */
void sim_bench_set_scope(struct sim_machine *m, enum sim_bench_scope s);
void sim_bench_svsm_begin(struct sim_machine *m);
void sim_bench_svsm_end(struct sim_machine *m);
void sim_bench_model_begin(struct sim_machine *m);
void sim_bench_model_end(struct sim_machine *m);

#endif /* SIM_MACHINE_H */
