/* SPDX-License-Identifier: MIT */
/*
 * QEMU's ACPI linker/loader (fw_cfg "etc/table-loader"), executed as
 * firmware executes it (QEMU hw/acpi/bios-linker-loader.c; SeaBIOS and
 * OVMF run the same script): a script of 128-byte commands that place
 * fw_cfg files in guest RAM (ALLOCATE), patch pointers between them
 * (ADD_POINTER) and fix ACPI checksums (ADD_CHECKSUM).
 *
 * Threat (T22): script and files come from the host. Every name is
 * bounded and NUL-terminated, every offset and size is checked against
 * the file it names, every allocation against the output region; a
 * script that breaks any rule loads nothing (the region is zeroed and no
 * RSDP is returned). What the tables say is the guest's to trust, as
 * with OVMF (docs/acpi.md).
 */
#ifndef SVSM_ACPI_LOADER_H
#define SVSM_ACPI_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One command (QEMU's BiosLinkerLoaderEntry): u32 command, 124 bytes. */
#define ACPI_LOADER_ENTRY_SIZE 128u
/* A fw_cfg file name: 56 bytes with its NUL (FW_CFG_MAX_FILE_PATH). */
#define ACPI_LOADER_NAME_SIZE 56u
/* Distinct files one script may allocate (QEMU uses 2 or 3). */
#define ACPI_LOADER_MAX_FILES 16u
/* Largest ALLOCATE alignment accepted (OVMF's limit: one page). */
#define ACPI_LOADER_MAX_ALIGN 4096u
/* The file whose allocation is the RSDP. */
#define ACPI_LOADER_RSDP_FILE "etc/acpi/rsdp"

#define ACPI_LOADER_CMD_ALLOCATE 1u
#define ACPI_LOADER_CMD_ADD_POINTER 2u
#define ACPI_LOADER_CMD_ADD_CHECKSUM 3u
#define ACPI_LOADER_CMD_WRITE_POINTER 4u
#define ACPI_LOADER_ZONE_HIGH 1u
#define ACPI_LOADER_ZONE_FSEG 2u

/*
 * Where the files come from: @fetch copies the whole fw_cfg file @name
 * (NUL-terminated, shorter than ACPI_LOADER_NAME_SIZE) into @dst and sets
 * *@len to its size; false if there is no such file or it is larger than
 * @max (then nothing of @dst beyond @max is touched).
 */
struct acpi_loader_ops {
	bool (*fetch)(void *ctx, const char *name, uint8_t *dst, size_t max,
		      size_t *len);
	void *ctx;
};

/* Output of one run: the RSDP's GPA and how much of the region is used. */
struct acpi_loader_result {
	uint64_t rsdp_gpa;
	size_t used; /* bytes from the region's start */
	unsigned files, pointers, checksums;
	unsigned write_pointers; /* ignored: see acpi_loader.c */
	unsigned unknown; /* commands skipped (0: padding, not counted) */
};

/**
 * Run @script (@script_len bytes, whole commands) with files from @ops,
 * allocating them in @out, the SVSM's view of the guest region of @size
 * bytes at @gpa (both zones: the guest is given the RSDP's address, it
 * never scans for it). NULL on success with @res filled; otherwise what
 * was wrong, @out is all zero and @res->rsdp_gpa is 0. The RSDP (the
 * allocation of ACPI_LOADER_RSDP_FILE) must be a valid ACPI RSDP
 * pointing into the region.
 */
const char *acpi_loader_run(const uint8_t *script, size_t script_len,
			    const struct acpi_loader_ops *ops, uint8_t *out,
			    uint64_t gpa, size_t size,
			    struct acpi_loader_result *res);

/** The 8-bit sum of @len bytes (an ACPI table sums to zero). */
uint8_t acpi_sum8(const uint8_t *p, size_t len);

#endif /* SVSM_ACPI_LOADER_H */
