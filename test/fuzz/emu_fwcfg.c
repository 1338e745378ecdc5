/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the emulated machine's fw_cfg view for its guest
 * (emu/src/hv/dev/hv_fwcfg_view.c, built hosted as its unit test builds it),
 * whose inputs are the host's: QEMU's fw_cfg directory, the guest
 * kernel's bzImage header and sizes, and the guest's access offsets.
 * Checks: the guest's directory never exceeds its room, holds no hidden
 * file and every extra file; a kernel presented has a setup and a kernel
 * part that add up to the file, a kernel refused presents nothing; an
 * access never reports more bytes than the item has left.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../emu/src/hv/dev/hv_fwcfg_view.c"

#define DIR_MAX 16u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_dir(const uint8_t *data, size_t size)
{
	struct hv_fwcfg_file in[DIR_MAX], extra[2], out[DIR_MAX];
	uint32_t n = (uint32_t)(size / sizeof(in[0]));
	uint32_t cap = size > 0 ? data[0] % (DIR_MAX + 1) : 0;
	uint32_t count, i, j;

	if (n > DIR_MAX) {
		n = DIR_MAX;
	}
	memcpy(in, data, n * sizeof(in[0]));
	memset(extra, 0, sizeof(extra));
	memcpy(extra[0].name, "etc/e820", sizeof("etc/e820"));
	extra[0].key_be = 0xFF00;
	memcpy(extra[1].name, "opt/csvsm/guest-extra",
	       sizeof("opt/csvsm/guest-extra"));
	extra[1].key_be = 0xFF01;
	count = hv_fwcfg_dir(in, n, extra, 2, out, cap);
	if (count > cap) {
		abort();
	}
	for (i = 0; i < count; i++) {
		bool is_extra = false;

		for (j = 0; j < 2; j++) {
			is_extra = is_extra || memcmp(&out[i], &extra[j],
						      sizeof(out[i])) == 0;
		}
		if (!is_extra && hv_fwcfg_hidden(out[i].name)) {
			abort(); /* a hidden file shown */
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hv_fwcfg_linux l;
	uint64_t sizes[4];
	uint32_t avail = 0, len, off, want, next;
	const char *why;

	if (size < sizeof(sizes) + 12) {
		return 0;
	}
	memcpy(sizes, data, sizeof(sizes));
	memcpy(&len, data + 32, 4);
	memcpy(&off, data + 36, 4);
	memcpy(&want, data + 40, 4);
	data += sizeof(sizes) + 12;
	size -= sizeof(sizes) + 12;

	why = hv_fwcfg_linux(data, size, sizes[0], sizes[1] >> 20,
			     sizes[2] >> 40, sizes[3], &l);
	if (why != NULL) {
		static const struct hv_fwcfg_linux none;

		if (memcmp(&l, &none, sizeof(l)) != 0) {
			abort(); /* a refused kernel presents nothing */
		}
	} else if ((uint64_t)l.setup_size + l.kernel_size != sizes[0] ||
		   l.setup_size == 0) {
		abort(); /* the two parts are the file */
	}

	next = hv_fwcfg_advance(len, off, want, &avail);
	if (avail > want || (off < len && avail > len - off) ||
	    (off >= len && (avail != 0 || next != off))) {
		abort();
	}
	check_dir(data, size);
	return 0;
}
