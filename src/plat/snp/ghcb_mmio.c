/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's own MMIO through the GHCB page (ghcb.h): the MMIO read and
 * write NAE events (56421 section 4.1.5: exit_info_1 the GPA,
 * exit_info_2 the length, the data in the GHCB's shared buffer named by
 * sw_scratch), for the SVSM's devices, never a guest's. ghcb_call()
 * checks the reply's valid bits and result; a MALFORMED result (the host
 * serves no MMIO there) comes back as false, and what a read returns is
 * the host's (T18), copied out of the shared page once.
 */
#include "svsm/check.h"
#include "svsm/std.h"

#include "abi/ghcb.h"

#include "ghcb.h"

static struct ghcb_in mmio_in(const struct ghcb_cpu *g, bool write, gpa_t gpa,
			      unsigned size)
{
	struct ghcb_in in = {
		.exit_code =
			write ? SVM_VMGEXIT_MMIO_WRITE : SVM_VMGEXIT_MMIO_READ,
		.info1 = gpa_val(gpa),
		.info2 = size,
		.scratch = gpa_val(g->gpa) + GHCB_OFF_SHARED_BUFFER,
		.has_scratch = true,
		.may_refuse = true,
	};

	CHECK(size == 1 || size == 2 || size == 4);
	return in;
}

bool ghcb_mmio_read(struct ghcb_cpu *g, gpa_t gpa, unsigned size, uint32_t *val)
{
	struct ghcb_in in = mmio_in(g, false, gpa, size);
	struct ghcb_out out;

	in.want_buf = true;
	ghcb_call(g, &in, &out);
	if ((uint32_t)out.info1 != GHCB_RESULT_OK) {
		return false;
	}
	/* The one copy of the reply's buffer (ghcb_call) holds the data,
	 * little-endian as x86 reads it. */
	*val = 0;
	memcpy(val, out.buf, size);
	return true;
}

bool ghcb_mmio_write(struct ghcb_cpu *g, gpa_t gpa, unsigned size, uint32_t val)
{
	struct ghcb_in in = mmio_in(g, true, gpa, size);
	struct ghcb_out out;

	in.buf = &val;
	in.buf_len = size;
	ghcb_call(g, &in, &out);
	return (uint32_t)out.info1 == GHCB_RESULT_OK;
}
