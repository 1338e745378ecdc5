/* SPDX-License-Identifier: MIT */
/*
 * The kernel proper out of a bzImage (vmlinux.h): payload, decompression
 * with Debian's libzstd and zlib, the ELF64 vmlinux's PT_LOAD segments.
 * Facts from Linux: boot.rst (payload_offset, payload_length: "relative
 * to the start of the protected-mode code"), arch/x86/boot/compressed/
 * Makefile (zstd and xz payloads have the decompressed size appended,
 * size_append; gzip's ISIZE is that size) and misc.c parse_elf() (the
 * PT_LOAD segments at their p_paddr offsets from LOAD_PHYSICAL_ADDR).
 *
 * Threats: the bzImage is whatever file the user names. Every offset and
 * size is checked against what holds it before it is used, sizes are
 * compared, never added unchecked, and the decompressor writes only into
 * a buffer of the size the payload announced, bounded by the caller.
 */
#include "vmlinux.h"

#include <elf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "svsm/le.h"

#include "abi/linux_boot.h"
#include "abi/snp.h"

#define PAGE SNP_PAGE_SIZE
#define SPAN_2M 0x200000ull
#define GIB4 0x100000000ull
#define SIZE_TRAILER 4u

static bool has_magic(const uint8_t *in, size_t len, const char *magic,
		      size_t mlen)
{
	return len >= mlen && memcmp(in, magic, mlen) == 0;
}

const char *vmlinux_payload(const uint8_t *bz, size_t len,
			    const struct bzimage_hdr *h, const uint8_t **out,
			    size_t *out_len)
{
	uint32_t off, plen;
	size_t pm;

	*out = NULL;
	*out_len = 0;
	/* bzimage_parse: hdr_end >= 0x264 and within @len, so both
	 * fields (2.08's) are inside the header read. */
	if (h->hdr_end < LINUX_HDR_PAYLOAD_LENGTH + 4 || h->hdr_end > len ||
	    h->setup_size >= len) {
		return "no payload fields in the setup header, or no "
		       "protected-mode part";
	}
	off = le_get32(bz + LINUX_HDR_PAYLOAD_OFFSET);
	plen = le_get32(bz + LINUX_HDR_PAYLOAD_LENGTH);
	pm = len - h->setup_size;
	if (plen == 0 || off > pm || plen > pm - off) {
		return "the compressed payload (payload_offset, "
		       "payload_length) is not inside the file";
	}
	*out = bz + h->setup_size + off;
	*out_len = plen;
	return NULL;
}

static const char *zstd_payload(const uint8_t *in, size_t len, size_t max,
				uint8_t **out, size_t *out_len)
{
	uint32_t size;
	unsigned long long known;
	size_t got;
	uint8_t *buf;

	if (len <= SIZE_TRAILER) {
		return "a zstd payload too short for its size trailer";
	}
	size = le_get32(in + len - SIZE_TRAILER);
	len -= SIZE_TRAILER;
	if (size == 0 || size > max) {
		return "the zstd payload's announced size is zero or too "
		       "large";
	}
	/* A frame that states its size must state the same. */
	known = ZSTD_getFrameContentSize(in, len);
	if (known == ZSTD_CONTENTSIZE_ERROR ||
	    (known != ZSTD_CONTENTSIZE_UNKNOWN && known != size)) {
		return "the zstd frame is corrupt or disagrees with the "
		       "size trailer";
	}
	buf = malloc(size);
	if (buf == NULL) {
		return "out of memory";
	}
	/* Every byte before the trailer must be frames (anything else
	 * is an error), and they must fill the buffer exactly. */
	got = ZSTD_decompress(buf, size, in, len);
	if (ZSTD_isError(got) || got != size) {
		free(buf);
		return "the zstd payload does not decompress to its size";
	}
	*out = buf;
	*out_len = size;
	return NULL;
}

