/* SPDX-License-Identifier: MIT */
/*
 * The GHCB: MSR protocol values and the GHCB page fields the SVSM and its
 * platforms use (AMD 56421; Linux sev-common.h and struct ghcb; spec file
 * svsm-interfaces.md section 7).
 */
#ifndef ABI_GHCB_H
#define ABI_GHCB_H

#include <stdbool.h>
#include <stdint.h>

/* MSR protocol: GHCBInfo is bits [11:0]. */
#define GHCB_MSR_SEV_INFO_RESP 0x001ull
#define GHCB_MSR_SEV_INFO_REQ 0x002ull
#define GHCB_MSR_CPUID_REQ 0x004ull
#define GHCB_MSR_CPUID_RESP 0x005ull
#define GHCB_MSR_PREF_GPA_REQ 0x010ull
#define GHCB_MSR_PREF_GPA_RESP 0x011ull
#define GHCB_MSR_REG_GPA_REQ 0x012ull
#define GHCB_MSR_REG_GPA_RESP 0x013ull
#define GHCB_MSR_PSC_REQ 0x014ull
#define GHCB_MSR_PSC_RESP 0x015ull
#define GHCB_MSR_RUN_VMPL_REQ 0x016ull
#define GHCB_MSR_RUN_VMPL_RESP 0x017ull
#define GHCB_MSR_HV_FT_REQ 0x080ull
#define GHCB_MSR_HV_FT_RESP 0x081ull
#define GHCB_MSR_TERM_REQ 0x100ull

#define GHCB_MSR 0xC0010130u
#define GHCB_MSR_INFO_MASK 0xFFFull
#define GHCB_MSR_INFO(v) ((v)&GHCB_MSR_INFO_MASK)
#define GHCB_MSR_DATA(v) ((v) >> 12)
/* SEV info response: [63:48] max, [47:32] min version, [31:24] C-bit. */
#define GHCB_SEV_INFO_MAX(v) (((v) >> 48) & 0xFFFFull)
#define GHCB_SEV_INFO_MIN(v) (((v) >> 32) & 0xFFFFull)
#define GHCB_SEV_INFO_CBIT(v) (((v) >> 24) & 0xFFull)
#define GHCB_MSR_SEV_INFO(max, min, cbit)                                      \
	(GHCB_MSR_SEV_INFO_RESP | (((uint64_t)(max)&0xFFFF) << 48) |           \
	 (((uint64_t)(min)&0xFFFF) << 32) | (((uint64_t)(cbit)&0xFF) << 24))
/* PSC request: [51:12] GFN, [55:52] operation; response [63:32] error. */
#define GHCB_MSR_PSC(gfn, op)                                                  \
	(GHCB_MSR_PSC_REQ | ((uint64_t)(gfn) << 12) | ((uint64_t)(op) << 52))
#define GHCB_MSR_PSC_GFN(v) (((v) >> 12) & GHCB_GFN_MASK)
#define GHCB_MSR_PSC_OP(v) (((v) >> 52) & 0xFull)
/* The PSC and Run VMPL responses' [63:32]: 0 done, else an error. */
#define GHCB_MSR_RESP_ERROR(v) ((v) >> 32)
#define GHCB_MSR_RESP(resp, err) ((resp) | ((uint64_t)(uint32_t)(err) << 32))
/* Run VMPL request: [39:32] target VMPL; response [63:32] error. */
#define GHCB_MSR_RUN_VMPL(vmpl)                                                \
	(GHCB_MSR_RUN_VMPL_REQ | ((uint64_t)(vmpl) << 32))
#define GHCB_MSR_RUN_VMPL_TARGET(v) (((v) >> 32) & 0xFFull)
/* Termination: [15:12] reason set, [23:16] reason code. */
#define GHCB_MSR_TERM(set, code)                                               \
	(GHCB_MSR_TERM_REQ | (((uint64_t)(set)&0xF) << 12) |                   \
	 (((uint64_t)(code)&0xFF) << 16))
#define GHCB_MSR_TERM_SET(v) (((v) >> 12) & 0xFull)
#define GHCB_MSR_TERM_CODE(v) (((v) >> 16) & 0xFFull)
#define GHCB_GFN_MASK 0xFFFFFFFFFFull /* 40 bits */
/* CPUID request: [63:32] function, [31:30] register (0 EAX .. 3 EDX);
 * response [63:32] the value. Preferred GPA response: GFN all-ones, none. */
#define GHCB_MSR_CPUID_REG(v) (((v) >> 30) & 0x3ull)
#define GHCB_MSR_CPUID_LEAF(v) ((uint32_t)((v) >> 32))
#define GHCB_MSR_CPUID(leaf, reg)                                              \
	(GHCB_MSR_CPUID_REQ | ((uint64_t)(reg) << 30) |                        \
	 ((uint64_t)(leaf) << 32))
