/* SPDX-License-Identifier: MIT */
/*
 * DEV: a first launcher, to be replaced by the shared PSP launch of
 * src/snpmodel. It walks the IGVM file's directives for the SNP platform.
 */
#include "psp.h"

#include "svsm/plat.h"
#include "svsm/psp_model.h"
#include "svsm/std.h"

#include "abi/csvsm_boot.h"
#include "abi/snp.h"

#include "arch.h"
#include "cpuid.h"
#include "layout.h"
#include "machine.h"
#include "rmp.h"

#define VHT_SUPPORTED_PLATFORM 0x1u
#define VHT_GUEST_POLICY 0x101u
#define VHT_PARAMETER_AREA 0x301u
#define VHT_PAGE_DATA 0x302u
#define VHT_PARAMETER_INSERT 0x303u
#define VHT_VP_CONTEXT 0x304u
#define VHT_VP_COUNT 0x307u
#define VHT_MEMORY_MAP 0x30Cu
#define DATA_SECRETS 1u
#define DATA_CPUID 2u
#define FLAG_2MB 1u
#define FLAG_UNMEASURED 2u
#define FLAG_SHARED 4u
#define VMSA_DIGEST_GPA 0xFFFFFFFFF000ull

static struct psp_model psp;

struct cpuid_fn {
	uint32_t eax_in, ecx_in;
	uint64_t xcr0_in, xss_in;
	uint32_t eax, ebx, ecx, edx;
	uint64_t reserved;
} __attribute__((packed));

static uint64_t random64(void)
{
	uint64_t v;
	unsigned i;

	for (i = 0; i < 32; i++) {
		uint8_t ok;

		__asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok));
		if (ok) {
			return v;
		}
	}
	machine_panic("no RDRAND: the PSP cannot make its keys");
}

static void fill_cpuid(uint8_t *page)
{
	static const uint32_t leaves[][2] = {
		{0, 0},		  {1, 0},	    {7, 0},
		{0xD, 0},	  {0xD, 1},	    {0x80000000u, 0},
		{0x80000001u, 0}, {0x80000008u, 0}, {0x8000001Fu, 0},
	};
	struct cpuid_fn *fn = (struct cpuid_fn *)(page + 16);
	uint32_t i, n = sizeof(leaves) / sizeof(leaves[0]);

	memset(page, 0, PAGE);
	for (i = 0; i < n; i++) {
		struct hw_cpuid r = hw_cpuid(leaves[i][0], leaves[i][1]);

		fn[i] = (struct cpuid_fn){.eax_in = leaves[i][0],
					  .ecx_in = leaves[i][1],
					  .xcr0_in =
						  leaves[i][0] == 0xD ? 1 : 0,
					  .eax = r.eax,
					  .ebx = r.ebx,
					  .ecx = r.ecx,
					  .edx = r.edx};
	}
	memcpy(page, &n, 4);
}

static void fill_secrets(uint8_t *page)
{
	struct snp_secrets_page *s = (struct snp_secrets_page *)page;
	uint8_t entropy[4 * 32 + 48];
	unsigned i;

	for (i = 0; i < sizeof(entropy); i += 8) {
		uint64_t r = random64();

		memcpy(entropy + i, &r, 8);
	}
	psp_init(&psp, &psp_test_identity, entropy, 0x30000);
	memset(entropy, 0, sizeof(entropy));
	memset(page, 0, PAGE);
	s->version = 3;
	memcpy(s->vmpck, psp.vmpck, sizeof(s->vmpck));
}

static const char *launch_page(uint64_t gpa, const uint8_t *data,
			       enum psp_page_type type)
{
	uint8_t *p = guest_ptr(gpa, PAGE);
	enum snp_ret rc;

	if (p == NULL || (gpa & (PAGE - 1)) != 0) {
		return "a page outside guest RAM";
	}
	if (data != NULL) {
		memcpy(p, data, PAGE);
	} else if (type != PSP_PAGE_UNMEASURED) {
		memset(p, 0, PAGE);
	}
	if (type == PSP_PAGE_SECRETS) {
		fill_secrets(p);
	} else if (type == PSP_PAGE_CPUID) {
		fill_cpuid(p);
	}
	if (!psp_launch_digest_page(psp.measurement, gpa, type,
				    type == PSP_PAGE_NORMAL ? p : NULL)) {
		return "libcrypto failed";
	}
	rmp_lock();
	rc = rmp_launch_page(&machine_rmp, gpa);
	rmp_unlock();
	return rc == SNP_RET_SUCCESS ? NULL : "a page launched twice";
}

