/* SPDX-License-Identifier: MIT */
/*
 * The device model's virtio-mmio registers (virtio 1.2 section 4.2.2):
 * identification, feature negotiation, the one queue's set-up and the
 * device status. Every value the driver writes is kept as written and
 * checked where it is used (vblk_queue.c), except what the spec lets a
 * device refuse here: features it did not offer (FEATURES_OK stays
 * clear), a queue size it cannot serve, a queue moved while ready.
 */
#include "svsm/std.h"

#include "abi/virtio_mmio.h"

#include "vblk_internal.h"

/* QEMU's vendor ID for its virtio-mmio devices ("QEMU"). */
#define VBLK_VENDOR 0x554D4551u
/* The configuration space the model has: capacity (le64). */
#define VBLK_CONFIG_SIZE 8u

static uint64_t offered(const struct vblk *d)
{
	uint64_t f = 1ull << VIRTIO_F_VERSION_1 | 1ull << VIRTIO_BLK_F_FLUSH;

	if (d->be.read_only) {
		f |= 1ull << VIRTIO_BLK_F_RO;
	}
	return f;
}

static void reset(struct vblk *d)
{
	d->status = 0;
	d->dev_feat_sel = 0;
	d->drv_feat_sel = 0;
	d->drv_features = 0;
	d->features = 0;
	d->queue_sel = 0;
	d->queue_num = VBLK_QUEUE_MAX;
	d->queue_ready = false;
	d->desc = 0;
	d->avail = 0;
	d->used = 0;
	d->last_avail = 0;
	d->used_idx = 0;
	d->interrupt_status = 0;
}

void vblk_init(struct vblk *d, const struct vblk_backend *be,
	       const struct vblk_mem *mem)
{
	memset(d, 0, sizeof(*d));
	d->be = *be;
	d->mem = *mem;
	reset(d);
}

void vblk_set_behaviour(struct vblk *d, enum vblk_behaviour b)
{
	d->behaviour = b;
}

static uint32_t config_read(const struct vblk *d, uint64_t off, unsigned size)
{
	uint8_t cfg[VBLK_CONFIG_SIZE];
	uint32_t v = 0;
	unsigned i;

	/* The host may resize the disk; a driver reads the capacity between
	 * two equal generations (virtio 1.2 4.2.2.2). */
	for (i = 0; i < 8; i++) {
		cfg[i] = (uint8_t)(d->be.sectors >> (8 * i));
	}
	if (off >= VBLK_CONFIG_SIZE || size > VBLK_CONFIG_SIZE - off) {
		return 0;
	}
	for (i = 0; i < size; i++) {
		v |= (uint32_t)cfg[off + i] << (8 * i);
	}
	return v;
}

static uint32_t reg_read(const struct vblk *d, uint64_t off)
{
	/* Magic, version, device and vendor: the first four registers. */
	static const uint32_t ident[] = {VIRTIO_MMIO_MAGIC_VALUE,
					 VIRTIO_MMIO_VERSION_MODERN,
					 VIRTIO_ID_BLOCK, VBLK_VENDOR};

	_Static_assert(VIRTIO_MMIO_VENDOR_ID == 4 * (ARRAY_SIZE(ident) - 1),
		       "virtio 1.2 4.2.2: identification at 0x000-0x00C");
	if (off < sizeof(ident)) {
		return ident[off / 4];
	}
	switch (off) {
	case VIRTIO_MMIO_DEVICE_FEATURES:
		return d->dev_feat_sel == 0   ? (uint32_t)offered(d)
		       : d->dev_feat_sel == 1 ? (uint32_t)(offered(d) >> 32)
					      : 0;
	case VIRTIO_MMIO_QUEUE_NUM_MAX:
		return d->queue_sel == 0 ? VBLK_QUEUE_MAX : 0;
	case VIRTIO_MMIO_QUEUE_READY:
		return d->queue_sel == 0 && d->queue_ready ? 1 : 0;
	case VIRTIO_MMIO_INTERRUPT_STATUS:
		return d->interrupt_status;
	case VIRTIO_MMIO_STATUS:
		return d->status;
	case VIRTIO_MMIO_CONFIG_GENERATION:
		return d->config_generation;
	default:
		return 0;
	}
}

static uint32_t honest_read(const struct vblk *d, uint64_t off, unsigned size)
{
	if ((size != 1 && size != 2 && size != 4) || off % size != 0 ||
	    off >= VIRTIO_MMIO_WINDOW) {
		return 0;
	}
	if (off >= VIRTIO_MMIO_CONFIG) {
		return config_read(d, off - VIRTIO_MMIO_CONFIG, size);
	}
	return size == 4 ? reg_read(d, off) : 0;
}

