/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's own port I/O through the GHCB page (ghcb.h): the IOIO NAE
 * event (56421 section 4.1.2: exit_info_1 as the SVM IOIO intercept
 * encodes it, RAX valid for OUT, RAX returned for IN). Only plain IN and
 * OUT: string I/O would have the hypervisor write a buffer.
 */
#include "svsm/check.h"
#include "svsm/terminate.h"

#include "abi/ghcb.h"

#include "ghcb.h"

static uint64_t ioio_info1(uint16_t port, unsigned size, bool in)
{
	uint64_t sz = size == 1	  ? SVM_IOIO_SZ8
		      : size == 2 ? SVM_IOIO_SZ16
				  : SVM_IOIO_SZ32;

	CHECK(size == 1 || size == 2 || size == 4);
	return ((uint64_t)port << SVM_IOIO_PORT_SHIFT) | sz | SVM_IOIO_A16 |
	       (in ? SVM_IOIO_TYPE_IN : 0);
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
