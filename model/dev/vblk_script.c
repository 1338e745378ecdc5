/* SPDX-License-Identifier: MIT */
/*
 * The device model's script of lies (vblk_set_script, a fuzzer's): the
 * registers (vblk_mmio.c) and the queue (vblk_queue.c) each take the
 * next bytes of it where they answer the driver. The script is the
 * fuzzer's and read only within its length.
 */
#include "svsm/std.h"

#include "vblk_internal.h"

void vblk_set_script(struct vblk *d, const uint8_t *script, size_t len)
{
	d->script = script;
	d->script_len = script != NULL ? len : 0;
}

bool vblk_script_byte(struct vblk *d, uint8_t *b)
{
	if (d->script_len == 0) {
		return false;
	}
	*b = *d->script++;
	d->script_len--;
	return true;
}

uint32_t vblk_script_u32(struct vblk *d, uint32_t dflt)
{
	uint32_t v = 0;
	unsigned i;
	uint8_t b = 0;

	for (i = 0; i < 4; i++) {
		if (!vblk_script_byte(d, &b)) {
			return dflt;
		}
		v |= (uint32_t)b << (8 * i);
	}
	return v;
}
