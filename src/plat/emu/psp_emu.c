/* SPDX-License-Identifier: MIT */
/*
 * The emulated PSP on emu (svsm/psp_model.h), behind plat_guest_request.
 * There is no hypervisor below the SVSM here: QEMU runs the firmware,
 * and the firmware plays the host's part too, so the request reaches the
 * model directly. The model's keys (VMPCKs, chip secret) come from
 * RDRAND at boot; its VCEK is the build's TEST key.
 *
 * MEASUREMENT on emu is the launch digest of the firmware's code and
 * read-only data, page by page as NORMAL pages at their addresses
 * (computed at the first request: those pages never change). The data
 * pages are not measured: the firmware writes them before any PSP could.
 */
#include "svsm/plat.h"
#include "svsm/psp_model.h"
#include "svsm/std.h"

#include "abi/svsm_attest.h"

#include "emu_psp.h"

extern const uint8_t __image_start[], __rodata_end[];

/* The guest policy reported: SMT allowed, bit 17 (reserved, 1). */
#define EMU_GUEST_POLICY 0x30000ull
#define PAGE 4096u

static struct psp_model emu_psp;
static bool measured;

void emu_psp_init(const uint8_t *entropy, uint8_t vmpck[4][32])
{
	psp_init(&emu_psp, &psp_test_identity, entropy, EMU_GUEST_POLICY);
	memcpy(vmpck, emu_psp.vmpck, sizeof(emu_psp.vmpck));
}

static void measure(void)
{
	const uint8_t *p;

	for (p = __image_start; p < __rodata_end; p += PAGE) {
		(void)psp_launch_digest_page(emu_psp.measurement,
					     (uint64_t)(uintptr_t)p,
					     PSP_PAGE_NORMAL, p);
	}
	measured = true;
}

uint64_t plat_guest_request(const void *req, void *rsp, void *certs,
			    size_t *certs_len)
{
	if (!measured) {
		measure();
	}
	return psp_host_guest_request(&emu_psp, req, rsp, certs, certs_len);
}
