/* SPDX-License-Identifier: MIT */
/*
 * What the guest's fw_cfg items are (hv_fwcfg.h, second half): pure
 * functions over QEMU's bytes, no machine state, so that the unit test
 * (test/unit/emu_hv_devices_test.c) builds this file hosted.
 */
#include "svsm/std.h"

#include "hv_fwcfg.h"

/* Linux's x86 boot protocol (Documentation/arch/x86/boot.rst). */
#define BZ_SETUP_SECTS 0x1F1u
#define BZ_BOOT_FLAG 0x1FEu
#define BZ_HEADER 0x202u
#define BZ_VERSION 0x206u
#define BZ_LOADFLAGS 0x211u
#define BZ_INITRD_ADDR_MAX 0x22Cu
#define BZ_HDR_MIN (BZ_INITRD_ADDR_MAX + 4u)
#define BZ_LOADED_HIGH 0x01u
#define BZ_SECTOR 512u
#define BZ_DEFAULT_SECTS 4u
/* QEMU's x86_load_linux: where it would put each part, and the RAM it
 * keeps for ACPI below the top (pc.c's acpi_data_size). */
#define QEMU_REAL_ADDR_LOW 0x90000u
#define QEMU_REAL_ADDR 0x10000u
#define QEMU_CMDLINE_LOW 0x9A000u
#define QEMU_CMDLINE_ADDR 0x20000u
#define QEMU_PROT_ADDR_LOW 0x10000u
#define QEMU_PROT_ADDR 0x100000u
#define QEMU_INITRD_MAX_OLD 0x37FFFFFFu
#define QEMU_ACPI_DATA 0x28000u
#define FOUR_GIB 0x100000000ull

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++) {
		p[i] = (uint8_t)(v >> (8 * i));
	}
}

/* @name within HV_FWCFG_NAME_MAX bytes: its length, or the maximum when
 * it has no NUL there. */
static size_t name_len(const char *name)
{
	size_t n = 0;

	while (n < HV_FWCFG_NAME_MAX && name[n] != '\0') {
		n++;
	}
	return n;
}

static bool name_is(const char *name, const char *what)
{
	size_t n = name_len(name);

	return n < HV_FWCFG_NAME_MAX && n == name_len(what) &&
	       memcmp(name, what, n) == 0;
}

static bool name_under(const char *name, const char *prefix)
{
	size_t n = name_len(prefix);

	return name_len(name) >= n && memcmp(name, prefix, n) == 0;
}

/* strcmp's order over at most HV_FWCFG_NAME_MAX bytes. */
static int name_cmp(const char *a, const char *b)
{
	size_t i;

	for (i = 0; i < HV_FWCFG_NAME_MAX; i++) {
		unsigned char x = (unsigned char)a[i];
		unsigned char y = (unsigned char)b[i];

		if (x != y) {
			return x < y ? -1 : 1;
		}
		if (x == '\0') {
			break;
		}
	}
	return 0;
}

bool hv_fwcfg_hidden(const char *name)
{
	return name_len(name) == HV_FWCFG_NAME_MAX ||
	       name_is(name, "opt/csvsm/igvm") ||
	       name_is(name, "opt/csvsm/hv") ||
	       name_under(name, "opt/csvsm/guest/") ||
	       name_under(name, "genroms/") || name_is(name, "etc/e820");
}

uint32_t hv_fwcfg_dir(const struct hv_fwcfg_file *in, uint32_t n,
		      const struct hv_fwcfg_file *extra, uint32_t n_extra,
		      struct hv_fwcfg_file *out, uint32_t cap)
{
	uint32_t count = 0, i, j;

	for (i = 0; i < n && count < cap; i++) {
		bool taken = false;

		for (j = 0; j < n_extra; j++) {
			taken = taken || in[i].key_be == extra[j].key_be;
		}
		if (!taken && !hv_fwcfg_hidden(in[i].name)) {
			out[count++] = in[i];
		}
	}
	for (j = 0; j < n_extra && count < cap; j++) {
		uint32_t at = 0;

		while (at < count &&
		       name_cmp(out[at].name, extra[j].name) <= 0) {
			at++;
		}
		for (i = count; i > at; i--) {
			out[i] = out[i - 1];
		}
		out[at] = extra[j];
		count++;
	}
	return count;
}

/* One entry: all of the guest's RAM from 0, as QEMU lists the RAM below
 * 4 GiB as one range. Where the layout gains holes or RAM above 4 GiB,
 * this is the one place to say so. */
size_t hv_fwcfg_e820(uint64_t ram_size, uint64_t high_size, uint8_t *buf,
		     size_t cap)
{
	size_t need =
		high_size != 0 ? 2 * HV_FWCFG_E820_ENTRY : HV_FWCFG_E820_ENTRY;

	if (ram_size == 0 || cap < need) {
		return 0;
	}
	put_le(buf, 0, 8);
	put_le(buf + 8, ram_size, 8);
	put_le(buf + 16, HV_FWCFG_E820_RAM, 4);
	if (high_size != 0) {
		put_le(buf + HV_FWCFG_E820_ENTRY, HV_FWCFG_RAM_HIGH, 8);
		put_le(buf + HV_FWCFG_E820_ENTRY + 8, high_size, 8);
		put_le(buf + HV_FWCFG_E820_ENTRY + 16, HV_FWCFG_E820_RAM, 4);
	}
	return need;
}

