/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the bzImage setup header parser (src/lib/bzimage.c), which
 * csvsm-igvm runs on any file it is given and the snp firmware on the
 * measured header copy. Checks on an accepted header: a header end in
 * 0x264..0x290 and within the input, protocol 2.12+, XLF_KERNEL_64, a
 * power-of-two alignment; the release parser stays inside the setup
 * code. Reproducers: test/fuzz/regress/fuzz-bzimage/.
 */
#include "svsm/bzimage.h"

#include <stdlib.h>

#include "abi/linux_boot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bzimage_hdr h;
	unsigned major, minor;

	if (bzimage_parse(data, size, &h) != NULL) {
		return 0;
	}
	if (h.hdr_end < LINUX_HDR_MIN_END || h.hdr_end > 0x290 ||
	    h.hdr_end > size || h.version < LINUX_HDR_VERSION_MIN ||
	    (h.xloadflags & LINUX_XLF_KERNEL_64) == 0 ||
	    (h.kernel_alignment & (h.kernel_alignment - 1)) != 0 ||
	    h.setup_size < 2 * 512 || h.setup_size < h.hdr_end) {
		abort();
	}
	(void)bzimage_release(data, size, &h, &major, &minor);
	return 0;
}
