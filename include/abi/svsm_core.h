/* SPDX-License-Identifier: MIT */
/*
 * Core protocol memory-passed parameters: the PVALIDATE, DEPOSIT_MEM and
 * WITHDRAW_MEM lists, QUERY_PROTOCOL and CONFIGURE_VTOM register fields.
 * AMD publication 58019 rev 1.00, section 6, Tables 6, 7 and 8.
 * Entry bit fields use masks and shifts, not C bit-fields.
 */
#ifndef ABI_SVSM_CORE_H
#define ABI_SVSM_CORE_H

#include <stddef.h>
#include <stdint.h>

/* A list header shared by PVALIDATE (Table 6) and DEPOSIT_MEM (Table 7). */
struct svsm_list_hdr {
	uint16_t entries;  /* 0x0: number of entries, at least 1 */
	uint16_t next;	   /* 0x2: next entry to process (Linux: cur_index) */
	uint32_t reserved; /* 0x4 */
};

_Static_assert(sizeof(struct svsm_list_hdr) == 8,
	       "58019 Tables 6 and 7: list header is 8 bytes");
_Static_assert(offsetof(struct svsm_list_hdr, next) == 2,
	       "58019 Table 6: next entry index at offset 0x2");

/* Lists are 8-byte aligned and may not cross a 4 KiB page (58019 6.2). */
#define SVSM_LIST_ALIGN 8u
#define SVSM_LIST_ENTRY_SIZE 8u

/* PVALIDATE entry (58019 Table 6; Linux struct svsm_pvalidate_entry). */
#define PVALIDATE_ENTRY_SIZE_MASK 0x3ull       /* [1:0] 0 = 4K, 1 = 2M */
#define PVALIDATE_ENTRY_ACTION_VALIDATE 0x4ull /* [2] 1 validate */
#define PVALIDATE_ENTRY_IGNORE_CF 0x8ull       /* [3] */
#define PVALIDATE_ENTRY_RESERVED_MASK 0xFF0ull /* [11:4] */
#define PVALIDATE_ENTRY_GFN_SHIFT 12u	       /* [63:12] */

/* DEPOSIT_MEM entry (58019 Table 7). */
#define DEPOSIT_ENTRY_SIZE_MASK 0x3ull	     /* [1:0] 0 = 4K, 1 = 2M */
#define DEPOSIT_ENTRY_RESERVED_MASK 0xFFCull /* [11:2] */
#define DEPOSIT_ENTRY_GFN_SHIFT 12u	     /* [63:12] */

/* Entry page-size encodings shared by both lists. */
#define SVSM_ENTRY_SIZE_4K 0u
#define SVSM_ENTRY_SIZE_2M 1u

/*
 * WITHDRAW_MEM output area (58019 Table 8): u16 entries written by the SVSM,
 * six unused bytes, then u64 page GPAs. csvsm returns a page deposited as
 * 2 MiB as one entry with bit 0 set (the DEPOSIT_MEM size encoding); see
 * docs/protocols/core.md.
 */
struct svsm_withdraw_hdr {
	uint16_t entries;
	uint8_t unused[6];
};

_Static_assert(sizeof(struct svsm_withdraw_hdr) == 8,
	       "58019 Table 8: withdraw list header is 8 bytes");

#define WITHDRAW_ENTRY_SIZE_2M 0x1ull

/* QUERY_PROTOCOL: RCX[63:32] protocol, RCX[31:0] version (58019 6.7). */
#define QUERY_PROTOCOL_RESULT(min, max)                                        \
	((((uint64_t)(max)) << 32) | (uint64_t)(uint32_t)(min))

/* CONFIGURE_VTOM RCX (58019 6.8). */
#define VTOM_RCX_QUERY 0x1ull		/* [0] 1 query, 0 configure */
#define VTOM_RCX_ENABLE 0x2ull		/* [1] enable vTOM */
#define VTOM_RCX_SET_CR3 0x4ull		/* [2] VMSA.CR3 = RDX */
#define VTOM_RCX_SET_RIP 0x8ull		/* [3] VMSA.RIP = R8 */
#define VTOM_RCX_SET_RSP 0x10ull	/* [4] VMSA.RSP = R9 */
#define VTOM_RCX_RESERVED_MASK 0xFE0ull /* [11:5] must be 0 */
#define VTOM_RCX_VALUE_MASK (~0xFFFull) /* [63:12] vTOM */
#define VTOM_QUERY_SUPPORTED 0x2ull	/* query out RCX[1] */
#define VTOM_QUERY_ALIGN_SHIFT 12u	/* query out RCX[19:12] log2 */

#endif /* ABI_SVSM_CORE_H */
