/* SPDX-License-Identifier: MIT */
/*
 * The PSP's launch of an IGVM image (svsm/psp_launch.h). The SNP
 * platform's directives, in file order, as QEMU's IGVM loader and KVM's
 * SNP_LAUNCH_UPDATE import them:
 * - PAGE_DATA: NORMAL with its contents; no file data: ZERO; unmeasured:
 *   UNMEASURED (its data still copied); SECRETS and CPUID pages as their
 *   types, filled by the PSP and the hypervisor; shared: copied, not
 *   launched nor measured;
 * - PARAMETER_INSERT: the declared area's pages with the loader's
 *   parameters (MEMORY_MAP, VP_COUNT_PARAMETER) written in, UNMEASURED;
 * - VP_CONTEXT: the VMSA at its GPA, launched and measured last (KVM does
 *   so at LAUNCH_FINISH) at GPA 0xFFFFFFFFF000, where the RMP records
 *   VMSA pages.
 * Invariants: a page is in RAM before it is touched, each page is
 * launched once (the RMP op says so), file data is read only inside the
 * file (the reader checked it), and a refusal leaves the reason in
 * out->why. Not yet checked against real hardware
 * (docs/running-on-snp.md).
 */
#include "svsm/psp_launch.h"

#include "svsm/igvm_reader.h"
#include "svsm/psp_model.h"
#include "svsm/std.h"

#include "psp_launch_area.h"

#define VMSA_DIGEST_GPA 0xFFFFFFFFF000ull

const char *launch_refuse(struct launch *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)fmt_vsnprintf(l->out->why, sizeof(l->out->why), fmt, ap);
	va_end(ap);
	return l->out->why;
}

static bool in_ram(const struct launch *l, uint64_t gpa)
{
	if (gpa % IGVM_PAGE != 0) {
		return false;
	}
	if (l->ops->backed != NULL) {
		return l->ops->backed(l->ops->ctx, gpa);
	}
	return gpa < l->ops->ram_size && l->ops->ram_size - gpa >= IGVM_PAGE;
}

/* The CPUID page: the hypervisor's table, every entry checked. */
static const char *cpuid_page(struct launch *l, uint64_t gpa, uint8_t *pg)
{
	const struct psp_launch_ops *o = l->ops;
	struct snp_cpuid_table t;
	uint32_t i;

	if (o->cpuid_fill == NULL) {
		return NULL;
	}
	memset(&t, 0, sizeof(t));
	o->cpuid_fill(o->ctx, &t);
	if (t.count > SNP_CPUID_MAX) {
		return launch_refuse(l, "CPUID page 0x%llx: %u entries",
				     (unsigned long long)gpa, t.count);
	}
	for (i = 0; o->cpuid_check != NULL && i < t.count; i++) {
		if (!o->cpuid_check(o->ctx, &t.fn[i])) {
			return launch_refuse(
				l,
				"CPUID page 0x%llx: the CPU refutes leaf "
				"0x%x subleaf 0x%x",
				(unsigned long long)gpa, t.fn[i].eax_in,
				t.fn[i].ecx_in);
		}
	}
	if (pg != NULL) {
		memcpy(pg, &t, sizeof(t));
	}
	return NULL;
}

const char *launch_page(struct launch *l, uint64_t gpa, enum psp_page_type t,
			const uint8_t *data, uint8_t **filled)
{
	const struct psp_launch_ops *o = l->ops;
	uint8_t *pg = NULL;
	const char *why;

	*filled = NULL;
	if (!in_ram(l, gpa)) {
		return launch_refuse(l, "page 0x%llx: not a page of guest RAM",
				     (unsigned long long)gpa);
	}
	if (o->page != NULL) {
		pg = o->page(o->ctx, gpa);
		if (pg == NULL) {
			return launch_refuse(l, "page 0x%llx: no host memory",
					     (unsigned long long)gpa);
		}
		if (data != NULL) {
			memcpy(pg, data, IGVM_PAGE);
		} else {
			memset(pg, 0, IGVM_PAGE);
		}
		if (t == PSP_PAGE_SECRETS && o->secrets_fill != NULL) {
			o->secrets_fill(o->ctx, pg);
		}
	}
	if (t == PSP_PAGE_CPUID) {
		why = cpuid_page(l, gpa, pg);
		if (why != NULL) {
			return why;
		}
	}
	*filled = pg;
	return NULL;
}

