/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the snp platform's GHCB client (src/plat/snp/) with hostile
 * replies: after an honest boot, every NAE event is answered with the
 * fuzzer's page (valid bitmap, exit_info fields, PSC buffer, RBX) and
 * GHCB MSR value, for PSC, run VMPL, guest requests, AP creation and the
 * #VC paths (RDMSR, IN) and the SVSM's own MMIO (its storage device's
 * registers, ghcb_mmio.c). The client must either accept a reply that follows
 * the protocol or terminate with a GHCB, PSC or run-VMPL reason; nothing else
 * (a crash, a sanitizer report, another termination) is allowed, and an
 * accepted PSC must have left the pages private and validated.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "svsm/terminate.h"

#include "../../src/plat/snp/ghcb.h"
#include "../../src/plat/snp/vc.h"
#include "fuzz_harness.h"

#define GHCB_GPA 0x200000ull /* below the fuzz machine's SVSM region */
#define PAGES_GPA 0x100000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ghcb_cpu cpu;
static uint8_t op;

static void boot(void *arg)
{
	(void)arg;
	(void)ghcb_msr_negotiate();
	(void)ghcb_msr_hv_features();
	ghcb_cpu_init(&cpu, gpa_init(GHCB_GPA - 0x1000));
}

static void act(void *arg)
{
	uint64_t pages = 4;

	static const uint8_t rdmsr[16] = {0x0F, 0x32};
	static const uint8_t in_eax_dx[16] = {0xED};
	static struct snp_cpuid_table none;
	struct vc_regs r = {.rcx = 0xC0010131, .rdx = 0x3F8};
	uint32_t v = 0;

	(void)arg;
	switch (op % 8) {
	case 6:
		(void)ghcb_mmio_read(&cpu, gpa_init(0xFEF00000ull), 4, &v);
		break;
	case 7:
		(void)ghcb_mmio_write(&cpu, gpa_init(0xFEF00050ull), 4, 0);
		break;
	case 4:
		snp_vc_handle(&cpu, &none, &r, 0x7C, rdmsr);
		break;
	case 5:
		snp_vc_handle(&cpu, &none, &r, 0x7B, in_eax_dx);
		break;
	case 0:
		snp_make_private(&cpu, gpa_init(PAGES_GPA), 1 + op / 4 % 8u);
		break;
	case 1:
		ghcb_run_vmpl(&cpu, 1);
		break;
	case 2:
		(void)ghcb_guest_request(&cpu, gpa_init(PAGES_GPA),
					 gpa_init(PAGES_GPA + 0x1000),
					 gpa_init(PAGES_GPA + 0x2000), &pages);
		break;
	default:
		ghcb_ap_create(&cpu, 1, gpa_init(PAGES_GPA), 0, 1);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_machine *m;
	uint32_t set = 0, code = 0;
	uint64_t msr = GHCB_GPA - 0x1000;

	if (size < 2) {
		return 0;
	}
	m = fuzz_machine(1);
	if (!sim_snp_run(m, boot, NULL, NULL, NULL)) {
		abort();
	}
	op = data[0];
	if ((data[1] & 1) != 0 && size >= 10) {
		memcpy(&msr, data + 2, 8); /* a changed GHCB MSR too */
	}
	sim_ghcb_fuzz_reply(m, data + 2, size - 2, msr);
	if (sim_snp_run(m, act, NULL, &set, &code)) {
		struct sim_rmp_info i;
		unsigned k;

		for (k = 0; op % 8 == 0 && k < 1 + op / 4 % 8u; k++) {
			if (!sim_rmp_query(m, PAGES_GPA + k * 0x1000ull, &i) ||
			    !i.assigned || !i.validated) {
				fprintf(stderr, "accepted PSC left page %u\n",
					k);
				abort();
			}
		}
	} else if (set != TERM_SET_CSVSM ||
		   (code != TERM_CSVSM_GHCB_RESPONSE &&
		    code != TERM_CSVSM_PSC_FAILED &&
		    code != TERM_CSVSM_RUN_VMPL_REFUSED)) {
		fprintf(stderr, "termination %u/%u\n", set, code);
		abort();
	}
	fuzz_check(m);
	sim_destroy(m);
	return 0;
}
