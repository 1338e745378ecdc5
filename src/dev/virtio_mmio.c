/* SPDX-License-Identifier: MIT */
/*
 * The virtio-mmio transport (virtio 1.2 section 4.2) as the SVSM drives
 * it: the slots QEMU's q35 gives an SVSM (include/abi/virtio_mmio.h),
 * version 2 only, feature negotiation, one queue, no interrupt. Every
 * register read is the host's answer (T18). Before a device is found a
 * refused access or an odd answer means "no device"; afterwards the
 * device is held to the protocol and a refusal terminates.
 */
#include "abi/virtio_mmio.h"

#include "svsm/check.h"
#include "svsm/log.h"
#include "svsm/plat.h"
#include "svsm/std.h"

#include "virtio_dev.h"

/* Bounds on the host's answers: a reset that never reads back 0, a
 * configuration generation that never settles. */
#define RESET_POLLS 1000u
#define CONFIG_TRIES 16u

static uint32_t rd(const struct vmmio *d, uint32_t off)
{
	uint32_t v = 0;

	if (!plat_mmio_read(gpa_add(d->base, off), 4, &v)) {
		DEVICE_BROKEN("the host refused a read of register 0x%x", off);
	}
	return v;
}

static void wr(const struct vmmio *d, uint32_t off, uint32_t v)
{
	if (!plat_mmio_write(gpa_add(d->base, off), 4, v)) {
		DEVICE_BROKEN("the host refused a write of register 0x%x", off);
	}
}

/* A slot's identification; false for anything but a modern @device_id. */
static bool slot_is(gpa_t base, uint32_t device_id)
{
	uint32_t magic = 0, version = 0, id = 0;

	if (!plat_mmio_read(gpa_add(base, VIRTIO_MMIO_MAGIC), 4, &magic) ||
	    magic != VIRTIO_MMIO_MAGIC_VALUE ||
	    !plat_mmio_read(gpa_add(base, VIRTIO_MMIO_VERSION), 4, &version) ||
	    !plat_mmio_read(gpa_add(base, VIRTIO_MMIO_DEVICE_ID), 4, &id) ||
	    id != device_id) {
		return false;
	}
	if (version != VIRTIO_MMIO_VERSION_MODERN) {
		/* QEMU's default for virtio-mmio is the legacy layout. */
		LOG_NOTICE("virtio: device %u at 0x%llx is version %u, not 2"
			   " (QEMU: -global virtio-mmio.force-legacy=false)",
			   device_id, (unsigned long long)gpa_val(base),
			   version);
		return false;
	}
	return true;
}

bool vmmio_find(struct vmmio *d, uint32_t device_id)
{
	unsigned i;

	for (i = 0; i < VIRTIO_MMIO_SVSM_SLOTS; i++) {
		gpa_t base = gpa_init(VIRTIO_MMIO_SVSM_BASE +
				      i * VIRTIO_MMIO_WINDOW);

		if (slot_is(base, device_id)) {
			d->base = base;
			d->features = 0;
			return true;
		}
	}
	return false;
}

static void set_status(const struct vmmio *d, uint32_t status)
{
	wr(d, VIRTIO_MMIO_STATUS, status);
}

/* Reset: write 0, then wait for 0 to read back (4.2.3.1.1). */
static bool reset(const struct vmmio *d)
{
	unsigned i;

	set_status(d, 0);
	for (i = 0; i < RESET_POLLS; i++) {
		if (rd(d, VIRTIO_MMIO_STATUS) == 0) {
			return true;
		}
		plat_delay_ns(1000);
	}
	return false;
}

static void write64(const struct vmmio *d, uint32_t low, uint64_t v)
{
	wr(d, low, (uint32_t)v);
	wr(d, low + 4, (uint32_t)(v >> 32));
}

/* Threat: a device that offers features the SVSM does not implement
 * would have it speak a protocol it does not check; it accepts only
 * @wanted, and VERSION_1 must be among those offered (no legacy). */