const char *launch_commit(struct launch *l, uint64_t gpa, enum psp_page_type t,
			  const uint8_t *data)
{
	const struct psp_launch_ops *o = l->ops;

	if (o->rmp_launch != NULL &&
	    !o->rmp_launch(o->ctx, gpa, t == PSP_PAGE_VMSA)) {
		return launch_refuse(l,
				     "page 0x%llx: launched twice, or not the "
				     "guest's (RMP)",
				     (unsigned long long)gpa);
	}
	if (!psp_launch_digest_page(l->out->digest,
				    t == PSP_PAGE_VMSA ? VMSA_DIGEST_GPA : gpa,
				    t, data)) {
		return launch_refuse(l, "SHA-384 failed");
	}
	l->out->pages[t]++;
	return NULL;
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

static const char *page_data(struct launch *l, const uint8_t *body)
{
	struct igvm_page_data p;
	enum psp_page_type t;
	unsigned n, k;

	memcpy(&p, body, sizeof(p));
	if (!(p.compatibility_mask & l->mask)) {
		return NULL;
	}
	t = page_type(&p);
	n = (p.flags & IGVM_PAGE_FLAG_2MB) ? 512 : 1;
	for (k = 0; k < n; k++) {
		uint64_t gpa = p.gpa + (uint64_t)k * IGVM_PAGE;
		/* Inside the file: the reader checked file_offset + n pages. */
		const uint8_t *data = p.file_offset == 0
					      ? NULL
					      : l->f.data + p.file_offset +
							(size_t)k * IGVM_PAGE;
		uint8_t *pg;
		const char *why;

		if (gpa < p.gpa) {
			return launch_refuse(l, "PAGE_DATA wraps around");
		}
		why = launch_page(l, gpa, t, data, &pg);
		if (why == NULL && !(p.flags & IGVM_PAGE_FLAG_SHARED)) {
			why = launch_commit(l, gpa, t,
					    t == PSP_PAGE_NORMAL ? data : NULL);
		}
		if (why != NULL) {
			return why;
		}
	}
	return NULL;
}

/* A VP_CONTEXT: checked now, its VMSA launched at the end. */
static const char *vp_context(struct launch *l, const uint8_t *body)
{
	struct psp_launch_result *out = l->out;
	struct igvm_vp_context v;

	memcpy(&v, body, sizeof(v));
	if (!(v.compatibility_mask & l->mask)) {
		return NULL;
	}
	if (v.file_offset == 0) {
		return launch_refuse(l, "VP_CONTEXT %u without its VMSA",
				     v.vp_index);
	}
	if (!in_ram(l, v.gpa)) {
		return launch_refuse(l,
				     "VP_CONTEXT %u: VMSA 0x%llx not a page "
				     "of guest RAM",
				     v.vp_index, (unsigned long long)v.gpa);
	}
	if (out->vmsa_count == PSP_LAUNCH_MAX_VPS) {
		return launch_refuse(l, "more than %u VP_CONTEXTs",
				     PSP_LAUNCH_MAX_VPS);
	}
	out->vmsa_gpa[out->vmsa_count] = v.gpa;
	out->vmsa_vp_index[out->vmsa_count] = v.vp_index;
	l->vmsa_off[out->vmsa_count] = v.file_offset;
	out->vmsa_count++;
	return NULL;
}

/* LAUNCH_FINISH: the VMSAs, in file order. */
static const char *launch_vmsas(struct launch *l)
{
	unsigned i;

	for (i = 0; i < l->out->vmsa_count; i++) {
		const uint8_t *data = l->f.data + l->vmsa_off[i];
		uint64_t gpa = l->out->vmsa_gpa[i];
		uint8_t *pg;
		const char *why = launch_page(l, gpa, PSP_PAGE_VMSA, data, &pg);

		if (why == NULL) {
			why = launch_commit(l, gpa, PSP_PAGE_VMSA, data);
		}
		if (why != NULL) {
			return why;
		}
	}
	return NULL;
}

static const char *platform(struct launch *l, const struct igvm_item *it)
{
	if (it->type == IGVM_VHT_SUPPORTED_PLATFORM) {
		struct igvm_supported_platform p;

		memcpy(&p, it->body, sizeof(p));
		if (p.platform_type == IGVM_PLATFORM_SEV_SNP) {
			l->mask = p.compatibility_mask;
		}
		return NULL;
	}
	/* Past the platform section: SNP's mask is known, or never is. */
	if (l->mask == 0) {
		return launch_refuse(l, "no SEV-SNP platform in the file");
	}
	if (it->type == IGVM_VHT_GUEST_POLICY) {
		struct igvm_guest_policy p;

		memcpy(&p, it->body, sizeof(p));
		if (p.compatibility_mask & l->mask) {
			l->out->policy = p.policy;
		}
	}
	return NULL;
}

static const char *directive(struct launch *l, const struct igvm_item *it)
{
	const char *why = platform(l, it);

	if (why != NULL) {
		return why;
	}
	switch (it->type) {
	case IGVM_VHT_PAGE_DATA:
		return page_data(l, it->body);
	case IGVM_VHT_PARAMETER_AREA:
		return launch_area_declare(l, it->body);
	case IGVM_VHT_MEMORY_MAP:
	case IGVM_VHT_VP_COUNT_PARAMETER:
		return launch_area_parameter(l, it->type, it->body);
	case IGVM_VHT_PARAMETER_INSERT:
		return launch_area_insert(l, it->body);
	case IGVM_VHT_VP_CONTEXT:
		return vp_context(l, it->body);
	default:
		return NULL;
	}
}

const char *psp_launch_igvm(const uint8_t *file, size_t size,
			    const struct psp_launch_ops *ops,
			    struct psp_launch_result *out)
{
	struct launch l; /* 2.5 KiB; under 6 KiB of stack in all */
	struct igvm_item it;
	const char *why = NULL;
	uint32_t pos = 0;

	memset(out, 0, sizeof(*out));
	memset(&l, 0, sizeof(l));
	l.ops = ops;
	l.out = out;
	why = igvm_open(&l.f, file, size);
	if (why != NULL) {
		return launch_refuse(&l, "IGVM file: %s", why);
	}
	while (igvm_next(&l.f, &pos, &it, &why)) {
		why = directive(&l, &it);
		if (why != NULL) {
			return why;
		}
	}
	if (why != NULL) {
		return launch_refuse(&l,
				     "IGVM structure at header offset 0x%x: %s",
				     pos, why);
	}
	if (l.mask == 0) {
		return launch_refuse(&l, "no SEV-SNP platform in the file");
	}
	return launch_vmsas(&l);
}
