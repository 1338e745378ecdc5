/* SPDX-License-Identifier: MIT */
/*
 * csvsm-igvm --linux-entry startup_64: the kernel proper out of a
 * bzImage, as Linux's EFI stub has it (docs/linux.md): the compressed
 * payload the setup header names (payload_offset, payload_length at 0x248
 * and 0x24C, relative to the protected-mode part), decompressed on the
 * host (zstd, Debian's; gzip), parsed as the ELF64 vmlinux, its PT_LOAD
 * segments laid out at their p_paddr offsets from the first one. A
 * relocation table may trail the ELF (CONFIG_X86_NEED_RELOCS): it is
 * ignored, as the decompressor ignores it without KASLR. Every input is
 * untrusted: each bound is checked before use (test/unit/vmlinux_test.c,
 * test/fuzz/vmlinux.c).
 */
#ifndef TOOLS_IGVM_VMLINUX_H
#define TOOLS_IGVM_VMLINUX_H

#include <stddef.h>
#include <stdint.h>

#include "svsm/bzimage.h"

/* The most a payload may decompress to: the layout ends below 2 GiB, and
 * Debian's kernels are 60-70 MiB. */
#define VMLINUX_MAX_ELF (512u << 20)
/* The most a kernel may occupy from its first segment (1 GiB: the
 * kernel's own mapping, KERNEL_IMAGE_SIZE, is smaller). */
#define VMLINUX_MAX_SPAN 0x40000000ull
#define VMLINUX_MAX_SEGS 16u

/**
 * The compressed payload of the bzImage @bz (@len bytes, its header @h
 * from bzimage_parse): *@out, *@out_len inside @bz. NULL, or why there
 * is none (a header older than 2.08, a payload outside the file).
 */
const char *vmlinux_payload(const uint8_t *bz, size_t len,
			    const struct bzimage_hdr *h, const uint8_t **out,
			    size_t *out_len);

/**
 * Decompress a payload (@in, @len bytes) of at most @max bytes: zstd
 * (magic 28 b5 2f fd, the decompressed size appended as a little-endian
 * u32, Linux's size_append) or gzip (1f 8b, whose trailer's ISIZE is
 * the size). The whole input must be the stream, and the output exactly
 * the size it announces. *@out is malloc'ed (free() it), *@out_len its
 * length. NULL, or why not (another format is named and refused).
 */
const char *vmlinux_decompress(const uint8_t *in, size_t len, size_t max,
			       uint8_t **out, size_t *out_len);

struct vmlinux_segment {
	uint64_t paddr, memsz, filesz;
	const uint8_t *data; /* filesz bytes inside the ELF */
};

struct vmlinux {
	struct vmlinux_segment seg[VMLINUX_MAX_SEGS];
	unsigned nseg;
	uint64_t base;	    /* the first segment's p_paddr, 2 MiB aligned */
	uint64_t entry;	    /* e_entry - base: inside a segment's bytes */
	uint64_t image_len; /* max(p_paddr + p_filesz) - base */
	uint64_t span;	    /* max(p_paddr + p_memsz) - base, page-rounded */
};

/**
 * The ELF64 vmlinux (@elf, @len bytes; bytes past what its headers name
 * are ignored) as a loader places it: a little-endian x86-64 ET_EXEC
 * with standard header sizes; PT_LOAD segments (empty ones skipped)
 * with their file bytes inside @elf, p_filesz <= p_memsz, page-aligned
 * p_paddr (the first 2 MiB aligned: startup_64 runs anywhere its load
 * offset is a multiple of 2 MiB), ascending and disjoint, at most
 * VMLINUX_MAX_SEGS, ending below 4 GiB within VMLINUX_MAX_SPAN of the
 * first; e_entry inside one segment's file bytes. NULL, or what is
 * wrong.
 */
const char *vmlinux_parse(const uint8_t *elf, size_t len, struct vmlinux *v);

/**
 * The loaded image (@out, v->image_len bytes): each segment's file bytes
 * at p_paddr - base, zero between them.
 */
void vmlinux_flatten(const struct vmlinux *v, uint8_t *out);

/* The kernel proper of a bzImage, loaded: the bytes the image carries. */
struct vmlinux_image {
	uint8_t *bytes; /* len bytes, malloc'ed */
	size_t len;
	uint64_t span;	/* the memory it occupies (>= len), page-rounded */
	uint64_t entry; /* startup_64, from the image's start */
	uint64_t base;	/* the first segment's p_paddr */
};

/**
 * vmlinux_payload, vmlinux_decompress (at most VMLINUX_MAX_ELF),
 * vmlinux_parse and vmlinux_flatten in a row, for the bzImage @bz (@len
 * bytes, header @h): *@img, or why not (a message for the user).
 * csvsm-igvm build and pcrs both load the kernel this way.
 */
const char *vmlinux_load(const uint8_t *bz, size_t len,
			 const struct bzimage_hdr *h,
			 struct vmlinux_image *img);

/** Free what vmlinux_load() allocated (and zero @img). */
void vmlinux_image_free(struct vmlinux_image *img);

#endif /* TOOLS_IGVM_VMLINUX_H */
