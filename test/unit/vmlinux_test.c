/* SPDX-License-Identifier: MIT */
/*
 * csvsm-igvm --linux-entry startup_64: the kernel proper out of a bzImage
 * (tools/igvm/vmlinux.c) and the layout it makes (linux_image.c), which
 * the firmware's check (src/plat/snp/linux/linux_layout.c) must pass. Truths:
 * boot.rst (payload_offset and payload_length from the protected-mode
 * part), Linux's size_append (the decompressed size after a zstd
 * payload; gzip's ISIZE), the ELF64 spec, and Debian's 6.18 vmlinux (two
 * PT_LOAD segments from 16 MiB, a NOTE, relocations after the ELF).
 * Payloads are compressed here with libzstd and zlib, the test's own
 * truth for the formats.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "svsm/le.h"

#include "abi/csvsm_boot.h"
#include "abi/linux_boot.h"

#include "../../src/plat/snp/linux/linux_boot.h"
#include "../../tools/igvm/linux_image.h"
#include "../../tools/igvm/vmlinux.h"
#include "../framework/test.h"

#define MIB (1ull << 20)
#define PAGE 4096ull
#define ELF_CAP 0x4000u
#define BASE 0x1000000ull

struct seg {
	uint32_t type;
	uint64_t paddr, off, filesz, memsz;
};

static uint8_t elf[ELF_CAP];

/* An ELF64 vmlinux in @elf: @n program headers @s, their file bytes a
 * pattern (byte i of the file is i * 7 + 1), entry @entry; its length
 * (the headers' end or the last segment's bytes, then 64 bytes of
 * "relocations"). */
static size_t make_elf(const struct seg *s, unsigned n, uint64_t entry)
{
	Elf64_Ehdr eh;
	size_t len = sizeof(eh) + n * sizeof(Elf64_Phdr), i;
	unsigned k;

	memset(elf, 0, sizeof(elf));
	for (i = 0; i < sizeof(elf); i++) {
		elf[i] = (uint8_t)(i * 7 + 1);
	}
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = entry;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (uint16_t)n;
	memcpy(elf, &eh, sizeof(eh));
	for (k = 0; k < n; k++) {
		Elf64_Phdr ph;

		memset(&ph, 0, sizeof(ph));
		ph.p_type = s[k].type;
		ph.p_offset = s[k].off;
		ph.p_vaddr = s[k].paddr + 0xffffffff80000000ull;
		ph.p_paddr = s[k].paddr;
		ph.p_filesz = s[k].filesz;
		ph.p_memsz = s[k].memsz;
		ph.p_align = 0x200000;
		memcpy(elf + sizeof(eh) + k * sizeof(ph), &ph, sizeof(ph));
		if (s[k].off + s[k].filesz > len && s[k].off < ELF_CAP) {
			len = s[k].off + s[k].filesz;
		}
	}
	return len + 64 <= ELF_CAP ? len + 64 : ELF_CAP;
}

/* Debian's shape, small: text, then data and bss after a gap, a NOTE,
 * entry in the second segment (as phys_startup_64 is in .init.text). */
static const struct seg two[] = {
	{PT_LOAD, BASE, 0x1000, 0x1800, 0x2000},
	{PT_LOAD, BASE + 0x3000, 0x3000, 0x800, 0x5000},
	{PT_NOTE, BASE + 0x100, 0x1100, 0x20, 0x20},
};
#define TWO_ENTRY (BASE + 0x3100)

TEST(vmlinux, parses_and_lays_out_debians_shape)
{
	static uint8_t out[0x3800];
	struct vmlinux v;
	size_t len = make_elf(two, 3, TWO_ENTRY);
	static const uint8_t zero[0x1800];

	ASSERT_TRUE(vmlinux_parse(elf, len, &v) == NULL);
	EXPECT_EQ(v.nseg, 2u);
	EXPECT_EQ(v.base, BASE);
	EXPECT_EQ(v.entry, 0x3100u);
	EXPECT_EQ(v.image_len, 0x3800u);
	EXPECT_EQ(v.span, 0x8000u);
	vmlinux_flatten(&v, out);
	EXPECT_EQ(memcmp(out, elf + 0x1000, 0x1800), 0);
	EXPECT_EQ(memcmp(out + 0x1800, zero, 0x1800), 0);
	EXPECT_EQ(memcmp(out + 0x3000, elf + 0x3000, 0x800), 0);
	/* The "relocations" after the ELF are ignored; so is their
	 * absence. */
	EXPECT_TRUE(vmlinux_parse(elf, 0x3800, &v) == NULL);
}