const char *psp_launch(const uint8_t *file, size_t size, uint32_t vp_count,
		       uint64_t *boot_vmsa, uint8_t digest[48])
{
	uint32_t off, end, mask = 0, vmsa_off = 0, mm_area = 99, vp_area = 99;
	uint64_t vmsa_gpa = 0;
	const char *why = NULL;

	if (size < 24) {
		return "truncated";
	}
	memcpy(&off, file + 8, 4);
	memcpy(&end, file + 12, 4);
	end += off;
	while (why == NULL && off + 8 <= end && end <= size) {
		uint32_t type, len;
		const uint8_t *b = file + off + 8;

		memcpy(&type, file + off, 4);
		memcpy(&len, file + off + 4, 4);
		switch (type & 0x7FFFFFFFu) {
		case VHT_SUPPORTED_PLATFORM:
			if (b[5] == 2) {
				memcpy(&mask, b, 4);
			}
			break;
		case VHT_MEMORY_MAP:
			memcpy(&mm_area, b, 4);
			break;
		case VHT_VP_COUNT:
			memcpy(&vp_area, b, 4);
			break;
		case VHT_PAGE_DATA: {
			uint64_t gpa;
			uint32_t m, foff, flags;
			uint16_t dt;
			enum psp_page_type t;

			memcpy(&gpa, b, 8);
			memcpy(&m, b + 8, 4);
			memcpy(&foff, b + 12, 4);
			memcpy(&flags, b + 16, 4);
			memcpy(&dt, b + 20, 2);
			if ((m & mask) == 0 || (flags & FLAG_SHARED) != 0) {
				break;
			}
			t = dt == DATA_SECRETS		? PSP_PAGE_SECRETS
			    : dt == DATA_CPUID		? PSP_PAGE_CPUID
			    : (flags & FLAG_UNMEASURED) ? PSP_PAGE_UNMEASURED
			    : foff == 0			? PSP_PAGE_ZERO
							: PSP_PAGE_NORMAL;
			why = launch_page(
				gpa, t == PSP_PAGE_NORMAL ? file + foff : NULL,
				t);
			break;
		}
		case VHT_PARAMETER_INSERT: {
			uint64_t gpa;
			uint32_t idx;
			uint8_t *p;

			memcpy(&gpa, b, 8);
			memcpy(&idx, b + 12, 4);
			why = launch_page(gpa, NULL, PSP_PAGE_UNMEASURED);
			p = guest_ptr(gpa, PAGE);
			if (why == NULL && idx == mm_area) {
				struct igvm_memory_map_entry e = {
					.starting_gpa_page_number = 0,
					.number_of_pages =
						guest_ram_size / PAGE,
					.entry_type = IGVM_MEMORY_MAP_MEMORY};

				memset(p, 0, PAGE);
				memcpy(p, &e, sizeof(e));
			} else if (why == NULL && idx == vp_area) {
				memset(p, 0, PAGE);
				memcpy(p, &vp_count, 4);
			}
			break;
		}
		case VHT_VP_CONTEXT:
			memcpy(&vmsa_gpa, b, 8);
			memcpy(&vmsa_off, b + 12, 4);
			break;
		default:
			break;
		}
		off += 8 + ((len + 7) & ~7u);
	}
	if (why == NULL && (vmsa_off == 0 || vmsa_off + PAGE > size)) {
		why = "no VMSA";
	}
	if (why == NULL) {
		uint8_t *p = guest_ptr(vmsa_gpa, PAGE);

		if (p == NULL) {
			why = "VMSA outside guest RAM";
		} else {
			memcpy(p, file + vmsa_off, PAGE);
			(void)psp_launch_digest_page(psp.measurement,
						     VMSA_DIGEST_GPA,
						     PSP_PAGE_VMSA, p);
			rmp_lock();
			if (rmp_launch_page(&machine_rmp, vmsa_gpa) !=
				    SNP_RET_SUCCESS ||
			    rmp_rmpadjust(&machine_rmp, 0, vmsa_gpa, 0,
					  1 | RMPADJUST_VMSA) !=
				    SNP_RET_SUCCESS) {
				why = "VMSA page refused";
			}
			rmp_changed(0, guest_ram_size);
			rmp_unlock();
		}
	}
	memcpy(digest, psp.measurement, 48);
	*boot_vmsa = vmsa_gpa;
	return why;
}

uint64_t psp_serve_request(const uint8_t *req, uint8_t *rsp, void *certs,
			   size_t *certs_len)
{
	return psp_host_guest_request(&psp, req, rsp, certs, certs_len);
}
