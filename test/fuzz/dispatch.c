/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the request dispatcher: each 64-byte record is one SVSM call from a
 * vCPU with fuzzer-chosen registers, plus 24 bytes planted in the caller's
 * CA buffer (a list header and two entries). Addresses are folded into
 * guest memory half of the time so they hit real pages.
 */
#include <stdint.h>
#include <string.h>

#include "abi/snp.h"
#include "abi/svsm_call.h"

#include "fuzz_harness.h"

struct record {
	uint8_t vcpu;
	uint8_t fold; /* bit n: fold register n into guest memory */
	uint8_t protocol;
	uint8_t pad;
	uint32_t call;
	uint64_t rcx, rdx, r8, r9;
	uint8_t ca_data[24];
};

_Static_assert(sizeof(struct record) == 64, "record size");

static uint64_t fold(uint64_t v, int yes)
{
	return yes ? v % FUZZ_MEM : v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_machine *m = fuzz_machine(2);
	size_t off;

	for (off = 0; off + sizeof(struct record) <= size && off < 64 * 32;
	     off += sizeof(struct record)) {
		struct record rec;
		struct sim_regs r;
		unsigned vcpu;

		memcpy(&rec, data + off, sizeof(rec));
		vcpu = rec.vcpu % 2;
		if (sim_vcpu_has_caa(m, vcpu)) {
			(void)sim_mem_write(m, sim_current_caa_gpa(m, vcpu) + 8,
					    rec.ca_data, sizeof(rec.ca_data));
		}
		r.rax = SVSM_CALL(rec.protocol % 4, rec.call % 16 == 15
							    ? rec.call
							    : rec.call % 16);
		r.rcx = fold(rec.rcx, rec.fold & 1);
		r.rdx = fold(rec.rdx, rec.fold & 2);
		r.r8 = fold(rec.r8, rec.fold & 4);
		r.r9 = fold(rec.r9, rec.fold & 8);
		if (sim_call(m, vcpu, &r) == SIM_OK &&
		    !fuzz_result_is_known((unsigned)r.rax)) {
			abort();
		}
		if ((rec.fold & 0x10) && vcpu == 0 && r.rax == 0 &&
		    rec.protocol % 4 == 0 && rec.call % 16 == 2) {
			/* A created vCPU: let the hypervisor run it. */
			(void)sim_ap_create(m, 1, r.rcx, r.rdx);
		}
		fuzz_check(m);
	}
	sim_destroy(m);
	return 0;
}
