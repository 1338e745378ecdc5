/* SPDX-License-Identifier: MIT */
/*
 * The SEV-SNP launch digest the PSP computes for an IGVM file, as the
 * loader (QEMU's IGVM support, KVM's SNP_LAUNCH_UPDATE) imports it, with
 * the PAGE_INFO chain of psp_launch_digest_page (the emulated PSP's own
 * code). Directives for the SNP compatibility mask, in file order:
 * - PAGE_DATA: NORMAL with its contents; no file data: ZERO; unmeasured:
 *   UNMEASURED; SECRETS and CPUID pages as their types; shared: skipped;
 * - PARAMETER_INSERT: the area's pages, UNMEASURED;
 * - VP_CONTEXT: the VMSA, measured last (KVM does so at LAUNCH_FINISH) at
 *   GPA 0xFFFFFFFFF000, where the RMP records VMSA pages.
 * Not yet checked against real hardware (docs/running-on-snp.md).
 */
#include "igvm_measure.h"

#include <string.h>

#include "svsm/psp_model.h"

#define VMSA_GPA 0xFFFFFFFFF000ull
#define MAX_AREAS 64u
#define MAX_VMSAS 64u

static bool page(struct igvm_measure *m, uint64_t gpa, enum psp_page_type t,
		 const uint8_t *contents)
{
	m->pages[t]++;
	return psp_launch_digest_page(m->digest, gpa, t, contents);
}

static enum psp_page_type page_type(const struct igvm_page_data *p)
{
	if (p->data_type == IGVM_PAGE_DATA_SECRETS) {
		return PSP_PAGE_SECRETS;
	}
	if (p->data_type == IGVM_PAGE_DATA_CPUID ||
	    p->data_type == IGVM_PAGE_DATA_CPUID_XF) {
		return PSP_PAGE_CPUID;
	}
	if (p->flags & IGVM_PAGE_FLAG_UNMEASURED) {
		return PSP_PAGE_UNMEASURED;
	}
	return p->file_offset == 0 ? PSP_PAGE_ZERO : PSP_PAGE_NORMAL;
}

const char *igvm_measure_snp(struct igvm_file *f, struct igvm_measure *m)
{
	struct {
		uint32_t index;
		uint64_t bytes;
	} area[MAX_AREAS];
	uint32_t vmsa_off[MAX_VMSAS];
	unsigned nareas = 0, nvmsas = 0, i;
	uint32_t mask = 0;
	uint32_t pos = 0;
	struct igvm_item it;
	const char *why = NULL;

	memset(m, 0, sizeof(*m));
	while (igvm_next(f, &pos, &it, &why)) {
		switch (it.type) {
		case IGVM_VHT_SUPPORTED_PLATFORM: {
			struct igvm_supported_platform p;

			memcpy(&p, it.body, sizeof(p));
			if (p.platform_type == IGVM_PLATFORM_SEV_SNP) {
				mask = p.compatibility_mask;
			}
			break;
		}
		case IGVM_VHT_GUEST_POLICY: {
			struct igvm_guest_policy p;

			memcpy(&p, it.body, sizeof(p));
			if (p.compatibility_mask & mask) {
				m->policy = p.policy;
			}
			break;
		}
		case IGVM_VHT_PAGE_DATA: {
			struct igvm_page_data p;
			unsigned n, k;

			memcpy(&p, it.body, sizeof(p));
			if (!(p.compatibility_mask & mask) ||
			    (p.flags & IGVM_PAGE_FLAG_SHARED)) {
				break;
			}
			n = (p.flags & IGVM_PAGE_FLAG_2MB) ? 512 : 1;
			for (k = 0; k < n; k++) {
				enum psp_page_type t = page_type(&p);
				const uint8_t *c =
					t == PSP_PAGE_NORMAL
						? f->data + p.file_offset +
							  (size_t)k * IGVM_PAGE
						: NULL;

				if (!page(m, p.gpa + (uint64_t)k * IGVM_PAGE, t,
					  c)) {
					return "libcrypto failed";
				}
			}
			break;
		}
		case IGVM_VHT_PARAMETER_AREA: {
			struct igvm_parameter_area a;

			memcpy(&a, it.body, sizeof(a));
			if (nareas == MAX_AREAS) {
				return "too many parameter areas";
			}
			area[nareas].index = a.parameter_area_index;
			area[nareas].bytes = a.number_of_bytes;
			nareas++;
			break;
		}
		case IGVM_VHT_PARAMETER_INSERT: {
			struct igvm_parameter_insert p;
			uint64_t off;

			memcpy(&p, it.body, sizeof(p));
			if (!(p.compatibility_mask & mask)) {
				break;
			}
			for (i = 0; i < nareas &&
				    area[i].index != p.parameter_area_index;
			     i++) {
			}
			if (i == nareas) {
				return "PARAMETER_INSERT of an undeclared area";
			}
			for (off = 0; off < area[i].bytes; off += IGVM_PAGE) {
				if (!page(m, p.gpa + off, PSP_PAGE_UNMEASURED,
					  NULL)) {
					return "libcrypto failed";
				}
			}
			break;
		}
		case IGVM_VHT_VP_CONTEXT: {
			struct igvm_vp_context v;

			memcpy(&v, it.body, sizeof(v));
			if (!(v.compatibility_mask & mask)) {
				break;
			}
			if (nvmsas == MAX_VMSAS || v.file_offset == 0) {
				return "VP_CONTEXT without a VMSA";
			}
			vmsa_off[nvmsas++] = v.file_offset;
			break;
		}
		default:
			break;
		}
	}
	if (why != NULL) {
		return why;
	}
	if (mask == 0) {
		return "no SEV-SNP platform in the file";
	}
	for (i = 0; i < nvmsas; i++) {
		if (!page(m, VMSA_GPA, PSP_PAGE_VMSA, f->data + vmsa_off[i])) {
			return "libcrypto failed";
		}
	}
	return NULL;
}