TEST(vmlinux, a_memory_tail_rounds_the_span_and_empty_segments_skip)
{
	const struct seg s[] = {
		{PT_LOAD, BASE, 0x1000, 0x800, 0x1001},
		{PT_LOAD, BASE + 0x5000, 0x1800, 0, 0},
	};
	struct vmlinux v;

	ASSERT_TRUE(vmlinux_parse(elf, make_elf(s, 2, BASE), &v) == NULL);
	EXPECT_EQ(v.nseg, 1u);
	EXPECT_EQ(v.image_len, 0x800u);
	EXPECT_EQ(v.span, 0x2000u);
}

static void expect_refused(const struct seg *s, unsigned n, uint64_t entry)
{
	struct vmlinux v;

	EXPECT_TRUE(vmlinux_parse(elf, make_elf(s, n, entry), &v) != NULL);
}

TEST(vmlinux, refuses_bad_segments)
{
	struct seg s[3];
	struct vmlinux v;
	size_t len;
	unsigned i;

	/* More file bytes than memory. */
	memcpy(s, two, sizeof(two));
	s[0].filesz = 0x2001;
	expect_refused(s, 3, TWO_ENTRY);
	/* Bytes outside the file; an offset past it; wrapping. */
	memcpy(s, two, sizeof(two));
	s[1].off = ELF_CAP - 0x100;
	expect_refused(s, 3, TWO_ENTRY);
	s[1].off = ~0ull - 0x10;
	expect_refused(s, 3, TWO_ENTRY);
	/* A physical address off a page; the first off 2 MiB. */
	memcpy(s, two, sizeof(two));
	s[1].paddr += 0x10;
	expect_refused(s, 3, TWO_ENTRY);
	memcpy(s, two, sizeof(two));
	s[0].paddr += PAGE;
	expect_refused(s, 3, TWO_ENTRY + PAGE);
	/* Overlapping (into the first's memory tail); descending. */
	memcpy(s, two, sizeof(two));
	s[1].paddr = BASE + 0x1000;
	expect_refused(s, 3, BASE + 0x1100);
	s[0].paddr = BASE + 0x200000;
	s[1].paddr = BASE;
	expect_refused(s, 3, BASE + 0x100);
	/* Above 4 GiB, and a size that wraps. */
	memcpy(s, two, sizeof(two));
	s[1].paddr = 0x100000000ull - 0x1000;
	expect_refused(s, 3, s[1].paddr + 0x100);
	memcpy(s, two, sizeof(two));
	s[1].memsz = ~0ull - 0x100;
	expect_refused(s, 3, TWO_ENTRY);
	/* Spanning more than 1 GiB. */
	memcpy(s, two, sizeof(two));
	s[1].paddr = BASE + 0x40000000ull;
	expect_refused(s, 3, s[1].paddr + 0x100);
	/* No PT_LOAD at all. */
	memcpy(s, two, sizeof(two));
	s[0].type = s[1].type = PT_NOTE;
	expect_refused(s, 3, TWO_ENTRY);
	/* More segments than a vmlinux has. */
	{
		struct seg many[VMLINUX_MAX_SEGS + 1];

		for (i = 0; i < VMLINUX_MAX_SEGS + 1; i++) {
			many[i] = (struct seg){PT_LOAD, BASE + i * PAGE, 0x1000,
					       0x10, 0x10};
		}
		expect_refused(many, VMLINUX_MAX_SEGS + 1, BASE);
		len = make_elf(many, VMLINUX_MAX_SEGS, BASE);
		EXPECT_TRUE(vmlinux_parse(elf, len, &v) == NULL);
	}
}

TEST(vmlinux, refuses_an_entry_outside_the_loaded_bytes)
{
	expect_refused(two, 3, BASE + 0x1800); /* the first's memory tail */
	expect_refused(two, 3, BASE + 0x2800); /* the gap */
	expect_refused(two, 3, BASE + 0x3800); /* the second's tail */
	expect_refused(two, 3, BASE - 1);      /* below */
	expect_refused(two, 3, 0xffffffff81000000ull); /* virtual */
}

