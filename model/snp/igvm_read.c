/* SPDX-License-Identifier: MIT */
/*
 * Reading IGVM files (model/igvm_reader.h). The file is the host's,
 * untrusted: a wrong one must give a refusal, never a read outside it.
 * Every offset and length is checked against the file before use, in
 * 64-bit arithmetic; a structure's body is copied before it is read
 * (it may be unaligned). Invariant of igvm_next(): the returned body and
 * the file data its directive names lie inside the file.
 */
#include "svsm/std.h"

#include "model/igvm_reader.h"

const char *igvm_open(struct igvm_file *f, const uint8_t *data, size_t size)
{
	uint8_t headers_zeroed[sizeof(f->hdr)];
	uint64_t vh_end;
	uint32_t crc;

	if (size < sizeof(f->hdr)) {
		return "shorter than the fixed header";
	}
	memcpy(&f->hdr, data, sizeof(f->hdr));
	f->data = data;
	f->size = size;
	f->section = 0;
	if (f->hdr.magic != IGVM_MAGIC) {
		return "no IGVM magic";
	}
	if (f->hdr.format_version != IGVM_FORMAT_VERSION_1) {
		return "not format version 1";
	}
	if (f->hdr.total_file_size != size) {
		return "total_file_size is not the file's size";
	}
	vh_end = (uint64_t)f->hdr.variable_header_offset +
		 f->hdr.variable_header_size;
	if (f->hdr.variable_header_offset < sizeof(f->hdr) ||
	    f->hdr.variable_header_offset % 8 != 0 || vh_end > size) {
		return "variable header outside the file or misaligned";
	}
	/* CRC over fixed + variable header with the checksum as zero. */
	memcpy(headers_zeroed, data, sizeof(headers_zeroed));
	memset(headers_zeroed + offsetof(struct igvm_fixed_header, checksum), 0,
	       4);
	crc = igvm_crc32(0, headers_zeroed, sizeof(headers_zeroed));
	crc = igvm_crc32(crc, data + sizeof(f->hdr),
			 (size_t)(vh_end - sizeof(f->hdr)));
	if (crc != f->hdr.checksum) {
		return "checksum mismatch";
	}
	return NULL;
}

/* The section a type belongs to: 0 platform, 1 init, 2 directive. */
static int section_of(uint32_t type)
{
	uint32_t t = type & ~IGVM_VHT_IGNORABLE;

	if (t >= 0x1 && t <= 0x100) {
		return 0;
	}
	if (t >= 0x101 && t <= 0x200) {
		return 1;
	}
	if (t >= 0x301 && t <= 0x400) {
		return 2;
	}
	return -1;
}

/* File data a directive names must lie inside the file. */
static bool data_in_file(const struct igvm_file *f, uint64_t off, uint64_t len)
{
	return off == 0 || (off <= f->size && len <= f->size - off);
}

static const char *check_item(const struct igvm_file *f,
			      const struct igvm_item *it)
{
	switch (it->type) {
	case IGVM_VHT_PAGE_DATA: {
		struct igvm_page_data p;

		if (it->length < sizeof(p)) {
			return "PAGE_DATA too short";
		}
		memcpy(&p, it->body, sizeof(p));
		if (p.gpa % IGVM_PAGE != 0) {
			return "PAGE_DATA GPA not page aligned";
		}
		if (!data_in_file(f, p.file_offset,
				  (p.flags & IGVM_PAGE_FLAG_2MB) ? 0x200000
								 : IGVM_PAGE)) {
			return "PAGE_DATA file data past the end";
		}
		return NULL;
	}
	case IGVM_VHT_VP_CONTEXT: {
		struct igvm_vp_context v;

		if (it->length < sizeof(v)) {
			return "VP_CONTEXT too short";
		}
		memcpy(&v, it->body, sizeof(v));
		return data_in_file(f, v.file_offset, IGVM_PAGE)
			       ? NULL
			       : "VP_CONTEXT file data past the end";
	}
	case IGVM_VHT_PARAMETER_AREA: {
		struct igvm_parameter_area a;

		if (it->length < sizeof(a)) {
			return "PARAMETER_AREA too short";
		}
		memcpy(&a, it->body, sizeof(a));
		/* 256 MiB: far beyond any parameter, and a bound on the
		 * measurement's work for a hostile file. */
		if (a.number_of_bytes % IGVM_PAGE != 0 ||
		    a.number_of_bytes > (256u << 20)) {
			return "PARAMETER_AREA size not page aligned or huge";
		}
		return data_in_file(f, a.file_offset, a.number_of_bytes)
			       ? NULL
			       : "PARAMETER_AREA file data past the end";
	}
	case IGVM_VHT_SUPPORTED_PLATFORM:
		return it->length < sizeof(struct igvm_supported_platform)
			       ? "SUPPORTED_PLATFORM too short"
			       : NULL;
	case IGVM_VHT_GUEST_POLICY:
		return it->length < sizeof(struct igvm_guest_policy)
			       ? "GUEST_POLICY too short"
			       : NULL;
	case IGVM_VHT_PARAMETER_INSERT:
		return it->length < sizeof(struct igvm_parameter_insert)
			       ? "PARAMETER_INSERT too short"
			       : NULL;
	case IGVM_VHT_MEMORY_MAP:
	case IGVM_VHT_VP_COUNT_PARAMETER:
		return it->length < sizeof(struct igvm_parameter)
			       ? "a parameter structure too short"
			       : NULL;
	case IGVM_VHT_REQUIRED_MEMORY: {
		struct igvm_required_memory r;

		if (it->length < sizeof(r)) {
			return "REQUIRED_MEMORY too short";
		}
		memcpy(&r, it->body, sizeof(r));
		return r.gpa % IGVM_PAGE != 0 ||
				       r.number_of_bytes % IGVM_PAGE != 0
			       ? "REQUIRED_MEMORY not whole pages"
			       : NULL;
	}
	default:
		return NULL;
	}
}

bool igvm_next(struct igvm_file *f, uint32_t *pos, struct igvm_item *it,
	       const char **why)
{
	uint64_t start = f->hdr.variable_header_offset;
	uint64_t end = start + f->hdr.variable_header_size;
	uint64_t at = start + *pos;
	uint64_t body_end, next;
	struct igvm_vhs_header h;
	int section;
	uint64_t i;

	*why = NULL;
	if (at >= end) {
		return false;
	}
	if (end - at < sizeof(h)) {
		*why = "a structure header past the variable header";
		return false;
	}
	memcpy(&h, f->data + at, sizeof(h));
	body_end = at + sizeof(h) + h.length;
	next = (body_end + 7) & ~7ull;
	if (body_end > end || next > end) {
		*why = "a structure runs past the variable header";
		return false;
	}
	for (i = body_end; i < next; i++) {
		if (f->data[i] != 0) {
			*why = "non-zero padding";
			return false;
		}
	}
	section = section_of(h.type);
	if (section < 0 && (h.type & IGVM_VHT_IGNORABLE) == 0) {
		*why = "an unknown structure type that may not be ignored";
		return false;
	}
	it->type = h.type;
	it->length = h.length;
	it->offset = (uint32_t)at;
	it->body = f->data + at + sizeof(h);
	/* Sections only move forward: platform, init, directives. */
	if (*pos == 0) {
		f->section = 0;
	}
	if (section >= 0) {
		if (section < f->section) {
			*why = "a structure in an earlier section than before";
			return false;
		}
		f->section = section;
	}
	*why = check_item(f, it);
	if (*why != NULL) {
		return false;
	}
	*pos = (uint32_t)(next - start);
	return true;
}
