/* SPDX-License-Identifier: MIT */
/*
 * GHCB termination reasons the SVSM uses (AMD 56421 section 4.1.13: the MSR
 * termination request carries [15:12] reason set and [23:16] reason code).
 * Set 0 is the GHCB general set; csvsm's own reasons live in set 3.
 */
#ifndef SVSM_TERMINATE_H
#define SVSM_TERMINATE_H

#include <stdint.h>

#define TERM_SET_GENERAL 0u
#define TERM_GENERAL 0u
#define TERM_PROTOCOL_UNSUPPORTED 1u
#define TERM_SNP_FEATURES_UNSUPPORTED 2u

#define TERM_SET_CSVSM 3u
/** A broken internal invariant (CHECK or panic). */
#define TERM_CSVSM_PANIC 0u
/** Boot information from the loader is inconsistent. */
#define TERM_CSVSM_BAD_BOOT_INFO 1u
/** An RMP instruction failed on memory the SVSM owns. */
#define TERM_CSVSM_RMP_FAILURE 2u
/** The SVSM could not allocate memory it needs to boot. */
#define TERM_CSVSM_NO_MEMORY 3u
/**
 * A response to the SVSM's own SNP guest message failed its checks (tag,
 * sequence number, type, size): the hypervisor tampered with the channel
 * to the PSP. VMPCK0 is wiped before terminating.
 */
#define TERM_CSVSM_GUEST_MSG_TAMPERED 4u
/**
 * snp: a GHCB or MSR-protocol reply broke the protocol (a wrong response
 * code or echo, a missing valid bit, a result the request cannot have).
 */
#define TERM_CSVSM_GHCB_RESPONSE 5u
/** snp: a page-state change was not done as the hypervisor reported. */
#define TERM_CSVSM_PSC_FAILED 6u
/** snp: the hypervisor refused to run the guest's VMPL. */
#define TERM_CSVSM_RUN_VMPL_REFUSED 7u
/** snp: the SVSM is not running at VMPL0 (RMPADJUST boot check). */
#define TERM_CSVSM_NOT_VMPL0 8u
/** snp: a #VC for an instruction the SVSM never executes (or decodes). */
#define TERM_CSVSM_UNEXPECTED_VC 9u
/**
 * snp: an event (interrupt, NMI, machine check) was signalled through the
 * #HV doorbell: under Restricted Injection the SVSM asks for none.
 */
#define TERM_CSVSM_UNEXPECTED_EVENT 10u
/**
 * snp: the host's memory map cannot hold the measured Linux layout (the
 * loader's pages, the SVSM region, the kernel's init_size, the initrd or
 * low memory not RAM; more e820 entries than Linux takes).
 */
#define TERM_CSVSM_LINUX_MEMORY_MAP 11u
/**
 * The SVSM's own storage device (svsm/blockdev.h) broke the virtio
 * protocol: a used ring index, id or length no honest device gives, a
 * status byte that is not OK, IOERR or UNSUPP, a request never completed,
 * a configuration that never settles, or an MMIO access it stopped
 * serving after it was found.
 */
#define TERM_CSVSM_DEVICE_PROTOCOL 12u

/**
 * Class (b), the one door: the hypervisor misbehaved. Logs at NOTICE the
 * reason's name, set and code, the function that saw it and the message,
 * then ends the VM through @term. Core code uses TERMINATE_HV
 * (plat_terminate); the snp platform passes its GHCB MSR termination
 * request, which works before its platform is ready.
 */
void terminate_hv_via(void (*term)(uint32_t set, uint32_t code), uint32_t set,
		      uint32_t code, const char *name, const char *func,
		      const char *fmt, ...)
	__attribute__((noreturn, format(printf, 6, 7)));

/* The reason is stringified here, so pass a TERM_* name, not a variable. */
#define TERMINATE_HV_VIA(term, set, reason, fmt, ...)                          \
	terminate_hv_via((term), (set), (reason), #reason, __func__, fmt,      \
			 ##__VA_ARGS__)
/** A csvsm reason (set 3) through plat_terminate (svsm/plat.h). */
#define TERMINATE_HV(reason, fmt, ...)                                         \
	terminate_hv_via(plat_terminate, TERM_SET_CSVSM, (reason), #reason,    \
			 __func__, fmt, ##__VA_ARGS__)

#endif /* SVSM_TERMINATE_H */