TEST(vmlinux, refuses_bad_headers)
{
	struct vmlinux v;
	size_t len = make_elf(two, 3, TWO_ENTRY);
	static uint8_t copy[ELF_CAP];
	static const struct {
		size_t off, size;
		uint64_t value;
	} bad[] = {
		{0, 1, 0x7e},		   /* magic */
		{EI_CLASS, 1, ELFCLASS32}, /* 32-bit */
		{EI_DATA, 1, ELFDATA2MSB}, /* big-endian */
		{EI_VERSION, 1, 0},	   /* version */
		{16, 2, ET_DYN},	   /* e_type */
		{18, 2, EM_386},	   /* e_machine */
		{20, 4, 0},		   /* e_version */
		{32, 8, ELF_CAP - 8},	   /* e_phoff: headers past */
		{32, 8, ~0ull},		   /* e_phoff: far past */
		{52, 2, 63},		   /* e_ehsize */
		{54, 2, 32},		   /* e_phentsize */
		{56, 2, 0},		   /* e_phnum: none */
		{56, 2, PN_XNUM},	   /* e_phnum: extended */
		{56, 2, 300},		   /* e_phnum: past the file */
	};
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(copy, elf, len);
		if (bad[i].size == 1) {
			copy[bad[i].off] = (uint8_t)bad[i].value;
		} else if (bad[i].size == 2) {
			le_put16(copy + bad[i].off, (uint16_t)bad[i].value);
		} else if (bad[i].size == 4) {
			le_put32(copy + bad[i].off, (uint32_t)bad[i].value);
		} else {
			le_put64(copy + bad[i].off, bad[i].value);
		}
		if (vmlinux_parse(copy, len, &v) == NULL) {
			EXPECT_EQ(i, ~0u); /* names the case */
		}
	}
	EXPECT_TRUE(vmlinux_parse(elf, 63, &v) != NULL);
	EXPECT_TRUE(vmlinux_parse(elf, 64 + 2 * 56, &v) != NULL);
}

/* @in compressed as Linux's Makefile does: zstd then the size (LE32). */
static size_t zstd_payload(const uint8_t *in, size_t len, uint8_t *out,
			   size_t cap)
{
	size_t n = ZSTD_compress(out, cap - 4, in, len, 3);

	ASSERT_TRUE(!ZSTD_isError(n));
	le_put32(out + n, (uint32_t)len);
	return n + 4;
}

static size_t gzip_payload(const uint8_t *in, size_t len, uint8_t *out,
			   size_t cap)
{
	z_stream s;

	memset(&s, 0, sizeof(s));
	ASSERT_EQ(deflateInit2(&s, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
			       Z_DEFAULT_STRATEGY),
		  Z_OK);
	s.next_in = (Bytef *)(uintptr_t)in;
	s.avail_in = (uInt)len;
	s.next_out = out;
	s.avail_out = (uInt)cap;
	ASSERT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
	len = s.total_out;
	(void)deflateEnd(&s);
	return len;
}

static uint8_t pay[2 * ELF_CAP];