uint32_t vblk_mmio_read(struct vblk *d, uint64_t off, unsigned size)
{
	uint32_t v = honest_read(d, off, size);
	uint8_t b = 0;

	if (vblk_script_byte(d, &b) && (b & 0x80u) != 0) {
		v = vblk_script_u32(d, v);
		if (size < 4) {
			v &= (1u << (8 * size)) - 1;
		}
	}
	return v;
}

/* FEATURES_OK only for what was offered, with VERSION_1 (no legacy). */
static void status_write(struct vblk *d, uint32_t val)
{
	if (val == 0) {
		reset(d);
		return;
	}
	if ((val & VIRTIO_STATUS_FEATURES_OK) != 0 &&
	    (d->status & VIRTIO_STATUS_FEATURES_OK) == 0) {
		if ((d->drv_features & ~offered(d)) != 0 ||
		    !vblk_has(d->drv_features, VIRTIO_F_VERSION_1)) {
			val &= ~VIRTIO_STATUS_FEATURES_OK;
		} else {
			d->features = d->drv_features;
		}
	}
	/* The device's own bit is the device's: a driver cannot clear it
	 * short of a reset. */
	d->status = (val & ~VIRTIO_STATUS_NEEDS_RESET) |
		    (d->status & VIRTIO_STATUS_NEEDS_RESET);
}

static void set_half(uint64_t *reg, bool high, uint32_t val)
{
	*reg = high ? (*reg & 0xFFFFFFFFull) | (uint64_t)val << 32
		    : (*reg & ~0xFFFFFFFFull) | val;
}

/* The queue's set-up, while it is not ready (4.2.3.2). */
static void queue_write(struct vblk *d, uint64_t off, uint32_t val)
{
	if (d->queue_sel != 0 || d->queue_ready) {
		return;
	}
	switch (off) {
	case VIRTIO_MMIO_QUEUE_NUM:
		/* A split ring's size is a power of 2 (2.7). */
		if (val != 0 && val <= VBLK_QUEUE_MAX &&
		    (val & (val - 1)) == 0) {
			d->queue_num = val;
		}
		break;
	case VIRTIO_MMIO_QUEUE_DESC_LOW:
	case VIRTIO_MMIO_QUEUE_DESC_HIGH:
		set_half(&d->desc, off == VIRTIO_MMIO_QUEUE_DESC_HIGH, val);
		break;
	case VIRTIO_MMIO_QUEUE_DRIVER_LOW:
	case VIRTIO_MMIO_QUEUE_DRIVER_HIGH:
		set_half(&d->avail, off == VIRTIO_MMIO_QUEUE_DRIVER_HIGH, val);
		break;
	case VIRTIO_MMIO_QUEUE_DEVICE_LOW:
	case VIRTIO_MMIO_QUEUE_DEVICE_HIGH:
		set_half(&d->used, off == VIRTIO_MMIO_QUEUE_DEVICE_HIGH, val);
		break;
	default:
		break;
	}
}

void vblk_mmio_write(struct vblk *d, uint64_t off, unsigned size, uint32_t val)
{
	if (size != 4 || off % 4 != 0 || off >= VIRTIO_MMIO_CONFIG) {
		return; /* the configuration space is read-only */
	}
	switch (off) {
	case VIRTIO_MMIO_DEVICE_FEATURES_SEL:
		d->dev_feat_sel = val;
		break;
	case VIRTIO_MMIO_DRIVER_FEATURES:
		if ((d->status & VIRTIO_STATUS_FEATURES_OK) == 0 &&
		    d->drv_feat_sel < 2) {
			set_half(&d->drv_features, d->drv_feat_sel == 1, val);
		}
		break;
	case VIRTIO_MMIO_DRIVER_FEATURES_SEL:
		d->drv_feat_sel = val;
		break;
	case VIRTIO_MMIO_QUEUE_SEL:
		d->queue_sel = val;
		break;
	case VIRTIO_MMIO_QUEUE_READY:
		if (d->queue_sel == 0) {
			d->queue_ready = (val & 1u) != 0;
		}
		break;
	case VIRTIO_MMIO_QUEUE_NOTIFY:
		d->stats.notifies++;
		if (val == 0) {
			vblk_queue_notify(d);
		}
		break;
	case VIRTIO_MMIO_INTERRUPT_ACK:
		d->interrupt_status &= ~val;
		break;
	case VIRTIO_MMIO_STATUS:
		status_write(d, val);
		break;
	default:
		queue_write(d, off, val);
		break;
	}
}
