/* SPDX-License-Identifier: MIT */
/*
 * The snp platform's GHCB client: the guest side of AMD's GHCB
 * specification (56421; spec notes section 7) for the SVSM at VMPL0.
 * Threat: every reply comes from the hypervisor (T18). A reply is read
 * once, from a private copy; a reply that breaks the protocol terminates
 * the VM with a named reason (svsm/terminate.h), never silently used.
 */
#ifndef SNP_GHCB_H
#define SNP_GHCB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/addr.h"

#include "abi/ghcb.h"

/* --- MSR protocol (no GHCB page needed) --- */

/** Negotiate the GHCB version (2 is required); returns the C-bit. */
unsigned ghcb_msr_negotiate(void);
/** The hypervisor's features; SNP, AP creation and multi-VMPL required. */
uint64_t ghcb_msr_hv_features(void);
/** Register @gpa as this CPU's GHCB; the echoed GFN must match. */
void ghcb_msr_register(gpa_t gpa);
/** Page state change of one 4 KiB page. */
void ghcb_msr_psc(gpa_t gpa, bool to_private);
/** Run the guest's VMPL on this CPU (returns when it exits to VMPL0). */
void ghcb_msr_run_vmpl(unsigned vmpl);
void ghcb_msr_terminate(uint32_t set, uint32_t code) __attribute__((noreturn));
/* Class (b) on snp: the one door (svsm/terminate.h), through the MSR. */
#define SNP_TERMINATE_HV(reason, fmt, ...)                                     \
	terminate_hv_via(ghcb_msr_terminate, TERM_SET_CSVSM, (reason),         \
			 #reason, __func__, fmt, ##__VA_ARGS__)

/* --- GHCB page protocol, one page per CPU --- */

struct ghcb_cpu {
	uint8_t *page; /* the shared mapping: hostile after every VMGEXIT */
	gpa_t gpa;
	/* The private copy of the last reply's save area and valid bitmap
	 * (the shared buffer, when asked for, goes to ghcb_out.buf). */
	uint8_t reply[GHCB_SAVE_AREA_END];
};

/** Make @gpa shared, register it, map it (the CPU's boot sequence). */
void ghcb_cpu_init(struct ghcb_cpu *g, gpa_t gpa);

/* One NAE event's inputs and the reply fields the SVSM may use. */
struct ghcb_in {
	uint64_t exit_code, info1, info2;
	uint64_t rax, rbx, rcx, rdx, scratch;
	bool has_rax, has_rbx, has_rcx, has_rdx, has_scratch;
	const void *buf; /* copied to the shared buffer */
	size_t buf_len;
	bool want_buf; /* the reply's shared buffer is read (ghcb_out.buf) */
	/* An optional event the hypervisor may not serve: a MALFORMED result
	 * (2) comes back in ghcb_out.info1 instead of terminating. */
	bool may_refuse;
};

struct ghcb_out {
	uint64_t info1, info2, rax, rbx, rdx;
	bool has_rax, has_rbx, has_rdx; /* marked valid by the hypervisor */
	uint8_t buf[0x7F0]; /* the shared buffer, copied once: want_buf */
};

/**
 * One NAE event: the request clears the save area and valid bitmap (the
 * hypervisor reads only what is marked valid), the reply is copied out
 * of the shared page once (the save area; the shared buffer too if
 * @in->want_buf) and checked (GHCB MSR unchanged, exit_info_1 and _2
 * marked valid, result 0, or 2 if @in->may_refuse); anything else
 * terminates with TERM_CSVSM_GHCB_RESPONSE.
 */
void ghcb_call(struct ghcb_cpu *g, const struct ghcb_in *in,
	       struct ghcb_out *out);

/** Run VMPL @vmpl through the GHCB page (NAE 0x8000_0018). */
void ghcb_run_vmpl(struct ghcb_cpu *g, unsigned vmpl);

/**
 * Page state change of @count entries (GHCB_PSC_ENTRY) in batches, with
 * the hypervisor's progress checked: cur_entry never moves back, end
 * never changes, entries come back as sent, no error, progress made.
 */
void ghcb_psc(struct ghcb_cpu *g, const uint64_t *entries, unsigned count);

/**
 * Make guest pages private and validated: PSC, then PVALIDATE, which
 * fails if the hypervisor did not assign exactly these pages (a PSC
 * that lied); that terminates with TERM_CSVSM_PSC_FAILED.
 */
void snp_make_private(struct ghcb_cpu *g, gpa_t gpa, unsigned pages);
/** Rescind validation, then PSC to shared. */
void snp_make_shared(struct ghcb_cpu *g, gpa_t gpa, unsigned pages);

/** SNP AP creation of a VMSA at @vmpl (the SVSM's own CPUs: VMPL0). */
void ghcb_ap_create(struct ghcb_cpu *g, uint32_t apic_id, gpa_t vmsa,
		    unsigned vmpl, uint64_t sev_features);

/**
 * SNP (extended) guest request with shared pages @req and @rsp; with
 * @certs (shared, *pages long) an extended one. Returns exit_info_2;
 * on INVALID_LEN *pages is what the hypervisor says it needs.
 */
uint64_t ghcb_guest_request(struct ghcb_cpu *g, gpa_t req, gpa_t rsp,
			    gpa_t certs, uint64_t *pages);

/**
 * Port I/O of @size bytes (1, 2 or 4) through the GHCB (IOIO NAE, the
 * SVSM's own, never a guest's): OUT sends @val; IN returns the value,
 * and a reply without RAX marked valid terminates with
 * TERM_CSVSM_GHCB_RESPONSE. What an IN returns is the host's (T18).
 */
void ghcb_io_out(struct ghcb_cpu *g, uint16_t port, unsigned size,
		 uint32_t val);
uint32_t ghcb_io_in(struct ghcb_cpu *g, uint16_t port, unsigned size);
/**
 * String input of @count bytes (1..GHCB_SHARED_BUFFER_SIZE) from @port
 * into @dst: one IOIO event with STR and REP, the bytes in the GHCB's
 * shared buffer (its scratch area), as KVM serves `rep insb`. False,
 * with @dst untouched, if the hypervisor refuses string I/O.
 */
bool ghcb_io_ins8(struct ghcb_cpu *g, uint16_t port, uint8_t *dst,
		  size_t count);

/**
 * MMIO of @size bytes (1, 2 or 4) at @gpa through the GHCB (MMIO NAE
 * events; the SVSM's own devices, ghcb_mmio.c). False if the hypervisor
 * refused it (result 2); what a read returns is the host's (T18).
 */
bool ghcb_mmio_read(struct ghcb_cpu *g, gpa_t gpa, unsigned size,
		    uint32_t *val);
bool ghcb_mmio_write(struct ghcb_cpu *g, gpa_t gpa, unsigned size,
		     uint32_t val);

#endif /* SNP_GHCB_H */
