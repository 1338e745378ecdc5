/* SPDX-License-Identifier: MIT */
/*
 * csvsm-igvm --linux: a bzImage, an initrd and a command line laid out as
 * measured pages for the snp firmware's Linux loader
 * (CSVSM_GUEST_ENTRY_LINUX, abi/csvsm_boot.h; docs/linux.md). Guest
 * physical layout:
 *   0x70000   the loader's pages: zero page, setup_data and CC blob
 *             (both written by the SVSM), command line (these three e820
 *             RAM, as boot loaders place them; the rest reserved), GDT,
 *             the setup header copy, the guest's secrets page, CPUID page
 *             and Calling Area, a PML5, its page tables (the low
 *             4 GiB identity-mapped, private)
 *   1 MiB     256 KiB for ACPI tables (e820 ACPI; filled by the SVSM):
 *             q35's tables take 0x21000 bytes (docs/acpi.md), the rest is
 *             room for a TPM event log; above the legacy hole at 0xA0000
 *   kernel    the protected-mode part at max(pref_address, the SVSM
 *             region's end) rounded up to kernel_alignment; init_size
 *             bytes from there are the kernel's. With --linux-entry
 *             startup_64 the kernel proper instead (vmlinux.h): its
 *             segments from there at their p_paddr offsets, gaps zero;
 *             max(init_size, its span) bytes are the kernel's
 *   initrd    after that, 2 MiB aligned
 */
#ifndef TOOLS_IGVM_LINUX_IMAGE_H
#define TOOLS_IGVM_LINUX_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/bzimage.h"

#include "abi/csvsm_boot.h"

#include "identity_pt.h"
#include "igvm_write.h"
#include "vmlinux.h"

#define LINUX_LOADER_GPA 0x70000ull
#define LINUX_ACPI_GPA 0x100000ull
#define LINUX_ACPI_SIZE 0x40000ull
/* Everything the image places ends below this: the guest's page tables
 * map 4 GiB, and q35 keeps RAM below 2 GiB whatever the size. */
#define LINUX_LAYOUT_LIMIT 0x80000000ull

/* The loader's pages, in this order from LINUX_LOADER_GPA. */
enum {
	LINUX_P_ZERO_PAGE,
	LINUX_P_SETUP_DATA,
	LINUX_P_CMDLINE,
	LINUX_P_GDT,
	LINUX_P_SETUP_HDR,
	LINUX_P_SECRETS,
	LINUX_P_CPUID,
	LINUX_P_CAA,
	LINUX_P_PML5, /* over the PML4 that follows */
	LINUX_P_PT,   /* LINUX_PT_PAGES of them */
};
#define LINUX_PT_PAGES 6u
#define LINUX_LOADER_PAGES (LINUX_P_PT + LINUX_PT_PAGES)

struct linux_image {
	struct bzimage_hdr hdr;
	const uint8_t *kernel; /* the protected-mode part of the file, or */
	size_t kernel_len;
	struct vmlinux_image vmlinux; /* STARTUP_64: the kernel, loaded */
	uint8_t setup_hdr[4096]; /* the header at its boot_params offsets */
	uint8_t cmdline[4096];
	uint8_t gdt[4096];
	struct identity_pt pt;
	unsigned major, minor; /* the kernel's release */
};

/**
 * Lay out @bz (@bz_len bytes) with an initrd of @initrd_len bytes (0:
 * none) and @cmdline around the SVSM region [@svsm_base, @svsm_end) with
 * C-bit @cbit, entered at @entry (CSVSM_LINUX_ENTRY_*): fill @li and the
 * Linux fields of @params. NULL, or why the inputs cannot make an image
 * (a message for the user). linux_image_release() frees @li's buffers
 * either way.
 */
const char *linux_image_prepare(const uint8_t *bz, size_t bz_len,
				size_t initrd_len, const char *cmdline,
				uint64_t svsm_base, uint64_t svsm_end,
				unsigned cbit, unsigned entry,
				struct linux_image *li,
				struct csvsm_boot_params *params);

/** Free what linux_image_prepare() allocated in @li. */
void linux_image_release(struct linux_image *li);

/* What the command line names: --linux, --initrd, --cmdline, and
 * --linux-entry (CSVSM_LINUX_ENTRY_*). */
struct linux_args {
	const char *bz, *initrd, *cmdline;
	unsigned entry;
};

/**
 * The entry --linux-entry names (@name: "decompressor" or "startup_64")
 * in *@entry; false for any other name.
 */
bool linux_entry_parse(const char *name, unsigned *entry);

/**
 * --linux: read the files @a names, lay them out (linux_image_prepare)
 * and add their pages; false after a message on stderr naming the file
 * and the reason.
 */
bool linux_image_build(struct igvm_builder *b, const struct linux_args *a,
		       unsigned cbit, uint64_t svsm_base, uint64_t svsm_end,
		       struct csvsm_boot_params *params, uint32_t *zero_rel,
		       int *have_zero);

/** The layout, for csvsm-igvm's summary line (stdout). */
void linux_image_describe(const struct csvsm_boot_params *params);

/**
 * Add the pages linux_image_prepare() laid out: the kernel, the initrd
 * (@initrd, @initrd_len), the loader's pages (measured data, or zero or
 * host-filled pages the SVSM and the PSP fill).
 */
void linux_image_add(struct igvm_builder *b, const struct linux_image *li,
		     const uint8_t *initrd, size_t initrd_len,
		     const struct csvsm_boot_params *params, uint32_t *zero_rel,
		     int *have_zero);

/**
 * NULL if @buf (@len bytes) looks like an initrd Linux can unpack: a
 * cpio archive ("070701", "070702") or one compressed with gzip, bzip2,
 * xz, lzma, lz4 or zstd; else why not.
 */
const char *linux_initrd_check(const uint8_t *buf, size_t len);

#endif /* TOOLS_IGVM_LINUX_IMAGE_H */
