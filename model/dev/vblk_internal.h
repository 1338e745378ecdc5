/* SPDX-License-Identifier: MIT */
/* Between the device model's registers (vblk_mmio.c) and its queue
 * (vblk_queue.c). */
#ifndef MODEL_VBLK_INTERNAL_H
#define MODEL_VBLK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/virtio_blk.h"

/** Does the device (or the driver, in features) have feature @bit? */
static inline bool vblk_has(uint64_t features, unsigned bit)
{
	return (features >> bit & 1u) != 0;
}

/** The next byte of the script, if any is left (vblk_set_script). */
bool vblk_script_byte(struct vblk *d, uint8_t *b);
/** The next four bytes (little-endian) of the script, or @dflt. */
uint32_t vblk_script_u32(struct vblk *d, uint32_t dflt);

/** Take and complete every request the driver made available. */
void vblk_queue_notify(struct vblk *d);

/**
 * The driver broke the protocol beyond what a request's status can say
 * (virtio 1.2 2.1.2): the device stops until it is reset.
 */
void vblk_broken(struct vblk *d);

#endif /* MODEL_VBLK_INTERNAL_H */
