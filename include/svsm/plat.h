/* SPDX-License-Identifier: MIT */
/*
 * The platform seam: the only operations that differ between snp (real
 * hardware), emu (QEMU with a software RMP) and sim (a hosted model). Each
 * platform implements every function here, with strong symbols; core code
 * calls nothing platform-specific except through this header.
 */
#ifndef SVSM_PLAT_H
#define SVSM_PLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/addr.h"

/**
 * Execute PVALIDATE at VMPL0 on the guest page at @gpa.
 * Returns the instruction's EAX (SNP_RET_*); *unchanged is rFLAGS.CF, set
 * when the Validated bit already had the requested value. A fault is
 * reported as SNP_RET_FAIL_INPUT.
 */
enum snp_ret plat_pvalidate(gpa_t gpa, enum page_size size, bool validate,
			    bool *unchanged);

/**
 * Execute RMPADJUST at VMPL0 on @gpa with RDX = @attrs (target VMPL,
 * permission mask, VMSA bit). Returns EAX (SNP_RET_*); faults are
 * SNP_RET_FAIL_INPUT.
 */
enum snp_ret plat_rmpadjust(gpa_t gpa, enum page_size size, uint64_t attrs);

/**
 * The executing CPU, as a token: distinct for every CPU that runs SVSM
 * code, the same for as long as it runs. Only compared, never followed
 * (the ownership lock's holder, svsm/owner_lock.h).
 */
const void *plat_cpu_self(void);

/** Flush guest TLB entries after permissions were reduced. */
void plat_flush_guest_tlb(void);

/*
 * Fault-tolerant VMPL0 accesses to guest-private memory. Only guestmem.c
 * calls these; they return false instead of faulting when the page is not
 * validated or not assigned to the guest.
 */
bool plat_guest_read(gpa_t gpa, void *dst, size_t len);
bool plat_guest_write(gpa_t gpa, const void *src, size_t len);
bool plat_guest_zero(gpa_t gpa, size_t len);
/** Atomically exchange one byte of guest memory (call_pending). */
bool plat_guest_xchg_u8(gpa_t gpa, uint8_t val, uint8_t *old);

/**
 * Map SVSM-owned memory (the SVSM region, VMSA pages the SVSM has claimed)
 * into the SVSM address space. Callers guarantee ownership; the mapping is
 * valid until plat_unmap_private().
 */
void *plat_map_private(gpa_t gpa, size_t len);
void plat_unmap_private(void *va, size_t len);

void plat_console_write(const char *s, size_t len);

/**
 * Fill @buf from the CPU's random number generator (RDRAND on emu and snp;
 * the host's getrandom on sim). False if the source kept failing: callers
 * fail their request, never fall back to weaker randomness.
 */
bool plat_entropy(void *buf, size_t len);

/**
 * A monotonic nanosecond count from an arbitrary start. Not trusted for
 * wall time; on emu the rate is the TSC's, approximately.
 */
uint64_t plat_clock_ns(void);

/**
 * Wait about @ns nanoseconds of plat_clock_ns() (a spin: the SVSM has no
 * scheduler). On sim the wait is simulated: plat_clock_ns() jumps by @ns
 * at once, so tests of timeouts are deterministic. Like the clock it
 * reads, the wait may be lengthened or shortened by whoever controls the
 * TSC (on snp, the hypervisor): callers must stay correct for any length
 * and bound their loops by a count as well as by time.
 */
void plat_delay_ns(uint64_t ns);

/*
 * Bracket code that uses x87/SSE/AVX registers (the linked libraries; the
 * SVSM's own code is general-register only). Where the SVSM shares those
 * registers with its guest (emu: SVM does not switch them), begin saves
 * the guest's state and loads the initial state, end restores the guest's.
 * Brackets do not nest; callers are serialised (the vTPM lock).
 */
void plat_simd_begin(void);
void plat_simd_end(void);

/* exit_info_2 [63:32] of a guest request: the hypervisor's own errors
 * (GHCB 56421 4.1.8; Linux SNP_GUEST_VMM_ERR_*). [31:0] is the PSP's. */
#define PLAT_GREQ_VMM_INVALID_LEN 1u
#define PLAT_GREQ_VMM_BUSY 2u

/**
 * Send one SNP guest message (a 4 KiB page, already encrypted) to the PSP
 * and receive its response: through the hypervisor's guest request on
 * snp, to the emulated PSP (model/psp_model.h) on emu and sim. @req and
 * @rsp are SVSM memory; the platform copies through the shared pages the
 * hypervisor sees, so @rsp is the SVSM's one copy of a hostile response.
 * With @certs non-NULL the request is extended: at most *certs_len bytes
 * of the host's certificate table go to @certs and *certs_len becomes the
 * host's length. Returns exit_info_2 (0 on success).
 */
uint64_t plat_guest_request(const void *req, void *rsp, void *certs,
			    size_t *certs_len);

/*
 * The SVSM's own devices (its storage, svsm/blockdev.h, src/dev/): MMIO
 * to a device the host serves at @gpa, never RAM (on snp the GHCB's MMIO
 * events, on sim the simulator's host), and pages shared with the host
 * for the devices' DMA. What a read returns is the host's (T18).
 */
/**
 * Read @size (1, 2 or 4) bytes of MMIO at @gpa into *@val. False if the
 * host refused the access (on snp, a GHCB result of 2): no device.
 */
bool plat_mmio_read(gpa_t gpa, unsigned size, uint32_t *val);
/** Write @size (1, 2 or 4) bytes of @val to MMIO at @gpa; false: refused. */
bool plat_mmio_write(gpa_t gpa, unsigned size, uint32_t val);
/**
 * 2^@order (at least 1) contiguous SVSM pages made shared with the host,
 * zeroed, for a device's rings and buffers: their mapping, and their GPA
 * in *@gpa. They stay shared for good (never freed: whatever they held
 * is the host's). NULL if the heap has no such block. A host that does
 * not convert them terminates the SVSM (TERM_CSVSM_PSC_FAILED).
 */
void *plat_shared_alloc(unsigned order, gpa_t *gpa);

/** Ask the hypervisor to terminate the VM with a GHCB reason set and code. */
void plat_terminate(uint32_t reason_set, uint32_t reason_code)
	__attribute__((noreturn));

#endif /* SVSM_PLAT_H */