TEST(vmlinux, decompresses_zstd_and_gzip_exactly)
{
	size_t len = make_elf(two, 3, TWO_ENTRY), n, got = 0;
	uint8_t *out = NULL;

	n = zstd_payload(elf, len, pay, sizeof(pay));
	ASSERT_TRUE(vmlinux_decompress(pay, n, 1 << 20, &out, &got) == NULL);
	ASSERT_EQ(got, len);
	EXPECT_EQ(memcmp(out, elf, len), 0);
	free(out);
	/* Over the caller's limit; a trailer that lies either way; bytes
	 * after the frame; a truncated frame. */
	EXPECT_TRUE(vmlinux_decompress(pay, n, len - 1, &out, &got) != NULL);
	le_put32(pay + n - 4, (uint32_t)len + 1);
	EXPECT_TRUE(vmlinux_decompress(pay, n, 1 << 20, &out, &got) != NULL);
	le_put32(pay + n - 4, (uint32_t)len - 1);
	EXPECT_TRUE(vmlinux_decompress(pay, n, 1 << 20, &out, &got) != NULL);
	le_put32(pay + n - 4, 0);
	EXPECT_TRUE(vmlinux_decompress(pay, n, 1 << 20, &out, &got) != NULL);
	n = zstd_payload(elf, len, pay, sizeof(pay));
	memmove(pay + n - 3, pay + n - 4, 4);
	pay[n - 4] = 0;
	EXPECT_TRUE(vmlinux_decompress(pay, n + 1, 1 << 20, &out, &got) !=
		    NULL);
	n = zstd_payload(elf, len, pay, sizeof(pay));
	memmove(pay + n - 14, pay + n - 4, 4);
	EXPECT_TRUE(vmlinux_decompress(pay, n - 10, 1 << 20, &out, &got) !=
		    NULL);
	EXPECT_TRUE(vmlinux_decompress(pay, 4, 1 << 20, &out, &got) != NULL);
	EXPECT_TRUE(out == NULL && got == 0);

	n = gzip_payload(elf, len, pay, sizeof(pay));
	ASSERT_TRUE(vmlinux_decompress(pay, n, 1 << 20, &out, &got) == NULL);
	ASSERT_EQ(got, len);
	EXPECT_EQ(memcmp(out, elf, len), 0);
	free(out);
	/* A byte after the member; a wrong CRC; ISIZE over the limit. */
	pay[n] = 0;
	EXPECT_TRUE(vmlinux_decompress(pay, n + 1, 1 << 20, &out, &got) !=
		    NULL);
	pay[n - 8] ^= 1;
	EXPECT_TRUE(vmlinux_decompress(pay, n, 1 << 20, &out, &got) != NULL);
	pay[n - 8] ^= 1;
	EXPECT_TRUE(vmlinux_decompress(pay, n, len - 1, &out, &got) != NULL);
	EXPECT_TRUE(vmlinux_decompress(pay, 17, 1 << 20, &out, &got) != NULL);
	EXPECT_TRUE(out == NULL && got == 0);
}

TEST(vmlinux, refuses_other_formats_by_name)
{
	static const uint8_t xz[] = {0xfd, '7', 'z', 'X', 'Z', 0, 0, 0};
	static const uint8_t junk[] = {'E', 'L', 'F', 0, 0, 0, 0, 0};
	uint8_t *out = NULL;
	size_t got = 0;
	const char *why =
		vmlinux_decompress(xz, sizeof(xz), 1 << 20, &out, &got);

	ASSERT_TRUE(why != NULL);
	EXPECT_TRUE(strstr(why, "xz") != NULL);
	EXPECT_TRUE(vmlinux_decompress(junk, sizeof(junk), 1 << 20, &out,
				       &got) != NULL);
	EXPECT_TRUE(vmlinux_decompress(junk, 0, 1 << 20, &out, &got) != NULL);
}

/* A bzImage: 4 setup sectors and the boot sector, release 6.18, a
 * protected-mode part of @pm_len bytes holding @payload at @off. */
static uint8_t bz[0x10000];
#define SETUP (5 * 512u)

static size_t make_bz(const uint8_t *payload, size_t plen, uint32_t off,
		      size_t pm_len)
{
	memset(bz, 0, sizeof(bz));
	bz[LINUX_HDR_SETUP_SECTS] = 4;
	le_put32(bz + LINUX_HDR_SYSSIZE, (uint32_t)(pm_len / 16));
	le_put16(bz + LINUX_HDR_BOOT_FLAG, LINUX_BOOT_FLAG);
	bz[LINUX_HDR_JUMP] = 0xEB;
	bz[LINUX_HDR_JUMP + 1] = 0x6A;
	le_put32(bz + LINUX_HDR_HEADER, LINUX_HDRS_MAGIC);
	le_put16(bz + LINUX_HDR_VERSION, 0x20F);
	le_put16(bz + LINUX_HDR_KERNEL_VERSION, 0x400);
	memcpy(bz + 0x600, "6.18.15+deb13-amd64", 20);
	bz[LINUX_HDR_LOADFLAGS] = LINUX_LOADFLAGS_LOADED_HIGH;
	le_put32(bz + LINUX_HDR_INITRD_ADDR_MAX, 0x7FFFFFFF);
	le_put32(bz + LINUX_HDR_KERNEL_ALIGNMENT, 0x200000);
	bz[LINUX_HDR_RELOCATABLE] = 1;
	le_put16(bz + LINUX_HDR_XLOADFLAGS, 0x7F);
	le_put32(bz + LINUX_HDR_CMDLINE_SIZE, 2047);
	le_put64(bz + LINUX_HDR_PREF_ADDRESS, BASE);
	le_put32(bz + LINUX_HDR_INIT_SIZE, 0x4000);
	le_put32(bz + LINUX_HDR_PAYLOAD_OFFSET, off);
	le_put32(bz + LINUX_HDR_PAYLOAD_LENGTH, (uint32_t)plen);
	ASSERT_TRUE(SETUP + off + plen <= sizeof(bz));
	memcpy(bz + SETUP + off, payload, plen);
	return SETUP + pm_len;
}