static bool negotiate(struct vmmio *d, uint64_t wanted)
{
	uint64_t offered;
	uint32_t status = VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER;

	wr(d, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
	offered = rd(d, VIRTIO_MMIO_DEVICE_FEATURES);
	wr(d, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 1);
	offered |= (uint64_t)rd(d, VIRTIO_MMIO_DEVICE_FEATURES) << 32;
	if ((offered >> VIRTIO_F_VERSION_1 & 1u) == 0) {
		LOG_NOTICE("virtio: the device does not offer VERSION_1");
		return false;
	}
	d->features = offered & wanted;
	wr(d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 0);
	wr(d, VIRTIO_MMIO_DRIVER_FEATURES, (uint32_t)d->features);
	wr(d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
	wr(d, VIRTIO_MMIO_DRIVER_FEATURES, (uint32_t)(d->features >> 32));
	set_status(d, status | VIRTIO_STATUS_FEATURES_OK);
	/* A device that needs more than the SVSM accepts clears it. */
	if ((rd(d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_FEATURES_OK) == 0) {
		LOG_NOTICE("virtio: the device refused features 0x%llx",
			   (unsigned long long)d->features);
		return false;
	}
	return true;
}

bool vmmio_setup(struct vmmio *d, uint64_t wanted, const struct virtq *q)
{
	uint32_t status = VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER |
			  VIRTIO_STATUS_FEATURES_OK;
	uint32_t max;

	wanted |= 1ull << VIRTIO_F_VERSION_1;
	if (!reset(d)) {
		LOG_NOTICE("virtio: the device did not reset");
		return false;
	}
	set_status(d, VIRTIO_STATUS_ACKNOWLEDGE);
	set_status(d, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
	if (!negotiate(d, wanted)) {
		set_status(d, VIRTIO_STATUS_FAILED);
		return false;
	}
	wr(d, VIRTIO_MMIO_QUEUE_SEL, 0);
	max = rd(d, VIRTIO_MMIO_QUEUE_NUM_MAX);
	if (rd(d, VIRTIO_MMIO_QUEUE_READY) != 0 || max < VIRTQ_SIZE) {
		LOG_NOTICE("virtio: queue 0 unusable (max %u)", max);
		set_status(d, VIRTIO_STATUS_FAILED);
		return false;
	}
	wr(d, VIRTIO_MMIO_QUEUE_NUM, VIRTQ_SIZE);
	write64(d, VIRTIO_MMIO_QUEUE_DESC_LOW,
		gpa_val(q->ring_gpa) + VIRTQ_OFF_DESC);
	write64(d, VIRTIO_MMIO_QUEUE_DRIVER_LOW,
		gpa_val(q->ring_gpa) + VIRTQ_OFF_AVAIL);
	write64(d, VIRTIO_MMIO_QUEUE_DEVICE_LOW,
		gpa_val(q->ring_gpa) + VIRTQ_OFF_USED);
	wr(d, VIRTIO_MMIO_QUEUE_READY, 1);
	set_status(d, status | VIRTIO_STATUS_DRIVER_OK);
	return true;
}

uint64_t vmmio_config64(const struct vmmio *d, uint32_t off)
{
	unsigned i;

	CHECK(off % 8 == 0 && off < VIRTIO_MMIO_WINDOW - VIRTIO_MMIO_CONFIG);
	/* Two reads of the same generation (4.2.2.2): the host may change
	 * the configuration between the halves. */
	for (i = 0; i < CONFIG_TRIES; i++) {
		uint32_t gen = rd(d, VIRTIO_MMIO_CONFIG_GENERATION);
		uint32_t lo = rd(d, VIRTIO_MMIO_CONFIG + off);
		uint32_t hi = rd(d, VIRTIO_MMIO_CONFIG + off + 4);

		if (rd(d, VIRTIO_MMIO_CONFIG_GENERATION) == gen) {
			return (uint64_t)hi << 32 | lo;
		}
	}
	DEVICE_BROKEN("configuration generation never settled");
}

void vmmio_notify(const struct vmmio *d)
{
	wr(d, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
}
