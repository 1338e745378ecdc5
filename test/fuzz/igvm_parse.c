/* SPDX-License-Identifier: MIT */
/*
 * Fuzz csvsm-igvm's reader and measurement (tools/igvm/): any bytes as an
 * IGVM file. For inputs with the magic, the harness repairs the sizes
 * and the checksum first (odd first byte of the tail), so the structure
 * walk and the measurement are reached, not only the checksum test.
 * Checks: every structure the walk returns lies inside the variable
 * header; nothing reads outside the input (ASan).
 */
#include <stdlib.h>
#include <string.h>

#include "svsm/psp_launch.h"

#include "../../tools/igvm/igvm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct igvm_fixed_header h;
	struct igvm_file f;
	static struct psp_launch_result m;
	struct psp_launch_ops ops = {.ram_size = 1ull << 52};
	struct igvm_item it;
	uint8_t *buf;
	uint32_t pos = 0;
	const char *why = NULL;

	if (size < sizeof(h) + 1 || size > (1u << 20)) {
		return 0;
	}
	buf = malloc(size - 1);
	memcpy(buf, data + 1, size - 1);
	size--;
	if (data[0] & 1) {
		memcpy(&h, buf, sizeof(h));
		h.magic = IGVM_MAGIC;
		h.format_version = IGVM_FORMAT_VERSION_1;
		h.total_file_size = (uint32_t)size;
		h.variable_header_offset = sizeof(h);
		if (h.variable_header_size > size - sizeof(h)) {
			h.variable_header_size =
				(uint32_t)(size - sizeof(h)) & ~7u;
		}
		h.checksum = 0;
		memcpy(buf, &h, sizeof(h));
		h.checksum =
			igvm_checksum(buf, sizeof(h) + h.variable_header_size);
		memcpy(buf, &h, sizeof(h));
	}
	if (igvm_open(&f, buf, size) == NULL) {
		while (igvm_next(&f, &pos, &it, &why)) {
			if (it.offset < f.hdr.variable_header_offset ||
			    (uint64_t)it.offset + 8 + it.length >
				    (uint64_t)f.hdr.variable_header_offset +
					    f.hdr.variable_header_size) {
				abort();
			}
		}
		(void)psp_launch_igvm(buf, size, &ops, &m);
	}
	free(buf);
	return 0;
}
