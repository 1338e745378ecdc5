/* SPDX-License-Identifier: MIT */
/*
 * OVMF's GUID table and SEV metadata (svsm/ovmf.h). Layout, from the end
 * of the image: the footer GUID at len - 0x30, the table's total length
 * (u16) just before it; entries walk backwards, each ending in its GUID,
 * preceded by its u16 length (GUID and length included) and its data.
 */
#include "svsm/le.h"
#include "svsm/ovmf.h"
#include "svsm/std.h"

#include "abi/snp.h"

#define FOOTER_FROM_END 0x30u
#define GUID_LEN 16u
#define ENTRY_MIN (GUID_LEN + 2u)
#define PAGE SNP_PAGE_SIZE

/* 96b582de-1fb2-45f7-baea-a366c55a082d */
static const uint8_t footer_guid[GUID_LEN] = {
	0xde, 0x82, 0xb5, 0x96, 0xb2, 0x1f, 0xf7, 0x45,
	0xba, 0xea, 0xa3, 0x66, 0xc5, 0x5a, 0x08, 0x2d};
/* dc886566-984a-4798-a75e-5585a7bf67cc */
static const uint8_t sev_meta_guid[GUID_LEN] = {
	0x66, 0x65, 0x88, 0xdc, 0x4a, 0x98, 0x98, 0x47,
	0xa7, 0x5e, 0x55, 0x85, 0xa7, 0xbf, 0x67, 0xcc};
/* 00f771de-1a7e-4fcb-890e-68c77e2fb44e */
static const uint8_t ap_reset_guid[GUID_LEN] = {
	0xde, 0x71, 0xf7, 0x00, 0x7e, 0x1a, 0xcb, 0x4f,
	0x89, 0x0e, 0x68, 0xc7, 0x7e, 0x2f, 0xb4, 0x4e};

static const char *parse_meta(const uint8_t *img, size_t len, uint32_t from_end,
			      struct ovmf_info *out)
{
	const uint8_t *m;
	uint32_t n, i, j;

	if (from_end > len || from_end < 16) {
		return "SEV metadata offset outside the image";
	}
	m = img + (len - from_end);
	if (memcmp(m, "ASEV", 4) != 0 || le_get32(m + 8) != 1) {
		return "SEV metadata without ASEV signature or version 1";
	}
	n = le_get32(m + 12);
	if (n > OVMF_MAX_SECTIONS || le_get32(m + 4) != 16 + 12 * n ||
	    le_get32(m + 4) > from_end) {
		return "SEV metadata length or section count wrong";
	}
	for (i = 0; i < n; i++) {
		struct ovmf_section s = {le_get32(m + 16 + (size_t)12 * i),
					 le_get32(m + 20 + (size_t)12 * i),
					 le_get32(m + 24 + (size_t)12 * i)};

		if (s.base % PAGE != 0 || s.size == 0 || s.size % PAGE != 0 ||
		    (uint64_t)s.base + s.size > (1ull << 32)) {
			return "a section not whole pages below 4 GiB";
		}
		for (j = 0; j < i; j++) {
			const struct ovmf_section *o = &out->section[j];

			if (s.base < o->base + (uint64_t)o->size &&
			    o->base < s.base + (uint64_t)s.size) {
				return "sections overlap";
			}
		}
		switch (s.type) {
		case OVMF_SECTION_SNP_SECRETS:
		case OVMF_SECTION_CPUID:
		case OVMF_SECTION_SVSM_CAA: {
			bool *has = s.type == OVMF_SECTION_SNP_SECRETS
					    ? &out->has_secrets
				    : s.type == OVMF_SECTION_CPUID
					    ? &out->has_cpuid
					    : &out->has_caa;
			uint32_t *gpa = s.type == OVMF_SECTION_SNP_SECRETS
						? &out->secrets_gpa
					: s.type == OVMF_SECTION_CPUID
						? &out->cpuid_gpa
						: &out->caa_gpa;

			if (*has || s.size != PAGE) {
				return "a second or larger secrets, CPUID or "
				       "CA section";
			}
			*has = true;
			*gpa = s.base;
			break;
		}
		case OVMF_SECTION_SNP_SEC_MEM:
		case OVMF_SECTION_KERNEL_HASHES:
			break;
		default:
			return "an unknown section type";
		}
		out->section[i] = s;
		out->count = i + 1;
	}
	return NULL;
}

const char *ovmf_parse(const uint8_t *img, size_t len, struct ovmf_info *out)
{
	size_t footer, table_start, at;
	uint16_t table_len;
	bool have_meta = false;
	uint32_t meta_off = 0;

	memset(out, 0, sizeof(*out));
	if (len < FOOTER_FROM_END + PAGE || len % PAGE != 0) {
		return "not a firmware image of whole pages";
	}
	footer = len - FOOTER_FROM_END;
	if (memcmp(img + footer, footer_guid, GUID_LEN) != 0) {
		return "no OVMF GUID table footer";
	}
	table_len = le_get16(img + footer - 2);
	if (table_len < ENTRY_MIN || table_len > footer + GUID_LEN) {
		return "GUID table length outside the image";
	}
	table_start = footer + GUID_LEN - table_len;
	/* The table's own length and footer are the last 18 bytes. */
	at = footer - 2;
	while (at > table_start) {
		uint16_t elen;
		const uint8_t *guid;

		if (at - table_start < ENTRY_MIN) {
			return "a GUID table entry runs past the table";
		}
		guid = img + at - GUID_LEN;
		elen = le_get16(img + at - GUID_LEN - 2);
		if (elen < ENTRY_MIN || elen > at - table_start) {
			return "a GUID table entry length is wrong";
		}
		if (memcmp(guid, sev_meta_guid, GUID_LEN) == 0) {
			if (elen != ENTRY_MIN + 4 || have_meta) {
				return "a bad SEV metadata entry";
			}
			meta_off = le_get32(img + at - elen);
			have_meta = true;
		} else if (memcmp(guid, ap_reset_guid, GUID_LEN) == 0 &&
			   elen >= ENTRY_MIN + 4) {
			out->ap_reset_ip = le_get32(img + at - elen);
			out->has_ap_reset = true;
		}
		at -= elen;
	}
	if (!have_meta) {
		return "no SEV metadata: not an SEV-SNP-capable OVMF";
	}
	return parse_meta(img, len, meta_off, out);
}
