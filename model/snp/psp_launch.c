/* SPDX-License-Identifier: MIT */
/*
 * The PSP's launch of an IGVM image (model/psp_launch.h), in the order a
 * QEMU (10.x, backends/igvm.c) + KVM (arch/x86/kvm/svm/sev.c) host hands
 * pages to SNP_LAUNCH_UPDATE, which is not quite file order:
 * - PAGE_DATA: QEMU gathers consecutive like pages into a region and
 *   hands it over when a page that does not extend it arrives, or the
 *   file ends; so a PARAMETER_INSERT between two pages is measured
 *   before the pages ahead of it. NORMAL with its contents; no file
 *   data: NORMAL with zeros (QEMU never uses the ZERO type); unmeasured:
 *   UNMEASURED (its data still copied); SECRETS and CPUID pages as their
 *   types, filled by the PSP and the hypervisor; the shared flag changes
 *   nothing (qigvm_type_to_cgs_type() ignores it: QEMU launches such a
 *   page private);
 * - PARAMETER_INSERT, at once: the declared area's pages with the
 *   loader's parameters (MEMORY_MAP, VP_COUNT_PARAMETER) written in,
 *   UNMEASURED;
 * - VP_CONTEXT: checked as QEMU checks it; at LAUNCH_FINISH one VMSA per
 *   vCPU as KVM rebuilds it (psp_launch_vmsa.c), measured at GPA
 *   0xFFFFFFFFF000, where the RMP records VMSA pages.
 * Invariants: a page is in RAM before it is touched, each page is
 * launched once (the RMP op says so), file data is read only inside the
 * file (the reader checked it), and a refusal leaves the reason in
 * out->why. Not yet checked against real hardware
 * (docs/running-on-snp.md, "The launch digest").
 */
#include "model/psp_launch.h"

#include "svsm/std.h"

#include "model/igvm_reader.h"
#include "model/psp_model.h"

#include "psp_launch_area.h"
#include "psp_launch_page.h"
#include "psp_launch_vmsa.h"

/* The page type KVM launches a PAGE_DATA as. QEMU hands pages without
 * file data to KVM as NORMAL pages of zeros, not as ZERO pages
 * (target/i386/sev.c, cgs_set_guest_state(): CGS_PAGE_TYPE_ZERO goes to
 * launch_update_data like NORMAL), so the digest has SHA-384 of a zero
 * page for them. */
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
	return PSP_PAGE_NORMAL;
}

static unsigned run_pages(const struct igvm_page_data *p)
{
	return (p->flags & IGVM_PAGE_FLAG_2MB) ? 512 : 1;
}

/* Launch the pages of the pending run, in file order, as KVM's
 * SNP_LAUNCH_UPDATE walks the region QEMU hands it. */
static const char *run_flush(struct launch *l)
{
	static const uint8_t zero[IGVM_PAGE];
	uint32_t pos = l->run_pos, n;
	struct igvm_item it;
	const char *why = NULL;

	for (n = 0; n < l->run_count; n++) {
		struct igvm_page_data p;
		enum psp_page_type t;
		unsigned k;

		/* The same items the loop read: the reader checked them. */
		if (!igvm_next(&l->f, &pos, &it, &why) ||
		    it.type != IGVM_VHT_PAGE_DATA) {
			return launch_refuse(l, "the IGVM file changed");
		}
		memcpy(&p, it.body, sizeof(p));
		t = page_type(&p);
		for (k = 0; k < run_pages(&p); k++) {
			const uint8_t *data =
				p.file_offset == 0
					? zero
					: l->f.data + p.file_offset +
						  (size_t)k * IGVM_PAGE;

			why = launch_commit(l, p.gpa + (uint64_t)k * IGVM_PAGE,
					    t,
					    t == PSP_PAGE_NORMAL ? data : NULL);
			if (why != NULL) {
				return why;
			}
		}
	}
	l->run_count = 0;
	return NULL;
}

/* Whether @p extends the pending run, as qigvm_process_mem_page() and
 * qigvm_page_attrs_equal() decide: the next directive, the next GPA, the
 * same flags, type and mask, and file data in both or in neither. */
static bool run_extends(const struct launch *l, const struct igvm_page_data *p)
{
	const struct igvm_page_data *q = &l->run_prev;

	return l->run_count > 0 && l->run_last + 1 == l->index &&
	       q->gpa + (uint64_t)run_pages(q) * IGVM_PAGE == p->gpa &&
	       q->flags == p->flags && q->data_type == p->data_type &&
	       q->compatibility_mask == p->compatibility_mask &&
	       (q->file_offset == 0) == (p->file_offset == 0);
}

/* A PAGE_DATA at header offset @pos: its pages filled now, launched with
 * its run. */