#define GHCB_MSR_PREF_GPA_NONE 0xFFFFFFFFFFFFFull

#define GHCB_PROTOCOL_MIN 1ull
#define GHCB_PROTOCOL_MAX 2ull
#define GHCB_PSC_OP_PRIVATE 1u
#define GHCB_PSC_OP_SHARED 2u

/* Hypervisor feature bits (MSR 0x080 response [63:12]). */
#define GHCB_HV_FT_SNP (1ull << 0)
#define GHCB_HV_FT_SNP_AP_CREATION (1ull << 1)
#define GHCB_HV_FT_APIC_ID_LIST (1ull << 4) /* the Get APIC IDs event */
#define GHCB_HV_FT_SNP_MULTI_VMPL (1ull << 5)

/* GHCB page offsets. */
#define GHCB_OFF_RAX 0x1F8u
#define GHCB_OFF_RCX 0x308u
#define GHCB_OFF_RDX 0x310u
#define GHCB_OFF_RBX 0x318u
#define GHCB_OFF_SW_EXIT_CODE 0x390u
#define GHCB_OFF_SW_EXIT_INFO_1 0x398u
#define GHCB_OFF_SW_EXIT_INFO_2 0x3A0u
#define GHCB_OFF_SW_SCRATCH 0x3A8u
#define GHCB_OFF_XCR0 0x3E8u
#define GHCB_OFF_VALID_BITMAP 0x3F0u
#define GHCB_SAVE_AREA_END 0x400u /* the save area and valid bitmap */
#define GHCB_OFF_PROTOCOL_VERSION 0xFFAu
#define GHCB_OFF_USAGE 0xFFCu
#define GHCB_OFF_SHARED_BUFFER 0x800u
#define GHCB_SHARED_BUFFER_SIZE 0x7F0u
#define GHCB_PAGE_SIZE 4096u
#define GHCB_USAGE_STANDARD 0u
#define GHCB_VERSION_SNP 2u

/* A field's valid bit: offset / 8, in a 128-bit little-endian bitmap. */
#define GHCB_VALID_BIT(off) ((off) / 8u)

/* Mark or test the valid bit of the field at @off in a GHCB page. */
static inline void ghcb_page_set_valid(uint8_t *page, unsigned off)
{
	page[GHCB_OFF_VALID_BITMAP + GHCB_VALID_BIT(off) / 8] |=
		(uint8_t)(1u << (GHCB_VALID_BIT(off) % 8));
}

static inline bool ghcb_page_is_valid(const uint8_t *page, unsigned off)
{
	return ((page[GHCB_OFF_VALID_BITMAP + GHCB_VALID_BIT(off) / 8] >>
		 (GHCB_VALID_BIT(off) % 8)) &
		1u) != 0;
}

/* NAE events (sw_exit_code): the SVM exit codes #VC reports, then the
 * SNP ones. */
#define SVM_EXIT_CPUID 0x72ull
#define SVM_EXIT_IOIO 0x7Bull
#define SVM_EXIT_MSR 0x7Cull
/* IOIO exit_info_1: [0] IN, [4..6] 8/16/32-bit operand, [7..9] address
 * size 16/32/64, [31:16] port (APM vol. 2 15.10.2). */
#define SVM_IOIO_TYPE_IN 0x1ull
#define SVM_IOIO_STR (1ull << 2)
#define SVM_IOIO_REP (1ull << 3)
#define SVM_IOIO_SZ8 (1ull << 4)
#define SVM_IOIO_SZ16 (1ull << 5)
#define SVM_IOIO_SZ32 (1ull << 6)
#define SVM_IOIO_A16 (1ull << 7)
#define SVM_IOIO_PORT_SHIFT 16u
/* The exit_info_1 of an IN (@in != 0) or OUT of operand size @sz (one
 * of SVM_IOIO_SZ*) at 16-bit port @port: the one encoding every IOIO the
 * SVSM makes uses. */
#define SVM_IOIO_INFO1(port, sz, in)                                           \
	(((uint64_t)(uint16_t)(port) << SVM_IOIO_PORT_SHIFT) | (sz) |          \
	 SVM_IOIO_A16 | ((in) ? SVM_IOIO_TYPE_IN : 0))
#define SVM_VMGEXIT_MMIO_READ 0x80000001ull
#define SVM_VMGEXIT_MMIO_WRITE 0x80000002ull
#define SVM_VMGEXIT_NMI_COMPLETE 0x80000003ull
#define SVM_VMGEXIT_AP_HLT_LOOP 0x80000004ull
#define SVM_VMGEXIT_PSC 0x80000010ull
#define SVM_VMGEXIT_GUEST_REQUEST 0x80000011ull
#define SVM_VMGEXIT_EXT_GUEST_REQUEST 0x80000012ull
#define SVM_VMGEXIT_AP_CREATION 0x80000013ull
#define SVM_VMGEXIT_HV_DOORBELL 0x80000014ull
#define SVM_VMGEXIT_HV_DOORBELL_GET_PREF 0ull
#define SVM_VMGEXIT_HV_DOORBELL_SET 1ull
#define SVM_VMGEXIT_HV_DOORBELL_QUERY 2ull
#define SVM_VMGEXIT_HV_DOORBELL_CLEAR 3ull
/* Get APIC IDs: RAX the pages at the GPA exit_info_1, filled with
 * the GHCB_APIC_IDS_* list below; too few, RAX becomes the pages needed. */
