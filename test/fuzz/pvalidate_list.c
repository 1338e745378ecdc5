/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the PVALIDATE list parser: the input is the list (header and
 * entries) the guest puts at a fuzzer-chosen 8-byte offset of a validated
 * page; entry frames are folded into guest memory half the time. Checks
 * the pure header rules against the call's result, `next` staying within
 * the list, and the machine's invariants.
 */
#include <stdint.h>
#include <string.h>

#include "svsm/guest_list.h"

#include "abi/svsm_call.h"

#include "fuzz_harness.h"

#define LIST_PAGE 0x100000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t page[4096];
	struct sim_machine *m;
	struct sim_regs r = {0};
	uint64_t list_off;
	uint16_t entries;
	uint16_t next;
	size_t i;

	if (size < 4) {
		return 0;
	}
	m = fuzz_machine(1);
	list_off = ((uint64_t)data[0] * 8u) % 4096u;
	memset(page, 0, sizeof(page));
	memcpy(page + list_off, data + 2,
	       size - 2 < 4096 - list_off ? size - 2 : 4096 - list_off);
	if (data[1] & 1) {
		/* Fold entry frames into guest memory, keep the flag bits. */
		for (i = list_off + 8; i + 8 <= 4096; i += 8) {
			uint64_t e;

			memcpy(&e, page + i, 8);
			e = (e & 0xFFFull) | ((e % FUZZ_MEM) & ~0xFFFull);
			memcpy(page + i, &e, 8);
		}
	}
	/* Validate the list's page through the SVSM, then plant the list. */
	{
		uint64_t caa = sim_current_caa_gpa(m, 0);
		uint64_t hdr = 1;
		uint64_t e = LIST_PAGE | 4;
		struct sim_regs v = {.rax = SVSM_CALL(0, 1), .rcx = caa + 8};

		(void)sim_mem_write(m, caa + 8, &hdr, 8);
		(void)sim_mem_write(m, caa + 16, &e, 8);
		if (sim_call(m, 0, &v) != SIM_OK || v.rax != 0) {
			abort();
		}
	}
	if (sim_mem_write(m, LIST_PAGE, page, sizeof(page)) != SIM_OK) {
		abort();
	}
	memcpy(&entries, page + list_off, 2);
	memcpy(&next, page + list_off + 2, 2);
	r.rax = SVSM_CALL(0, 1);
	r.rcx = LIST_PAGE + list_off;
	if (sim_call(m, 0, &r) == SIM_OK) {
		uint16_t after = 0;
		int hdr_ok = guest_list_check(list_off, entries, next) == 0;

		if (!fuzz_result_is_known((unsigned)r.rax) ||
		    (!hdr_ok &&
		     (unsigned)r.rax != SVSM_ERR_INVALID_PARAMETER)) {
			abort();
		}
		/* `next` is written back within [next, entries] unless the
		 * list page itself was invalidated by one of its entries. */
		if (hdr_ok &&
		    sim_mem_read(m, LIST_PAGE + list_off + 2, &after, 2) ==
			    SIM_OK &&
		    (after < next || after > entries)) {
			abort();
		}
	}
	fuzz_check(m);
	sim_destroy(m);
	return 0;
}
