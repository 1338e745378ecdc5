/* SPDX-License-Identifier: MIT */
/*
 * Verify the evidence for an EK certificate (evidence.h). Every check
 * runs on bytes the relying party holds; the first that fails is named.
 * Threats: the guest OS (VMPL1) asks for its own report with a made-up
 * manifest (refused: VMPL must be 0, only the SVSM holds VMPCK0); another
 * image at VMPL0 vouches for a key it made (refused: MEASUREMENT); a
 * debug-policy guest whose memory the host reads (refused: the EK's
 * private part would not be the vTPM's alone); a replayed report
 * (refused: REPORT_DATA binds the relying party's fresh nonce).
 */
#include "evidence.h"

#include <string.h>

#include "abi/svsm_attest.h"

#define SNP_POLICY_DEBUG (1ull << 19) /* 56860 Table 9 */

static bool fail_with(struct evidence_failure *fail, const char *check,
		      const char *expected)
{
	fail->check = check;
	fail->expected = expected;
	return false;
}

/* verify_emit that keeps the first failed check. */
static void first_failure(void *ctx, const char *name, bool ok,
			  const char *what)
{
	struct evidence_failure *fail = ctx;

	if (!ok && fail->check == NULL) {
		fail->check = name;
		fail->expected = what;
	}
}

/* The chain, the report's signature and the VCEK's binding to it:
 * csvsm-verify's checks, in its order (verify_signed_report). */
static bool verify_signed(const struct evidence *ev,
			  const struct report_fields *f,
			  struct evidence_failure *fail)
{
	fail->check = NULL;
	fail->expected = NULL;
	verify_signed_report(ev->ark, ev->ask, ev->vcek, ev->report, f,
			     first_failure, fail);
	return fail->check == NULL;
}

bool evidence_verify(const struct evidence *ev, struct manifest *m,
		     struct evidence_failure *fail)
{
	static const uint8_t vtpm_guid[16] = SVSM_VTPM_SERVICE_GUID;
	struct report_fields f;
	const char *why;

	m->count = 0;
	report_decode(ev->report, &f);
	if (!verify_signed(ev, &f, fail)) {
		return false;
	}
	if (f.vmpl != 0) {
		return fail_with(fail, "vmpl",
				 "VMPL 0: a report the SVSM asked for");
	}
	if ((f.policy & SNP_POLICY_DEBUG) != 0) {
		return fail_with(fail, "policy-debug",
				 "a guest policy without DEBUG (the host "
				 "could read the EK's private key)");
	}
	if (memcmp(f.measurement, ev->measurement, SNP_MEASUREMENT_LEN) != 0) {
		return fail_with(fail, "measurement",
				 "MEASUREMENT equals the trusted image's");
	}
	if (!verify_report_data(ev->nonce, ev->nonce_len, ev->manifest,
				ev->manifest_len, &f)) {
		return fail_with(fail, "report-data",
				 "REPORT_DATA equals SHA-512(nonce || "
				 "manifest)");
	}
	if (ev->single) {
		/* SAFE: the whole manifest is the vTPM's blob. */
		if (ev->manifest_len == 0 || ev->manifest_len > UINT32_MAX) {
			return fail_with(fail, "manifest-format",
					 "a non-empty vTPM manifest");
		}
		memcpy(m->entry[0].guid, vtpm_guid, 16);
		m->entry[0].data = ev->manifest;
		m->entry[0].len = (uint32_t)ev->manifest_len;
		m->count = 1;
		return true;
	}
	why = manifest_parse(ev->manifest, ev->manifest_len, m);
	if (why != NULL) {
		return fail_with(fail, "manifest-format", why);
	}
	return true;
}