static const char *page_data(struct launch *l, const uint8_t *body,
			     uint32_t pos)
{
	struct igvm_page_data p;
	enum psp_page_type t;
	unsigned k;

	memcpy(&p, body, sizeof(p));
	if (!(p.compatibility_mask & l->mask)) {
		return NULL;
	}
	if (!run_extends(l, &p)) {
		const char *why = run_flush(l);

		if (why != NULL) {
			return why;
		}
		l->run_pos = pos;
	}
	l->run_count++;
	l->run_last = l->index;
	l->run_prev = p;
	t = page_type(&p);
	for (k = 0; k < run_pages(&p); k++) {
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
		if (why != NULL) {
			return why;
		}
	}
	return NULL;
}

/* A VP_CONTEXT: checked now, as QEMU checks it; its VMSA launched at the
 * end. */
static const char *vp_context(struct launch *l, const uint8_t *body)
{
	static struct snp_vmsa v; /* one launch at a time */
	struct igvm_vp_context c;
	uint32_t n = l->ops->vp_count != 0 ? l->ops->vp_count : 1;

	memcpy(&c, body, sizeof(c));
	if (!(c.compatibility_mask & l->mask)) {
		return NULL;
	}
	if (c.file_offset == 0) {
		return launch_refuse(l, "VP_CONTEXT %u without its VMSA",
				     c.vp_index);
	}
	if (c.vp_index >= n || c.vp_index >= PSP_LAUNCH_MAX_VPS) {
		return launch_refuse(l, "VP_CONTEXT %u for a guest of %u vCPUs",
				     c.vp_index, n);
	}
	if (l->vmsa_off[c.vp_index] != 0) {
		return launch_refuse(l, "two VP_CONTEXTs for vCPU %u",
				     c.vp_index);
	}
	/* The reader checked a page of file data at file_offset. */
	memcpy(&v, l->f.data + c.file_offset, sizeof(v));
	l->vmsa_off[c.vp_index] = c.file_offset;
	return launch_vmsa_accept(l, c.gpa, c.vp_index, &v);
}

/* LAUNCH_FINISH: a VMSA for every vCPU in index order, as KVM measures
 * them (snp_launch_update_vmsa()), each at GPA 0xFFFFFFFFF000. */
static const char *launch_vmsas(struct launch *l)
{
	static struct snp_vmsa img, v; /* one launch at a time */
	const struct psp_launch_ops *o = l->ops;
	uint32_t n = o->vp_count != 0 ? o->vp_count : 1, vp;
	uint64_t features;

	if (n > PSP_LAUNCH_MAX_VPS) {
		return launch_refuse(l, "%u vCPUs, more than %u", n,
				     PSP_LAUNCH_MAX_VPS);
	}
	if (l->vmsa_off[0] == 0) {
		return launch_refuse(l, "no VP_CONTEXT for the boot CPU");
	}
	/* QEMU gives KVM_SEV_INIT2 the boot CPU's features, for all. */
	memcpy(&img, l->f.data + l->vmsa_off[0], sizeof(img));
	features = img.sev_features;
	for (vp = 0; vp < n; vp++) {
		uint64_t gpa = IGVM_SNP_VMSA_GPA;
		uint8_t *pg = NULL;
		const char *why = NULL;

		if (l->vmsa_off[vp] != 0) {
			memcpy(&img, l->f.data + l->vmsa_off[vp], sizeof(img));
		}
		launch_vmsa_build(l->vmsa_off[vp] != 0 ? &img : NULL,
				  o->cpu_signature, features, &v);
		if (o->vmsa_home != NULL && o->page != NULL) {
			gpa = o->vmsa_home(o->ctx, vp);
			why = launch_page(l, gpa, PSP_PAGE_VMSA,
					  (const uint8_t *)&v, &pg);
		}
		if (why == NULL) {
			why = launch_commit(l, gpa, PSP_PAGE_VMSA,
					    (const uint8_t *)&v);
		}
		if (why != NULL) {
			return why;
		}
		l->out->vmsa_gpa[vp] = gpa;
		l->out->vmsa_count++;
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

static const char *directive(struct launch *l, const struct igvm_item *it,
			     uint32_t pos)
{
	const char *why = platform(l, it);

	if (why != NULL) {
		return why;
	}
	switch (it->type) {
	case IGVM_VHT_PAGE_DATA:
		return page_data(l, it->body, pos);
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
	uint32_t pos = 0, at = 0;

	memset(out, 0, sizeof(*out));
	memset(&l, 0, sizeof(l));
	l.ops = ops;
	l.out = out;
	why = igvm_open(&l.f, file, size);
	if (why != NULL) {
		return launch_refuse(&l, "IGVM file: %s", why);
	}
	while (igvm_next(&l.f, &pos, &it, &why)) {
		l.index++;
		why = directive(&l, &it, at);
		at = pos;
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
	why = run_flush(&l);
	return why != NULL ? why : launch_vmsas(&l);
}
