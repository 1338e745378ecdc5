/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's own port I/O through the GHCB page (ghcb.h): the IOIO NAE
 * event (56421 section 4.1.2: exit_info_1 as the SVM IOIO intercept
 * encodes it, RAX valid for OUT, RAX returned for IN), and string input
 * into the GHCB's own shared buffer, which the hypervisor writes anyway:
 * it never names SVSM or guest memory.
 */
#include "svsm/check.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"

#include "ghcb.h"

static uint64_t ioio_info1(uint16_t port, unsigned size, bool in)
{
	uint64_t sz = size == 1	  ? SVM_IOIO_SZ8
		      : size == 2 ? SVM_IOIO_SZ16
				  : SVM_IOIO_SZ32;

	CHECK(size == 1 || size == 2 || size == 4);
	return SVM_IOIO_INFO1(port, sz, in);
}

void ghcb_io_out(struct ghcb_cpu *g, uint16_t port, unsigned size, uint32_t val)
{
	struct ghcb_in in = {.exit_code = SVM_EXIT_IOIO,
			     .info1 = ioio_info1(port, size, false),
			     .rax = val,
			     .has_rax = true};
	struct ghcb_out out;

	ghcb_call(g, &in, &out);
}

uint32_t ghcb_io_in(struct ghcb_cpu *g, uint16_t port, unsigned size)
{
	struct ghcb_in in = {.exit_code = SVM_EXIT_IOIO,
			     .info1 = ioio_info1(port, size, true)};
	struct ghcb_out out;
	uint32_t mask = size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;

	ghcb_call(g, &in, &out);
	if (!out.has_rax) {
		SNP_TERMINATE_HV(TERM_CSVSM_GHCB_RESPONSE,
				 "ghcb: IN from port 0x%x answered without RAX",
				 port);
	}
	return (uint32_t)out.rax & mask;
}

bool ghcb_io_ins8(struct ghcb_cpu *g, uint16_t port, uint8_t *dst, size_t count)
{
	struct ghcb_in in = {
		.exit_code = SVM_EXIT_IOIO,
		.info1 =
			ioio_info1(port, 1, true) | SVM_IOIO_STR | SVM_IOIO_REP,
		.info2 = count,
		.scratch = gpa_val(g->gpa) + GHCB_OFF_SHARED_BUFFER,
		.has_scratch = true,
		.want_buf = true,
		.may_refuse = true,
	};
	struct ghcb_out out;

	_Static_assert(sizeof(out.buf) == GHCB_SHARED_BUFFER_SIZE,
		       "the reply's buffer is the scratch area");
	CHECK(count != 0 && count <= GHCB_SHARED_BUFFER_SIZE);
	ghcb_call(g, &in, &out);
	if ((uint32_t)out.info1 != GHCB_RESULT_OK) {
		return false;
	}
	/* The one copy of the reply's buffer (ghcb_call) holds the bytes. */
	memcpy(dst, out.buf, count);
	return true;
}