#define SVM_VMGEXIT_GET_APIC_IDS 0x80000017ull
#define SVM_VMGEXIT_SNP_RUN_VMPL 0x80000018ull
#define SVM_VMGEXIT_HV_FEATURES 0x8000FFFDull
#define SVM_VMGEXIT_TERM_REQUEST 0x8000FFFEull

/* sw_exit_info_1 results. */
#define GHCB_RESULT_OK 0ull
#define GHCB_RESULT_EXCEPTION 1ull /* inject exit_info_2 (EVENTINJ) */
#define GHCB_RESULT_MALFORMED 2ull
/* sw_exit_info_2 with GHCB_RESULT_MALFORMED. */
#define GHCB_ERR_NOT_REGISTERED 1ull
#define GHCB_ERR_INVALID_USAGE 2ull
#define GHCB_ERR_INVALID_SCRATCH 3ull
#define GHCB_ERR_MISSING_INPUT 4ull
#define GHCB_ERR_INVALID_INPUT 5ull
#define GHCB_ERR_INVALID_EVENT 6ull
/* EVENTINJ for result 1 (APM vol. 2 15.20): vector [7:0], type [10:8]
 * (3 = exception), error code valid [11], valid [31]. */
#define SVM_EVTINJ_VEC_GP 13ull
#define SVM_EVTINJ_TYPE_EXEPT (3ull << 8)
#define SVM_EVTINJ_VALID (1ull << 31)

/* Guest request exit_info_2 [63:32]: the VMM's error (Linux
 * SNP_GUEST_VMM_ERR_*); INVALID_LEN puts the pages needed in RBX. */
#define SNP_GUEST_VMM_ERR_INVALID_LEN 1u
#define SNP_GUEST_VMM_ERR_BUSY 2u

/* #HV doorbell page (GHCB 56421 2.x; Linux struct hvdb): u16 pending
 * events at 0 = vector [7:0], NMI [8], MC [9], no further signal [15]
 * (unverified against the spec text; Linux's layout). */
#define HVDB_VECTOR_MASK 0x00FFu
#define HVDB_NMI (1u << 8)
#define HVDB_MC (1u << 9)
#define HVDB_NO_FURTHER_SIGNAL (1u << 15)

/* AP creation: exit_info_1 [31:0] request, [19:16] VMPL, [63:32] APIC ID. */
#define SVM_VMGEXIT_AP_CREATE_ON_INIT 0ull
#define SVM_VMGEXIT_AP_CREATE 1ull
#define SVM_VMGEXIT_AP_DESTROY 2ull
#define SVM_VMGEXIT_AP_VMPL_SHIFT 16u
#define SVM_VMGEXIT_AP_VMPL_MASK (0xFull << SVM_VMGEXIT_AP_VMPL_SHIFT)

/* Get APIC IDs buffer (edk2 GHCB_APIC_IDS): u32 count, then the u32 APIC
 * IDs, the BSP's first (edk2's MpInitLib takes entry 0 for the BSP). */
#define GHCB_APIC_IDS_HDR_SIZE 4u
#define GHCB_APIC_IDS_ENTRY_SIZE 4u

/* PSC buffer (spec notes 7.4): 8-byte header, then u64 entries. */
#define GHCB_PSC_HDR_SIZE 8u
#define GHCB_PSC_MAX_ENTRIES 253u
#define GHCB_PSC_ENTRY(gfn, op, big)                                           \
	((((uint64_t)(gfn)&GHCB_GFN_MASK) << 12) | ((uint64_t)(op) << 52) |    \
	 ((uint64_t)((big) ? 1 : 0) << 56))
#define GHCB_PSC_ENTRY_CUR_PAGE(e) ((e)&0xFFFull)
#define GHCB_PSC_ENTRY_GFN(e) (((e) >> 12) & GHCB_GFN_MASK)
#define GHCB_PSC_ENTRY_OP(e) (((e) >> 52) & 0xFull)
#define GHCB_PSC_ENTRY_2M(e) (((e) >> 56) & 1ull)
#define GHCB_PSC_ENTRY_RSVD(e) ((e) >> 57)

_Static_assert((GHCB_SHARED_BUFFER_SIZE - GHCB_PSC_HDR_SIZE) / 8 ==
		       GHCB_PSC_MAX_ENTRIES,
	       "spec notes 7.4: 253 entries fit the shared buffer");

#endif /* ABI_GHCB_H */
