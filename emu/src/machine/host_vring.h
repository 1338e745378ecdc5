/* SPDX-License-Identifier: MIT */
/*
 * A legacy (virtio 0.9.5) split virtqueue as the machine's own driver
 * of a QEMU device uses it (host_blk.c): its layout in one page-aligned
 * block of the machine's memory, one descriptor chain in flight at a
 * time, and the check of the device's answer. Pure: no port I/O, so the
 * hosted unit test plays the device (test/unit/emu_host_vring_test.c).
 *
 * The device is QEMU, the machine's platform: an answer that breaks the
 * ring's rules is reported (HOST_VRING_BROKEN) for the caller to panic
 * on, never taken as a completion.
 */
#ifndef MACHINE_HOST_VRING_H
#define MACHINE_HOST_VRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOST_VRING_ALIGN                                                       \
	4096u /* the legacy interface's used-ring alignment                    \
	       */
#define HOST_VRING_MAX_CHAIN 4u
#define VRING_DESC_F_NEXT 1u
#define VRING_DESC_F_WRITE 2u

/* virtio 0.9.5, 2.3 "Virtqueue Configuration": descriptor table, then
 * the available ring, then (aligned) the used ring. */
struct vring_desc {
	uint64_t addr; /* guest-physical: here the machine's own memory */
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};
_Static_assert(sizeof(struct vring_desc) == 16, "virtio 2.3.2: 16 bytes");

struct vring_used_elem {
	uint32_t id;
	uint32_t len;
};
_Static_assert(sizeof(struct vring_used_elem) == 8, "virtio 2.3.5");

/** One buffer of a chain: the machine's memory at @addr, @len bytes,
 * written by the device if @device_writes. */
struct host_vring_buf {
	uint64_t addr;
	uint32_t len;
	bool device_writes;
};

struct host_vring {
	uint16_t num;
	struct vring_desc *desc;
	volatile uint16_t *avail; /* flags, idx, ring[num], used_event */
	volatile uint16_t *used;  /* flags, idx, then the elements */
	uint16_t avail_idx;	  /* the next avail->idx we publish */
	uint16_t used_idx;	  /* the used->idx we have consumed */
};

enum host_vring_state {
	HOST_VRING_PENDING, /* the device has not answered yet */
	HOST_VRING_DONE,    /* the chain came back, *len written */
	HOST_VRING_BROKEN,  /* the used ring says what no device may */
};

/** Bytes the rings of @num entries take (a multiple of the alignment);
 * 0 if @num is not a power of two in 1..32768. */
size_t host_vring_bytes(uint32_t num);
/** Lay out a ring of @num entries over zeroed @mem (host_vring_bytes,
 * HOST_VRING_ALIGN-aligned); the device's indices start at 0. False if
 * @num or @mem will not do. */
bool host_vring_init(struct host_vring *r, void *mem, uint16_t num);
/** Publish one chain of @count (1..HOST_VRING_MAX_CHAIN) buffers from
 * descriptor 0. False (nothing posted) if @count is out of range or
 * the previous chain is not DONE. The caller then notifies the device. */
bool host_vring_post(struct host_vring *r, const struct host_vring_buf *bufs,
		     unsigned count);
/** Look at the used ring once: the chain posted last came back (its
 * byte count the device wrote in *@len), not yet, or broken. */
enum host_vring_state host_vring_poll(struct host_vring *r, uint32_t *len);

#endif /* MACHINE_HOST_VRING_H */