TEST(vmlinux, payload_bounds)
{
	static const uint8_t p[16] = {1, 2, 3};
	struct bzimage_hdr h;
	const uint8_t *got = NULL;
	size_t glen = 0, len = make_bz(p, sizeof(p), 0x100, 0x200);

	ASSERT_TRUE(bzimage_parse(bz, len, &h) == NULL);
	ASSERT_TRUE(vmlinux_payload(bz, len, &h, &got, &glen) == NULL);
	EXPECT_TRUE(got == bz + SETUP + 0x100);
	EXPECT_EQ(glen, sizeof(p));
	/* Exactly to the end; one past it; offset past it; empty;
	 * wrapping; a file with no protected-mode part. */
	le_put32(bz + LINUX_HDR_PAYLOAD_LENGTH, 0x100);
	EXPECT_TRUE(vmlinux_payload(bz, len, &h, &got, &glen) == NULL);
	le_put32(bz + LINUX_HDR_PAYLOAD_LENGTH, 0x101);
	EXPECT_TRUE(vmlinux_payload(bz, len, &h, &got, &glen) != NULL);
	le_put32(bz + LINUX_HDR_PAYLOAD_LENGTH, 1);
	le_put32(bz + LINUX_HDR_PAYLOAD_OFFSET, 0x201);
	EXPECT_TRUE(vmlinux_payload(bz, len, &h, &got, &glen) != NULL);
	le_put32(bz + LINUX_HDR_PAYLOAD_OFFSET, 0x100);
	le_put32(bz + LINUX_HDR_PAYLOAD_LENGTH, 0);
	EXPECT_TRUE(vmlinux_payload(bz, len, &h, &got, &glen) != NULL);
	le_put32(bz + LINUX_HDR_PAYLOAD_LENGTH, 0xFFFFFFFF);
	EXPECT_TRUE(vmlinux_payload(bz, len, &h, &got, &glen) != NULL);
	le_put32(bz + LINUX_HDR_PAYLOAD_LENGTH, 1);
	EXPECT_TRUE(vmlinux_payload(bz, SETUP, &h, &got, &glen) != NULL);
	EXPECT_TRUE(got == NULL && glen == 0);
}

/* The whole path: a bzImage whose payload is a zstd vmlinux, laid out
 * by csvsm-igvm's builder around a 16 MiB SVSM at 16 MiB; the firmware's
 * layout check passes it and refuses it changed. */
