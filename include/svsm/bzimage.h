/* SPDX-License-Identifier: MIT */
/*
 * A bzImage's setup header (Linux's x86 boot protocol, abi/linux_boot.h),
 * read strictly: csvsm-igvm reads it from the file it is given, the snp
 * firmware again from the measured copy in the image. Either way every
 * field is checked before use; nothing here trusts the bytes.
 */
#ifndef SVSM_BZIMAGE_H
#define SVSM_BZIMAGE_H

#include <stddef.h>
#include <stdint.h>

struct bzimage_hdr {
	uint32_t hdr_end;    /* one past the header: 0x202 + byte 0x201 */
	uint32_t setup_size; /* the real-mode part: (setup_sects + 1) * 512 */
	uint16_t version;
	uint8_t loadflags;
	uint8_t relocatable;
	uint16_t xloadflags;
	uint16_t kernel_version; /* the release string at +0x200, 0: none */
	uint32_t syssize;	 /* 16-byte units */
	uint32_t kernel_alignment;
	uint32_t initrd_addr_max;
	uint32_t cmdline_size; /* without the NUL */
	uint32_t init_size;
	uint64_t pref_address;
};

/**
 * The setup header from the first @len bytes of a bzImage (or of its copy
 * with the header at the same offsets): boot flag 0xAA55, "HdrS", the
 * jump over the header, version 2.12 or later, a 64-bit entry point
 * (XLF_KERNEL_64), loaded high, a power-of-two kernel alignment of 4 KiB
 * to 1 GiB, a page-aligned preferred address, nonzero syssize and
 * init_size, a header that fits in boot_params. NULL, or what is wrong.
 */
const char *bzimage_parse(const uint8_t *buf, size_t len,
			  struct bzimage_hdr *h);

/**
 * The kernel release ("6.12.95+deb12-amd64 ...") the header points to in
 * the real-mode part of the whole file (@buf, @len): its major and minor
 * numbers. NULL, or why there is none.
 */
const char *bzimage_release(const uint8_t *buf, size_t len,
			    const struct bzimage_hdr *h, unsigned *major,
			    unsigned *minor);

#endif /* SVSM_BZIMAGE_H */
