/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's virtio driver parts (src/dev/): the virtio-mmio transport
 * (virtio_mmio.c) and one polled split virtqueue (virtq.c), under the
 * block device (blockdev.c). The device is the host's (T18): every value
 * it gives is read once, checked, and a value no honest device gives
 * terminates with TERM_CSVSM_DEVICE_PROTOCOL.
 */
#ifndef DEV_VIRTIO_DEV_H
#define DEV_VIRTIO_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/addr.h"
#include "svsm/terminate.h"

/* Class (b): the device broke the protocol (the one door). */
#define DEVICE_BROKEN(fmt, ...)                                                \
	TERMINATE_HV(TERM_CSVSM_DEVICE_PROTOCOL, "virtio: " fmt, ##__VA_ARGS__)

/** One virtio-mmio device the SVSM drives. */
struct vmmio {
	gpa_t base;	   /* its window (VIRTIO_MMIO_WINDOW bytes) */
	uint64_t features; /* negotiated */
};

/**
 * The polled queue 0 of a device, in 2^order shared pages: page 0 holds
 * the rings, the request header and the status byte, the rest is the
 * data bounce buffer. Only the SVSM's copies of the indices are trusted.
 */
struct virtq {
	uint8_t *ring; /* shared: the device writes it at any time */
	gpa_t ring_gpa;
	uint8_t *data; /* shared bounce buffer */
	gpa_t data_gpa;
	size_t data_size;
	uint16_t avail_idx; /* requests submitted */
	uint16_t used_idx;  /* requests the device completed */
};

/* Queue size and the layout of the ring page (alignments: virtio 1.2
 * 2.7, "Virtqueue Part Alignment"). */
#define VIRTQ_SIZE 4u
#define VIRTQ_OFF_DESC 0x000u
#define VIRTQ_OFF_AVAIL 0x040u
#define VIRTQ_OFF_USED 0x080u
#define VIRTQ_OFF_HDR 0x100u
#define VIRTQ_OFF_STATUS 0x110u

/**
 * Find a device of @device_id in the SVSM's slots
 * (VIRTIO_MMIO_SVSM_BASE). False if none: an empty slot, a legacy
 * device, one refused, or a host that refuses MMIO there.
 */
bool vmmio_find(struct vmmio *d, uint32_t device_id);

/**
 * Initialise the device (virtio 1.2 3.1.1): reset, features (@wanted
 * those offered, with VERSION_1 required), queue 0 of VIRTQ_SIZE in @q's
 * ring page, DRIVER_OK. False if the device refused (absent).
 */
bool vmmio_setup(struct vmmio *d, uint64_t wanted, const struct virtq *q);

/** The le64 at @off of the configuration space, read consistently. */
uint64_t vmmio_config64(const struct vmmio *d, uint32_t off);

/** Notify queue 0 (QueueNotify). */
void vmmio_notify(const struct vmmio *d);

/** Lay out @q over 2^@order shared pages at @shared (GPA @gpa). */
void virtq_init(struct virtq *q, uint8_t *shared, gpa_t gpa, unsigned order);

/**
 * One virtio-blk request of @type for @sector with @data_len bytes of the
 * bounce buffer (device-writable if @device_writes): submitted, notified
 * and polled to completion, the reply checked. Returns its status byte,
 * VIRTIO_BLK_S_OK, _IOERR or _UNSUPP; anything else terminates.
 */
uint8_t virtq_request(struct virtq *q, const struct vmmio *d, uint32_t type,
		      uint64_t sector, size_t data_len, bool device_writes);

#endif /* DEV_VIRTIO_DEV_H */