TEST(vmlinux, startup_64_layout_passes_the_firmwares_check)
{
	static struct linux_image li;
	struct csvsm_boot_params p, q;
	size_t elen = make_elf(two, 3, TWO_ENTRY);
	size_t plen = zstd_payload(elf, elen, pay, sizeof(pay));
	size_t len = make_bz(pay, plen, 0x200, 0x200 + plen);
	const char *why;

	memset(&p, 0, sizeof(p));
	p.svsm_base = 16 * MIB;
	p.svsm_size = 16 * MIB;
	why = linux_image_prepare(bz, len, 0x1000, "console=ttyS0", 16 * MIB,
				  32 * MIB, 51, CSVSM_LINUX_ENTRY_STARTUP_64,
				  &li, &p);
	ASSERT_TRUE(why == NULL);
	EXPECT_EQ(p.linux_entry, CSVSM_LINUX_ENTRY_STARTUP_64);
	EXPECT_EQ(p.linux_kernel_gpa, 32 * MIB);
	EXPECT_EQ(p.linux_kernel_size, 0x3800u);
	EXPECT_EQ(p.linux_kernel_span, 0x8000u);
	EXPECT_EQ(p.guest_entry_rip, 32 * MIB + 0x3100);
	/* The initrd after the span (more than init_size here). */
	EXPECT_EQ(p.linux_initrd_gpa, 34 * MIB);
	ASSERT_EQ(li.kernel_len, 0x3800u);
	EXPECT_EQ(memcmp(li.kernel + 0x3000, elf + 0x3000, 0x800), 0);
	linux_image_release(&li);
	EXPECT_TRUE(linux_layout_check(&p) == NULL);
	EXPECT_EQ(linux_kernel_extent(&p), 0x8000u);

	/* The firmware's refusals: the entry outside the loaded bytes, a
	 * span short of them, the kernel off 2 MiB, an unknown entry,
	 * reserved bits, the span into the SVSM or over the initrd. */
	q = p;
	q.guest_entry_rip = 32 * MIB + 0x3800;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q = p;
	q.guest_entry_rip = 32 * MIB - 1;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q = p;
	q.linux_kernel_span = 0x3000;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q = p;
	q.linux_kernel_span = 0x8001;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q = p;
	q.linux_kernel_gpa += PAGE;
	q.guest_entry_rip += PAGE;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q = p;
	q.linux_entry = 2;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q = p;
	q.linux_reserved = 1;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q = p;
	q.linux_kernel_span = 3 * MIB; /* over the initrd at 34 MiB */
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q = p;
	q.linux_kernel_span = 0x100000000ull - 32 * MIB + PAGE;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	/* The decompressor's entry with a span, or at startup_64. */
	q = p;
	q.linux_entry = CSVSM_LINUX_ENTRY_DECOMPRESSOR;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q.guest_entry_rip = 32 * MIB + 0x200;
	EXPECT_TRUE(linux_layout_check(&q) != NULL);
	q.linux_kernel_span = 0;
	EXPECT_TRUE(linux_layout_check(&q) == NULL);
}

TEST(vmlinux, the_default_entry_is_the_decompressors)
{
	static struct linux_image li;
	struct csvsm_boot_params p;
	size_t elen = make_elf(two, 3, TWO_ENTRY);
	size_t plen = zstd_payload(elf, elen, pay, sizeof(pay));
	size_t len = make_bz(pay, plen, 0x200, 0x200 + plen);

	memset(&p, 0, sizeof(p));
	p.svsm_base = 16 * MIB;
	p.svsm_size = 16 * MIB;
	ASSERT_TRUE(linux_image_prepare(bz, len, 0, "", 16 * MIB, 32 * MIB, 51,
					CSVSM_LINUX_ENTRY_DECOMPRESSOR, &li,
					&p) == NULL);
	EXPECT_EQ(p.linux_entry, 0u);
	EXPECT_EQ(p.linux_kernel_span, 0u);
	EXPECT_EQ(p.guest_entry_rip, 32 * MIB + 0x200);
	EXPECT_EQ(p.linux_kernel_size, len - SETUP);
	EXPECT_TRUE(li.kernel == bz + SETUP);
	linux_image_release(&li);
	EXPECT_TRUE(linux_layout_check(&p) == NULL);
	/* An unknown entry; a payload that is not a kernel. */
	EXPECT_TRUE(linux_image_prepare(bz, len, 0, "", 16 * MIB, 32 * MIB, 51,
					7, &li, &p) != NULL);
	linux_image_release(&li);
	bz[SETUP + 0x200] ^= 0xFF;
	EXPECT_TRUE(linux_image_prepare(bz, len, 0, "", 16 * MIB, 32 * MIB, 51,
					CSVSM_LINUX_ENTRY_STARTUP_64, &li,
					&p) != NULL);
	linux_image_release(&li);
	{
		unsigned e = 9;

		EXPECT_TRUE(linux_entry_parse("startup_64", &e));
		EXPECT_EQ(e, CSVSM_LINUX_ENTRY_STARTUP_64);
		EXPECT_TRUE(linux_entry_parse("decompressor", &e));
		EXPECT_EQ(e, CSVSM_LINUX_ENTRY_DECOMPRESSOR);
		EXPECT_FALSE(linux_entry_parse("startup_32", &e));
	}
}
