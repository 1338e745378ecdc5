/* SPDX-License-Identifier: MIT */
/*
 * One page of the PSP's launch (psp_launch_page.h), what SNP_LAUNCH_UPDATE
 * does for each page every directive hands it: the page must be a page of
 * guest RAM; its host page is filled (the file's data or zeros, then the
 * PSP's secrets or the hypervisor's CPUID table, every entry checked
 * against the CPU); then the RMP launches it, once, and its contents
 * extend the digest. Threat: the IGVM file and the CPUID table are the
 * host's; a refusal names the page and leaves the reason in out->why.
 */
#include "psp_launch_page.h"

#include "svsm/std.h"

#include "model/igvm_reader.h"
#include "model/psp_model.h"

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
	if (!psp_launch_digest_page(
		    l->out->digest,
		    t == PSP_PAGE_VMSA ? IGVM_SNP_VMSA_GPA : gpa, t, data)) {
		return launch_refuse(l, "SHA-384 failed");
	}
	l->out->pages[t]++;
	return NULL;
}
