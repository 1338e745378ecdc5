/* SPDX-License-Identifier: MIT */
/* Beneath the device model's registers (vblk_mmio.c) and its queue
 * (vblk_queue.c): the script of lies both read (vblk_script.c) and the
 * device's broken state. Calls go registers -> queue -> here, never
 * back. */
#ifndef MODEL_VBLK_INTERNAL_H
#define MODEL_VBLK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/virtio_mmio.h"

#include "model/virtio_blk.h"

/** Does the device (or the driver, in features) have feature @bit? */
static inline bool vblk_has(uint64_t features, unsigned bit)
{
	return (features >> bit & 1u) != 0;
}

/** The next byte of the script, if any is left (vblk_set_script;
 * vblk_script.c). */
bool vblk_script_byte(struct vblk *d, uint8_t *b);
/** The next four bytes (little-endian) of the script, or @dflt. */
uint32_t vblk_script_u32(struct vblk *d, uint32_t dflt);

/** Take and complete every request the driver made available. */
void vblk_queue_notify(struct vblk *d);

/**
 * The driver broke the protocol beyond what a request's status can say
 * (virtio 1.2 2.1.2): the device stops until it is reset (a status
 * write of 0, vblk_mmio.c; the driver cannot clear the bit otherwise).
 */
static inline void vblk_broken(struct vblk *d)
{
	d->status |= VIRTIO_STATUS_NEEDS_RESET;
	d->stats.broken++;
}

#endif /* MODEL_VBLK_INTERNAL_H */