static const char *gzip_payload(const uint8_t *in, size_t len, size_t max,
				uint8_t **out, size_t *out_len)
{
	z_stream s;
	uint32_t size;
	uint8_t *buf;
	int rc;

	/* A gzip header (10) and trailer (8) at least. */
	if (len < 18 || len > UINT32_MAX) {
		return "a gzip payload of impossible length";
	}
	size = le_get32(in + len - SIZE_TRAILER); /* ISIZE */
	if (size == 0 || size > max) {
		return "the gzip payload's size (ISIZE) is zero or too large";
	}
	buf = malloc(size);
	if (buf == NULL) {
		return "out of memory";
	}
	memset(&s, 0, sizeof(s));
	if (inflateInit2(&s, 16 + MAX_WBITS) != Z_OK) { /* gzip only */
		free(buf);
		return "zlib cannot start";
	}
	s.next_in = (Bytef *)(uintptr_t)in;
	s.avail_in = (uInt)len;
	s.next_out = buf;
	s.avail_out = size;
	rc = inflate(&s, Z_FINISH);
	/* One member, ending exactly at the payload's end and filling the
	 * buffer exactly (Z_STREAM_END also means its CRC matched). */
	if (rc != Z_STREAM_END || s.avail_in != 0 || s.total_out != size) {
		(void)inflateEnd(&s);
		free(buf);
		return "the gzip payload does not decompress to its size";
	}
	(void)inflateEnd(&s);
	*out = buf;
	*out_len = size;
	return NULL;
}

const char *vmlinux_decompress(const uint8_t *in, size_t len, size_t max,
			       uint8_t **out, size_t *out_len)
{
	*out = NULL;
	*out_len = 0;
	if (has_magic(in, len, "\x28\xb5\x2f\xfd", 4)) {
		return zstd_payload(in, len, max, out, out_len);
	}
	if (has_magic(in, len, "\x1f\x8b", 2)) {
		return gzip_payload(in, len, max, out, out_len);
	}
	if (has_magic(in, len, "\xfd\x37\x7a\x58\x5a", 5) || /* xz */
	    has_magic(in, len, "BZh", 3) ||
	    has_magic(in, len, "\x5d\x00\x00", 3) ||
	    has_magic(in, len, "\x02\x21\x4c\x18", 4) ||
	    has_magic(in, len, "\x89LZO", 4)) {
		return "the kernel is compressed with xz, bzip2, lzma, lz4 or "
		       "lzo: csvsm-igvm decompresses zstd and gzip only";
	}
	return "the payload is in no compression format Linux uses";
}

/* Segment @s checked alone: file bytes inside the ELF, sizes sane. */
static const char *check_segment(const Elf64_Phdr *ph, size_t len)
{
	if (ph->p_filesz > ph->p_memsz) {
		return "a segment with more file bytes than memory";
	}
	if (ph->p_offset > len || ph->p_filesz > len - ph->p_offset) {
		return "a segment's bytes are outside the file";
	}
	if (ph->p_paddr % PAGE != 0) {
		return "a segment's physical address is not page aligned";
	}
	if (ph->p_paddr >= GIB4 || ph->p_memsz > GIB4 - ph->p_paddr) {
		return "a segment ends above 4 GiB";
	}
	return NULL;
}

static const char *check_header(const Elf64_Ehdr *eh, size_t len)
{
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_ident[EI_VERSION] != EV_CURRENT) {
		return "the payload is not a little-endian ELF64 file";
	}
	if (eh->e_type != ET_EXEC || eh->e_machine != EM_X86_64 ||
	    eh->e_version != EV_CURRENT) {
		return "the payload is not an x86-64 executable (vmlinux)";
	}
	if (eh->e_ehsize != sizeof(Elf64_Ehdr) ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 ||
	    eh->e_phnum == PN_XNUM) {
		return "the ELF header's sizes are not ELF64's";
	}
	if (eh->e_phoff > len ||
	    (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > len - eh->e_phoff) {
		return "the program headers are outside the file";
	}
	return NULL;
}

