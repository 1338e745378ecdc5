/* SPDX-License-Identifier: MIT */
/*
 * The IGVM file format (Independent Guest Virtual Machine, as published by
 * its maintainers in the igvm_defs crate, format version 1): a fixed
 * header, a variable header of 8-byte-aligned TLV structures, then file
 * data. Little-endian throughout. Only what csvsm builds, dumps, measures
 * and launches is defined; the reader (model/igvm_reader.h) still walks
 * every structure. An IGVM file is the host's: untrusted input.
 */
#ifndef ABI_IGVM_H
#define ABI_IGVM_H

#include <stdint.h>

#define IGVM_MAGIC 0x4D564749u /* "IGVM" */
#define IGVM_FORMAT_VERSION_1 1u
#define IGVM_PAGE 4096ull
/* The GPA KVM records every SNP VMSA at in the RMP and measures it at
 * (INITIAL_VMSA_GPA), the only VP_CONTEXT GPA QEMU accepts for SNP. */
#define IGVM_SNP_VMSA_GPA 0xFFFFFFFFF000ull

struct igvm_fixed_header {
	uint32_t magic;
	uint32_t format_version;
	uint32_t variable_header_offset;
	uint32_t variable_header_size;
	uint32_t total_file_size;
	uint32_t checksum; /* CRC32 of both headers, this field as zero */
};
_Static_assert(sizeof(struct igvm_fixed_header) == 24, "fixed header");

/* Variable header types: platform 0x1-0x100, init 0x101-0x200,
 * directives 0x301-0x400; bit 31 set: a loader may ignore it. */
enum igvm_vht {
	IGVM_VHT_SUPPORTED_PLATFORM = 0x1,
	IGVM_VHT_GUEST_POLICY = 0x101,
	IGVM_VHT_RELOCATABLE_REGION = 0x102,
	IGVM_VHT_PAGE_TABLE_RELOCATION_REGION = 0x103,
	IGVM_VHT_PARAMETER_AREA = 0x301,
	IGVM_VHT_PAGE_DATA = 0x302,
	IGVM_VHT_PARAMETER_INSERT = 0x303,
	IGVM_VHT_VP_CONTEXT = 0x304,
	IGVM_VHT_REQUIRED_MEMORY = 0x305,
	IGVM_VHT_VP_COUNT_PARAMETER = 0x307,
	IGVM_VHT_SRAT = 0x308,
	IGVM_VHT_MADT = 0x309,
	IGVM_VHT_MMIO_RANGES = 0x30A,
	IGVM_VHT_SNP_ID_BLOCK = 0x30B,
	IGVM_VHT_MEMORY_MAP = 0x30C,
	IGVM_VHT_ERROR_RANGE = 0x30D,
	IGVM_VHT_COMMAND_LINE = 0x30E,
	IGVM_VHT_SLIT = 0x30F,
	IGVM_VHT_PPTT = 0x310,
	IGVM_VHT_VBS_MEASUREMENT = 0x311,
	IGVM_VHT_DEVICE_TREE = 0x312,
	IGVM_VHT_ENVIRONMENT_INFO = 0x313,
};
#define IGVM_VHT_IGNORABLE 0x80000000u

struct igvm_vhs_header {
	uint32_t type;
	uint32_t length; /* of the content, not rounded */
};
_Static_assert(sizeof(struct igvm_vhs_header) == 8, "structure header");

#define IGVM_PLATFORM_NATIVE 0x00u
#define IGVM_PLATFORM_SEV_SNP 0x02u

struct igvm_supported_platform {
	uint32_t compatibility_mask;
	uint8_t highest_vtl;
	uint8_t platform_type;
	uint16_t platform_version;
	uint64_t shared_gpa_boundary;
};
_Static_assert(sizeof(struct igvm_supported_platform) == 16, "platform");

struct igvm_guest_policy {
	uint64_t policy;
	uint32_t compatibility_mask;
	uint32_t reserved;
};
_Static_assert(sizeof(struct igvm_guest_policy) == 16, "policy");

struct igvm_parameter_area {
	uint64_t number_of_bytes;
	uint32_t parameter_area_index;
	uint32_t file_offset;
};
_Static_assert(sizeof(struct igvm_parameter_area) == 16, "parameter area");

#define IGVM_PAGE_DATA_NORMAL 0x0u
#define IGVM_PAGE_DATA_SECRETS 0x1u
#define IGVM_PAGE_DATA_CPUID 0x2u
#define IGVM_PAGE_DATA_CPUID_XF 0x3u
#define IGVM_PAGE_FLAG_2MB 0x1u
#define IGVM_PAGE_FLAG_UNMEASURED 0x2u
#define IGVM_PAGE_FLAG_SHARED 0x4u

struct igvm_page_data {
	uint64_t gpa;
	uint32_t compatibility_mask;
	uint32_t file_offset; /* from the file's start; 0: a zero page */
	uint32_t flags;
	uint16_t data_type;
	uint16_t reserved;
};
_Static_assert(sizeof(struct igvm_page_data) == 24, "page data");

struct igvm_parameter_insert {
	uint64_t gpa;
	uint32_t compatibility_mask;
	uint32_t parameter_area_index;
};
_Static_assert(sizeof(struct igvm_parameter_insert) == 16, "insert");

struct igvm_parameter {
	uint32_t parameter_area_index;
	uint32_t byte_offset;
};
_Static_assert(sizeof(struct igvm_parameter) == 8, "parameter");

struct igvm_vp_context {
	uint64_t gpa; /* SEV-SNP: where the VMSA goes */
	uint32_t compatibility_mask;
	uint32_t file_offset; /* the VMSA, 4 KiB */
	uint16_t vp_index;
	uint16_t reserved;
} __attribute__((packed));
_Static_assert(sizeof(struct igvm_vp_context) == 20, "VP context");

struct igvm_required_memory {
	uint64_t gpa;
	uint32_t compatibility_mask;
	uint32_t number_of_bytes;
	uint32_t flags;
	uint32_t reserved;
};
_Static_assert(sizeof(struct igvm_required_memory) == 24, "required memory");

/* IGVM_VHT_MEMORY_MAP entries (IGVM_VHS_MEMORY_MAP_ENTRY), which the
 * loader writes into a parameter area: unmeasured. */
struct igvm_memory_map_entry {
	uint64_t starting_gpa_page_number;
	uint64_t number_of_pages;
	uint16_t entry_type;
	uint16_t flags;
	uint32_t reserved;
};
_Static_assert(sizeof(struct igvm_memory_map_entry) == 24, "map entry");
#define IGVM_MEMORY_MAP_MEMORY 0u

#endif /* ABI_IGVM_H */
