/* SPDX-License-Identifier: MIT */
/*
 * The bzImage setup header, read strictly (svsm/bzimage.h). Facts from
 * Linux's Documentation/arch/x86/boot.rst: the header starts at 0x1F1,
 * ends at 0x202 plus the byte at 0x201 (the operand of the short jump at
 * 0x200), and a loader copies exactly that range into boot_params.
 */
#include "svsm/bzimage.h"

#include "svsm/le.h"
#include "svsm/std.h"

#include "abi/linux_boot.h"
#include "abi/snp.h"

#define JMP_SHORT 0xEBu
#define SECTOR 512u
#define DEFAULT_SETUP_SECTS 4u
#define PAGE SNP_PAGE_SIZE
#define MAX_ALIGN 0x40000000u
/* Past this boot_params holds other fields (edd_mbr_sig_buffer at
 * 0x290): a longer header would overwrite them. */
#define HDR_LIMIT 0x290u

const char *bzimage_parse(const uint8_t *buf, size_t len, struct bzimage_hdr *h)
{
	uint8_t sects;

	memset(h, 0, sizeof(*h));
	if (len < LINUX_HDR_MIN_END) {
		return "too short for a setup header";
	}
	if (le_get16(buf + LINUX_HDR_BOOT_FLAG) != LINUX_BOOT_FLAG ||
	    le_get32(buf + LINUX_HDR_HEADER) != LINUX_HDRS_MAGIC ||
	    buf[LINUX_HDR_JUMP] != JMP_SHORT) {
		return "no bzImage setup header (boot flag 0xAA55, \"HdrS\")";
	}
	h->hdr_end = (uint32_t)LINUX_HDR_HEADER + buf[LINUX_HDR_JUMP + 1];
	h->version = le_get16(buf + LINUX_HDR_VERSION);
	if (h->version < LINUX_HDR_VERSION_MIN) {
		return "boot protocol older than 2.12: no 64-bit entry point";
	}
	if (h->hdr_end < LINUX_HDR_MIN_END || h->hdr_end > HDR_LIMIT ||
	    h->hdr_end > len) {
		return "a setup header length outside 0x264..0x290";
	}
	sects = buf[LINUX_HDR_SETUP_SECTS];
	h->setup_size =
		((sects == 0 ? DEFAULT_SETUP_SECTS : sects) + 1u) * SECTOR;
	h->loadflags = buf[LINUX_HDR_LOADFLAGS];
	h->relocatable = buf[LINUX_HDR_RELOCATABLE];
	h->xloadflags = le_get16(buf + LINUX_HDR_XLOADFLAGS);
	h->kernel_version = le_get16(buf + LINUX_HDR_KERNEL_VERSION);
	h->syssize = le_get32(buf + LINUX_HDR_SYSSIZE);
	h->kernel_alignment = le_get32(buf + LINUX_HDR_KERNEL_ALIGNMENT);
	h->initrd_addr_max = le_get32(buf + LINUX_HDR_INITRD_ADDR_MAX);
	h->cmdline_size = le_get32(buf + LINUX_HDR_CMDLINE_SIZE);
	h->init_size = le_get32(buf + LINUX_HDR_INIT_SIZE);
	h->pref_address = le_get64(buf + LINUX_HDR_PREF_ADDRESS);
	if ((h->xloadflags & LINUX_XLF_KERNEL_64) == 0) {
		return "no 64-bit entry point (xloadflags XLF_KERNEL_64)";
	}
	if ((h->loadflags & LINUX_LOADFLAGS_LOADED_HIGH) == 0) {
		return "not a bzImage (loadflags LOADED_HIGH clear)";
	}
	if (h->kernel_alignment < PAGE || h->kernel_alignment > MAX_ALIGN ||
	    (h->kernel_alignment & (h->kernel_alignment - 1)) != 0) {
		return "kernel_alignment is not a power of two, 4 KiB to 1 GiB";
	}
	if (h->pref_address % PAGE != 0) {
		return "pref_address is not page aligned";
	}
	if (h->syssize == 0 || h->init_size == 0) {
		return "syssize or init_size is zero";
	}
	return NULL;
}

static bool is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

/* A decimal number of at most 4 digits at buf[*at], *at past it. */
static bool number(const uint8_t *buf, size_t end, size_t *at, unsigned *v)
{
	unsigned n = 0;

	*v = 0;
	while (*at < end && is_digit(buf[*at]) && n < 4) {
		*v = *v * 10 + (unsigned)(buf[*at] - '0');
		(*at)++;
		n++;
	}
	return n > 0 && (*at == end || !is_digit(buf[*at]));
}

const char *bzimage_release(const uint8_t *buf, size_t len,
			    const struct bzimage_hdr *h, unsigned *major,
			    unsigned *minor)
{
	size_t end = len < h->setup_size ? len : h->setup_size;
	size_t at;

	*major = *minor = 0;
	if (h->kernel_version == 0) {
		return "no kernel release string";
	}
	at = (size_t)h->kernel_version + 0x200u;
	if (at >= end) {
		return "the kernel release string is outside the setup code";
	}
	if (!number(buf, end, &at, major) || at >= end || buf[at] != '.') {
		return "the kernel release string is not MAJOR.MINOR...";
	}
	at++;
	if (!number(buf, end, &at, minor)) {
		return "the kernel release string is not MAJOR.MINOR...";
	}
	return NULL;
}