const char *vmlinux_parse(const uint8_t *elf, size_t len, struct vmlinux *v)
{
	Elf64_Ehdr eh;
	uint64_t end = 0;
	unsigned i;
	const char *why;
	bool entry_in = false;

	memset(v, 0, sizeof(*v));
	if (len < sizeof(eh)) {
		return "the payload is shorter than an ELF header";
	}
	memcpy(&eh, elf, sizeof(eh));
	why = check_header(&eh, len);
	if (why != NULL) {
		return why;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, elf + eh.e_phoff + (size_t)i * sizeof(ph),
		       sizeof(ph));
		if (ph.p_type != PT_LOAD ||
		    (ph.p_memsz == 0 && ph.p_filesz == 0)) {
			continue;
		}
		why = check_segment(&ph, len);
		if (why != NULL) {
			return why;
		}
		if (v->nseg == 0 && ph.p_paddr % SPAN_2M != 0) {
			return "the first segment is not 2 MiB aligned";
		}
		/* Ascending and disjoint (parse_elf's order). */
		if (v->nseg != 0 && ph.p_paddr < end) {
			return "segments out of order or overlapping";
		}
		if (v->nseg == VMLINUX_MAX_SEGS) {
			return "more loadable segments than a vmlinux has";
		}
		if (v->nseg == 0) {
			v->base = ph.p_paddr;
		}
		end = ph.p_paddr + ph.p_memsz; /* below 4 GiB: checked */
		if (end - v->base > VMLINUX_MAX_SPAN) {
			return "the segments span more than 1 GiB";
		}
		v->seg[v->nseg++] = (struct vmlinux_segment){
			.paddr = ph.p_paddr,
			.memsz = ph.p_memsz,
			.filesz = ph.p_filesz,
			.data = elf + ph.p_offset,
		};
		entry_in = entry_in || (eh.e_entry >= ph.p_paddr &&
					eh.e_entry - ph.p_paddr < ph.p_filesz);
		if (ph.p_paddr + ph.p_filesz - v->base > v->image_len) {
			v->image_len = ph.p_paddr + ph.p_filesz - v->base;
		}
	}
	if (v->nseg == 0) {
		return "no loadable segment";
	}
	if (!entry_in) {
		return "the entry point (e_entry) is not inside a segment's "
		       "bytes";
	}
	v->entry = eh.e_entry - v->base;
	v->span = (end - v->base + PAGE - 1) & ~(PAGE - 1);
	return NULL;
}

void vmlinux_flatten(const struct vmlinux *v, uint8_t *out)
{
	unsigned i;

	memset(out, 0, v->image_len);
	for (i = 0; i < v->nseg; i++) {
		memcpy(out + (v->seg[i].paddr - v->base), v->seg[i].data,
		       v->seg[i].filesz);
	}
}

const char *vmlinux_load(const uint8_t *bz, size_t len,
			 const struct bzimage_hdr *h, struct vmlinux_image *img)
{
	static struct vmlinux v;
	const uint8_t *payload = NULL;
	size_t plen = 0, elf_len = 0;
	uint8_t *elf = NULL;
	const char *why;

	memset(img, 0, sizeof(*img));
	why = vmlinux_payload(bz, len, h, &payload, &plen);
	if (why == NULL) {
		why = vmlinux_decompress(payload, plen, VMLINUX_MAX_ELF, &elf,
					 &elf_len);
	}
	if (why == NULL) {
		why = vmlinux_parse(elf, elf_len, &v);
	}
	if (why == NULL && v.image_len == 0) {
		why = "no loadable bytes";
	}
	if (why == NULL) {
		img->bytes = malloc(v.image_len);
		if (img->bytes == NULL) {
			why = "out of memory";
		}
	}
	if (why == NULL) {
		vmlinux_flatten(&v, img->bytes);
		img->len = v.image_len;
		img->span = v.span;
		img->entry = v.entry;
		img->base = v.base;
	}
	free(elf);
	return why;
}

void vmlinux_image_free(struct vmlinux_image *img)
{
	free(img->bytes);
	memset(img, 0, sizeof(*img));
}
