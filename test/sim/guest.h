/* SPDX-License-Identifier: MIT */
/*
 * A Linux-like guest for simulator tests: it makes SVSM calls the way the
 * Linux client does (arch/x86/coco/sev/svsm.c, sev-shared.c) and checks the
 * machine's security invariants after them.
 */
#ifndef TEST_SIM_GUEST_H
#define TEST_SIM_GUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/snp.h"
#include "abi/svsm_call.h"

#include "csvsm_sim.h"

/** A machine destroyed automatically when the test ends. */
struct sim_machine *tm_create(const struct sim_config *cfg);
struct sim_machine *tm_default(unsigned vcpus);

/** Skip the test unless the build links the snp platform (csvsm-tests-snp:
 * sim_config.snp_ghcb is the default there, and refused elsewhere). */
void tm_need_snp(void);

/** One call; asserts the call went through (SIM_OK); returns RAX[31:0]. */
uint32_t g_call(struct sim_machine *m, unsigned vcpu, uint64_t rax,
		uint64_t rcx, uint64_t rdx, uint64_t r8, struct sim_regs *out);
#define CORE(call) SVSM_CALL(SVSM_PROTOCOL_CORE, (call))

/** A PVALIDATE list entry. */
uint64_t pv_entry(uint64_t gpa, bool size_2m, bool validate, bool ignore_cf);
/** Write a list (header + entries) at @list_gpa as the guest. */
void g_write_list(struct sim_machine *m, uint64_t list_gpa, uint16_t entries,
		  uint16_t next, const uint64_t *entry, unsigned count);
uint16_t g_read_next(struct sim_machine *m, uint64_t list_gpa);
/** PVALIDATE with the list in the current CA buffer; *next is written back
 * value. */
uint32_t g_pvalidate(struct sim_machine *m, unsigned vcpu,
		     const uint64_t *entry, unsigned count, uint16_t *next);
/** Validate (or invalidate) [gpa, gpa+len) in 4 KiB pages as Linux would,
 * 510 per call; asserts success. */
void g_pvalidate_range(struct sim_machine *m, unsigned vcpu, uint64_t gpa,
		       uint64_t len, bool validate);
/** Linux's svsm_pval_pages: 2 MiB entries, and on SIZEMISMATCH the
 * 4 KiB fallback for that entry. Returns the number of fallbacks. */
unsigned g_linux_pval_2m(struct sim_machine *m, unsigned vcpu, uint64_t gpa,
			 unsigned count_2m, bool validate);
/** A Linux AP VMSA (wakeup_cpu_via_vmgexit) written at @gpa. */
void g_write_ap_vmsa(struct sim_machine *m, uint64_t gpa, uint8_t vmpl,
		     uint64_t sev_features, uint64_t efer);
/** Validate the VMSA and CA pages, write the VMSA, CREATE_VCPU; returns
 * RAX. On success also performs AP_CREATION for @vcpu. */
uint32_t g_create_vcpu(struct sim_machine *m, unsigned caller, unsigned vcpu,
		       uint64_t vmsa_gpa, uint64_t caa_gpa);

/** The security invariants after any call: no SVSM-region page is
 * accessible at any guest VMPL, no VMSA page is guest-writable, the SVSM
 * did not terminate. */
void check_invariants(struct sim_machine *m);
/** Guest can read/write one byte at @gpa. */
bool g_can_read(struct sim_machine *m, uint64_t gpa);
bool g_can_write(struct sim_machine *m, uint64_t gpa);

#endif /* TEST_SIM_GUEST_H */
