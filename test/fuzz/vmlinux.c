/* SPDX-License-Identifier: MIT */
/*
 * Fuzz csvsm-igvm's reader of a bzImage's kernel proper
 * (tools/igvm/vmlinux.c), which --linux-entry startup_64 runs on any
 * file it is given. The first byte picks the stage: the ELF parser and
 * layout (checked on acceptance: segments ascending, disjoint, inside
 * the input, the entry inside their bytes, the span covering them; the
 * flattened image written within its length), the decompressor (its
 * output no longer than the limit), or the whole path from a bzImage
 * (header, payload bounds, decompression, ELF). Reproducers:
 * test/fuzz/regress/fuzz-vmlinux/.
 */
#include "../../tools/igvm/vmlinux.h"

#include <stdbool.h>
#include <stdlib.h>

#include "svsm/bzimage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The decompressor's limit here: small, so a fuzzed size cannot make
 * the run allocate much. */
#define FUZZ_MAX_OUT (1u << 20)

static void check_parsed(const uint8_t *elf, size_t len,
			 const struct vmlinux *v)
{
	uint64_t end = 0;
	bool entry_in = false;
	uint8_t *out;
	unsigned i;

	if (v->nseg == 0 || v->nseg > VMLINUX_MAX_SEGS ||
	    v->base % 0x200000 != 0 || v->span % 4096 != 0 ||
	    v->span < v->image_len || v->span > VMLINUX_MAX_SPAN) {
		abort();
	}
	for (i = 0; i < v->nseg; i++) {
		const struct vmlinux_segment *s = &v->seg[i];

		if (s->paddr < end || s->paddr % 4096 != 0 ||
		    s->filesz > s->memsz || s->data < elf ||
		    (size_t)(s->data - elf) > len ||
		    s->filesz > len - (size_t)(s->data - elf) ||
		    s->paddr + s->memsz - v->base > v->span ||
		    s->paddr + s->filesz - v->base > v->image_len) {
			abort();
		}
		end = s->paddr + s->memsz;
		entry_in =
			entry_in || (v->base + v->entry >= s->paddr &&
				     v->base + v->entry - s->paddr < s->filesz);
	}
	if (!entry_in) {
		abort();
	}
	/* image_len is at most 1 GiB: lay it out only when small. */
	if (v->image_len <= (16u << 20)) {
		out = malloc(v->image_len);
		if (out == NULL) {
			abort();
		}
		vmlinux_flatten(v, out);
		free(out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vmlinux v;
	struct bzimage_hdr h;
	const uint8_t *p = NULL;
	uint8_t *out = NULL;
	size_t plen = 0, out_len = 0;

	if (size < 1) {
		return 0;
	}
	switch (data[0] % 3) {
	case 0:
		if (vmlinux_parse(data + 1, size - 1, &v) == NULL) {
			check_parsed(data + 1, size - 1, &v);
		}
		break;
	case 1:
		if (vmlinux_decompress(data + 1, size - 1, FUZZ_MAX_OUT, &out,
				       &out_len) == NULL) {
			if (out == NULL || out_len == 0 ||
			    out_len > FUZZ_MAX_OUT) {
				abort();
			}
			if (vmlinux_parse(out, out_len, &v) == NULL) {
				check_parsed(out, out_len, &v);
			}
		} else if (out != NULL || out_len != 0) {
			abort();
		}
		free(out);
		break;
	default:
		if (bzimage_parse(data + 1, size - 1, &h) != NULL ||
		    vmlinux_payload(data + 1, size - 1, &h, &p, &plen) !=
			    NULL) {
			break;
		}
		if (p < data + 1 + h.setup_size || plen == 0 ||
		    plen > (size_t)(data + size - p)) {
			abort();
		}
		if (vmlinux_decompress(p, plen, FUZZ_MAX_OUT, &out, &out_len) ==
			    NULL &&
		    vmlinux_parse(out, out_len, &v) == NULL) {
			check_parsed(out, out_len, &v);
		}
		free(out);
		break;
	}
	return 0;
}
