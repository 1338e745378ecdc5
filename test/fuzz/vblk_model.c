/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the host's virtio-blk model (model/dev/) as a hostile driver
 * drives it: register writes and reads, guest memory the rings and
 * descriptors live in, notifications, any lie set. The model must never
 * reach the backend outside its sectors or guest memory outside what the
 * DMA view allows (both abort here), nor crash or trip a sanitizer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi/virtio_mmio.h"

#include "model/virtio_blk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MEM 0x4000u
#define PRIVATE 0x3000u /* [PRIVATE, MEM): a page the device may not reach */
#define SECTORS 64u

static uint8_t mem[MEM];
static uint8_t disk[SECTORS * VIRTIO_BLK_SECTOR];

static bool dma_ok(uint64_t gpa, size_t len)
{
	return gpa <= PRIVATE && len <= PRIVATE - gpa;
}

static bool m_read(void *ctx, uint64_t gpa, void *dst, size_t len)
{
	(void)ctx;
	if (!dma_ok(gpa, len)) {
		return false;
	}
	memcpy(dst, mem + gpa, len);
	return true;
}

static bool m_write(void *ctx, uint64_t gpa, const void *src, size_t len)
{
	(void)ctx;
	if (!dma_ok(gpa, len)) {
		return false;
	}
	memcpy(mem + gpa, src, len);
	return true;
}

static void in_range(uint64_t lba, uint32_t n)
{
	if (n == 0 || lba > SECTORS || n > SECTORS - lba) {
		abort(); /* the model let a driver past the capacity */
	}
}

static bool b_read(void *ctx, uint64_t lba, void *buf, uint32_t n)
{
	(void)ctx;
	in_range(lba, n);
	memcpy(buf, disk + lba * VIRTIO_BLK_SECTOR, n * VIRTIO_BLK_SECTOR);
	return lba != 13; /* one sector that fails */
}

static bool b_write(void *ctx, uint64_t lba, const void *buf, uint32_t n)
{
	(void)ctx;
	in_range(lba, n);
	memcpy(disk + lba * VIRTIO_BLK_SECTOR, buf, n * VIRTIO_BLK_SECTOR);
	return true;
}

static bool b_flush(void *ctx)
{
	(void)ctx;
	return true;
}

struct input {
	const uint8_t *p;
	size_t left;
};

static uint32_t take(struct input *in, unsigned bytes)
{
	uint32_t v = 0;
	unsigned i;

	for (i = 0; i < bytes && in->left != 0; i++, in->left--) {
		v |= (uint32_t)*in->p++ << (8 * i);
	}
	return v;
}

/* The usual set-up in one step, so inputs reach the queue quickly. */
static void setup(struct vblk *d, struct input *in)
{
	uint32_t ok = VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER |
		      VIRTIO_STATUS_FEATURES_OK;

	vblk_mmio_write(d, VIRTIO_MMIO_STATUS, 4, 0);
	vblk_mmio_write(d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 4, 1);
	vblk_mmio_write(d, VIRTIO_MMIO_DRIVER_FEATURES, 4, 1);
	vblk_mmio_write(d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 4, 0);
	vblk_mmio_write(d, VIRTIO_MMIO_DRIVER_FEATURES, 4, take(in, 4));
	vblk_mmio_write(d, VIRTIO_MMIO_STATUS, 4, ok);
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_NUM, 4, take(in, 1));
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_DESC_LOW, 4, take(in, 2));
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_DRIVER_LOW, 4, take(in, 2));
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_DEVICE_LOW, 4, take(in, 2));
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_READY, 4, 1);
	vblk_mmio_write(d, VIRTIO_MMIO_STATUS, 4, ok | VIRTIO_STATUS_DRIVER_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vblk d;
	static const struct vblk_mem vm = {m_read, m_write, NULL};
	struct vblk_backend be = {SECTORS, b_read, b_write,
				  b_flush, NULL,   false};
	struct input in = {data, size};
	unsigned ops = 0;

	memset(mem, 0, sizeof(mem));
	be.read_only = take(&in, 1) % 8 == 0;
	vblk_init(&d, &be, &vm);
	vblk_set_behaviour(&d, (enum vblk_behaviour)(take(&in, 1) % 7));
	while (in.left != 0 && ops++ < 256) {
		uint32_t off, len, i;

		switch (take(&in, 1) % 6) {
		case 0:
			off = take(&in, 2) % 0x200;
			vblk_mmio_write(&d, off, 4, take(&in, 4));
			break;
		case 1:
			off = take(&in, 2) % 0x1000;
			(void)vblk_mmio_read(&d, off, 1u << (take(&in, 1) % 3));
			break;
		case 2:
			off = take(&in, 2) % MEM;
			len = take(&in, 1);
			for (i = 0; i < len && off + i < MEM && in.left != 0;
			     i++) {
				mem[off + i] = (uint8_t)take(&in, 1);
			}
			break;
		case 3:
			vblk_mmio_write(&d, VIRTIO_MMIO_QUEUE_NOTIFY, 4, 0);
			break;
		case 4:
			setup(&d, &in);
			break;
		default:
			vblk_mmio_write(&d, VIRTIO_MMIO_QUEUE_NOTIFY, 4,
					take(&in, 4));
			break;
		}
	}
	return 0;
}