static const char *linux_header(const uint8_t *hdr, size_t hdr_len,
				uint64_t kernel_size, uint32_t *setup_size)
{
	uint32_t sects;

	if (kernel_size >= FOUR_GIB) {
		return "a kernel of 4 GiB or more";
	}
	if (hdr_len < BZ_HDR_MIN || kernel_size < BZ_HDR_MIN) {
		return "shorter than a setup header";
	}
	if (le16(hdr + BZ_BOOT_FLAG) != 0xAA55u) {
		return "no boot flag 0xAA55";
	}
	if (memcmp(hdr + BZ_HEADER, "HdrS", 4) != 0) {
		return "no \"HdrS\" (not a bzImage)";
	}
	if (le16(hdr + BZ_VERSION) < 0x200u) {
		return "boot protocol before 2.00";
	}
	sects = hdr[BZ_SETUP_SECTS] != 0 ? hdr[BZ_SETUP_SECTS]
					 : BZ_DEFAULT_SECTS;
	*setup_size = (sects + 1u) * BZ_SECTOR;
	if (*setup_size >= kernel_size) {
		return "a setup not shorter than the file";
	}
	return NULL;
}

const char *hv_fwcfg_linux(const uint8_t *hdr, size_t hdr_len,
			   uint64_t kernel_size, uint64_t initrd_size,
			   uint64_t cmdline_len, uint64_t ram_size,
			   struct hv_fwcfg_linux *out)
{
	uint32_t setup = 0, version, initrd_max;
	uint64_t low = ram_size < FOUR_GIB ? ram_size : FOUR_GIB;
	const char *why;
	bool high;

	memset(out, 0, sizeof(*out));
	why = linux_header(hdr, hdr_len, kernel_size, &setup);
	if (why != NULL) {
		return why;
	}
	if (initrd_size >= FOUR_GIB) {
		return "an initrd of 4 GiB or more";
	}
	if (cmdline_len >= FOUR_GIB - 1) {
		return "a command line of 4 GiB or more";
	}
	version = le16(hdr + BZ_VERSION);
	high = (hdr[BZ_LOADFLAGS] & BZ_LOADED_HIGH) != 0;
	out->setup_size = setup;
	out->kernel_size = (uint32_t)(kernel_size - setup);
	out->initrd_size = (uint32_t)initrd_size;
	out->cmdline_size = (uint32_t)cmdline_len + 1u;
	if (version < 0x202u || !high) {
		out->setup_addr = QEMU_REAL_ADDR_LOW;
		out->cmdline_addr = QEMU_CMDLINE_LOW - out->cmdline_size;
		out->kernel_addr = high ? QEMU_PROT_ADDR : QEMU_PROT_ADDR_LOW;
	} else {
		out->setup_addr = QEMU_REAL_ADDR;
		out->cmdline_addr = QEMU_CMDLINE_ADDR;
		out->kernel_addr = QEMU_PROT_ADDR;
	}
	initrd_max = version >= 0x203u ? le32(hdr + BZ_INITRD_ADDR_MAX)
				       : QEMU_INITRD_MAX_OLD;
	if (low > QEMU_ACPI_DATA && initrd_max >= low - QEMU_ACPI_DATA) {
		initrd_max = (uint32_t)(low - QEMU_ACPI_DATA - 1u);
	}
	if (initrd_size != 0 && initrd_size <= initrd_max) {
		out->initrd_addr =
			(uint32_t)((initrd_max - initrd_size) & ~0xFFFull);
	}
	return NULL;
}

uint32_t hv_fwcfg_advance(uint32_t len, uint32_t off, uint32_t want,
			  uint32_t *avail)
{
	*avail = 0;
	if (off >= len) {
		return off;
	}
	*avail = want < len - off ? want : len - off;
	return off + *avail;
}

struct hv_fwcfg_dma hv_fwcfg_dma_decode(const uint8_t raw[HV_FWCFG_DMA_SIZE])
{
	struct hv_fwcfg_dma a = {0};
	unsigned i;

	for (i = 0; i < 4; i++) {
		a.control = a.control << 8 | raw[i];
		a.length = a.length << 8 | raw[4 + i];
	}
	for (i = 0; i < 8; i++) {
		a.address = a.address << 8 | raw[8 + i];
	}
	return a;
}

struct hv_fwcfg_dma_plan hv_fwcfg_dma_plan(const struct hv_fwcfg_dma *a,
					   bool valid, uint32_t len,
					   uint32_t off)
{
	struct hv_fwcfg_dma_plan p = {.op = HV_FWCFG_DMA_OP_NONE,
				      .next_off = off};
	uint32_t moves =
		HV_FWCFG_DMA_READ | HV_FWCFG_DMA_WRITE | HV_FWCFG_DMA_SKIP;

	if ((a->control & moves) == 0 || a->length == 0) {
		return p;
	}
	if (valid) {
		p.next_off = hv_fwcfg_advance(len, off, a->length, &p.avail);
	}
	if ((a->control & HV_FWCFG_DMA_READ) != 0) {
		p.op = HV_FWCFG_DMA_OP_FILL;
	} else if ((a->control & HV_FWCFG_DMA_WRITE) != 0) {
		p.op = HV_FWCFG_DMA_OP_FAIL;
		p.avail = 0;
	} else {
		p.avail = 0; /* SKIP: the offset moves, nothing is written */
	}
	return p;
}

bool hv_fwcfg_dma_pages(uint64_t gpa, uint64_t len, uint64_t c_mask,
			uint64_t *first, uint64_t *count)
{
	uint64_t last = 0;

	*first = 0;
	*count = 0;
	if ((gpa & c_mask) != 0 || len == 0 ||
	    __builtin_add_overflow(gpa, len - 1, &last) ||
	    (last & c_mask) != 0) {
		return false;
	}
	*first = gpa & ~(HV_FWCFG_PAGE - 1);
	*count = ((last & ~(HV_FWCFG_PAGE - 1)) - *first) / HV_FWCFG_PAGE + 1;
	return true;
}
