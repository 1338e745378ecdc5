/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the SVSM's block device as emu's hypervisor serves it: the device
 * model (model/dev, driven by a hostile driver's MMIO) whose DMA goes
 * through the hypervisor's view of guest memory (emu/src/hv/hv_dma.c, built
 * hosted), over a guest of 16 pages, some private (RMP-assigned), in a
 * heap block exactly the guest's size (ASan catches any reach past it),
 * and a RAM disk. The input: which pages are shared, the disk's size and
 * the device's lie, then operations as a driver and the host make them:
 * register writes and reads, a driver's set-up in one step (so the
 * fuzzer reaches requests), 8 bytes written into guest memory, a page
 * converted (shared to private or back), a QueueNotify.
 * Checks: the DMA view copies only whole ranges of shared guest memory
 * without the C-bit, and refuses nothing else; a refused copy moves no
 * byte; no private page changes while private; the model asks the disk
 * only for sectors it has.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi/snp.h"
#include "abi/virtio_mmio.h"

#include "model/virtio_blk.h"

#include "../../emu/src/hv/hv_dma.c"
#include "fuzz_input.h"

#define GUEST_PAGES 16u
#define GUEST_SIZE (GUEST_PAGES * DMA_PAGE)
#define RMP_PAGES 512u /* one 2 MiB bank; the guest maps 16 of them */
#define DISK_SECTORS 256u
#define C_MASK (1ull << 51)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rmp_entry entries[RMP_PAGES];
static struct rmp rmp;
static uint8_t *guest;			  /* GUEST_SIZE bytes */
static uint8_t snapshot[GUEST_SIZE];	  /* a private page's bytes */
static uint8_t disk[DISK_SECTORS * 512u]; /* the backend */
static uint64_t disk_sectors;

static bool is_shared(uint64_t page)
{
	return page < GUEST_PAGES &&
	       rmp_check_shared_access(&rmp, page * DMA_PAGE) == RMP_ACCESS_OK;
}

static uint8_t *map(uint64_t gpa, uint64_t len)
{
	if (gpa >= GUEST_SIZE || len > GUEST_SIZE - gpa) {
		return NULL;
	}
	return guest + gpa;
}

/* What hv_dma_copy must accept: all of it shared guest memory. */
static bool may_reach(uint64_t gpa, size_t len)
{
	uint64_t p;

	if (len == 0) {
		return true;
	}
	if ((gpa & C_MASK) != 0 || gpa > UINT64_MAX - len ||
	    gpa + len > GUEST_SIZE) {
		return false;
	}
	for (p = gpa / DMA_PAGE; p <= (gpa + len - 1) / DMA_PAGE; p++) {
		if (!is_shared(p)) {
			return false;
		}
	}
	return true;
}

static bool mem_read(void *ctx, uint64_t gpa, void *dst, size_t len)
{
	uint8_t *before = malloc(len + 1);
	bool ok;

	(void)ctx;
	if (before == NULL) {
		abort();
	}
	memcpy(before, dst, len);
	ok = hv_dma_copy(&rmp, map, C_MASK, gpa, dst, len, false);
	if (ok != may_reach(gpa, len) ||
	    (!ok && memcmp(before, dst, len) != 0)) {
		abort();
	}
	free(before);
	return ok;
}

static bool mem_write(void *ctx, uint64_t gpa, const void *src, size_t len)
{
	static uint8_t before[GUEST_SIZE];
	bool ok;

	(void)ctx;
	memcpy(before, guest, GUEST_SIZE);
	ok = hv_dma_copy(&rmp, map, C_MASK, gpa, (uint8_t *)(uintptr_t)src, len,
			 true);
	if (ok != may_reach(gpa, len) ||
	    (!ok && memcmp(before, guest, GUEST_SIZE) != 0)) {
		abort();
	}
	return ok;
}

static bool disk_io(uint64_t lba, uint32_t n)
{
	if (n == 0 || lba > disk_sectors || n > disk_sectors - lba) {
		abort(); /* the model promised lba + n <= sectors */
	}
	return true;
}

static bool be_read(void *ctx, uint64_t lba, void *buf, uint32_t n)
{
	(void)ctx;
	(void)disk_io(lba, n);
	memcpy(buf, disk + lba * 512u, (size_t)n * 512u);
	return true;
}

static bool be_write(void *ctx, uint64_t lba, const void *buf, uint32_t n)
{
	(void)ctx;
	(void)disk_io(lba, n);
	memcpy(disk + lba * 512u, buf, (size_t)n * 512u);
	return true;
}

/* Toggle page @p: private (RMPUPDATE assign; its bytes kept to compare)
 * or shared again. */
static void convert(uint64_t p)
{
	if (is_shared(p)) {
		if (rmp_hv_assign(&rmp, p * DMA_PAGE, false) !=
		    SNP_RET_SUCCESS) {
			abort();
		}
		memcpy(snapshot + p * DMA_PAGE, guest + p * DMA_PAGE, DMA_PAGE);
	} else if (rmp_hv_unassign(&rmp, p * DMA_PAGE, false) !=
		   SNP_RET_SUCCESS) {
		abort();
	}
}

static void check_private(void)
{
	uint64_t p;

	for (p = 0; p < GUEST_PAGES; p++) {
		if (!is_shared(p) &&
		    memcmp(snapshot + p * DMA_PAGE, guest + p * DMA_PAGE,
			   DMA_PAGE) != 0) {
			abort();
		}
	}
}

static void reg(struct vblk *d, uint32_t off, uint32_t val)
{
	vblk_mmio_write(d, off, 4, val);
}

/* A driver's set-up (virtio 1.2 3.1.1), its rings where the input says. */
static void set_up(struct vblk *d, struct input *in)
{
	reg(d, VIRTIO_MMIO_STATUS, 0);
	reg(d, VIRTIO_MMIO_STATUS,
	    VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
	reg(d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
	reg(d, VIRTIO_MMIO_DRIVER_FEATURES, 1u << (VIRTIO_F_VERSION_1 - 32));
	reg(d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 0);
	reg(d, VIRTIO_MMIO_DRIVER_FEATURES,
	    (uint32_t)take(in, 1) & 1u ? 1u << VIRTIO_BLK_F_FLUSH : 0);
	reg(d, VIRTIO_MMIO_STATUS,
	    VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER |
		    VIRTIO_STATUS_FEATURES_OK);
	reg(d, VIRTIO_MMIO_QUEUE_SEL, 0);
	reg(d, VIRTIO_MMIO_QUEUE_NUM, 1u << (take(in, 1) % 5));
	reg(d, VIRTIO_MMIO_QUEUE_DESC_LOW, (uint32_t)take(in, 2));
	reg(d, VIRTIO_MMIO_QUEUE_DRIVER_LOW, (uint32_t)take(in, 2));
	reg(d, VIRTIO_MMIO_QUEUE_DEVICE_LOW, (uint32_t)take(in, 2));
	reg(d, VIRTIO_MMIO_QUEUE_READY, 1);
	reg(d, VIRTIO_MMIO_STATUS,
	    VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER |
		    VIRTIO_STATUS_FEATURES_OK | VIRTIO_STATUS_DRIVER_OK);
}

static void step(struct vblk *d, struct input *in)
{
	static const unsigned sizes[4] = {1, 2, 4, 4};
	uint64_t off;
	unsigned size;

	switch (take(in, 1) % 6) {
	case 0:
		off = take(in, 2) % VIRTIO_MMIO_WINDOW;
		size = sizes[take(in, 1) % 4];
		vblk_mmio_write(d, off, size, (uint32_t)take(in, 4));
		break;
	case 1:
		off = take(in, 2) % VIRTIO_MMIO_WINDOW;
		size = sizes[take(in, 1) % 4];
		(void)vblk_mmio_read(d, off, size);
		break;
	case 2: { /* the driver writes guest memory (a private page too:
		   * the guest's own, not the device's) */
		uint64_t at = take(in, 2) % (GUEST_SIZE - 8);
		uint64_t v = take(in, 8);

		memcpy(guest + at, &v, 8);
		if (!is_shared(at / DMA_PAGE) ||
		    !is_shared((at + 7) / DMA_PAGE)) {
			memcpy(snapshot + at, &v, 8);
		}
		break;
	}
	case 3:
		convert(take(in, 1) % GUEST_PAGES);
		break;
	case 4:
		reg(d, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
		break;
	default:
		set_up(d, in);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vblk d;
	struct input in = {data, size};
	struct vblk_backend be = {0};
	struct vblk_mem mem = {mem_read, mem_write, NULL};
	uint64_t shared, p;
	unsigned ops;

	if (guest == NULL) {
		guest = malloc(GUEST_SIZE);
		if (guest == NULL) {
			abort();
		}
	}
	rmp_init(&rmp, entries, RMP_PAGES); /* every page shared */
	memset(guest, 0, GUEST_SIZE);
	shared = take(&in, 2);
	for (p = 0; p < GUEST_PAGES; p++) {
		if ((shared & (1ull << p)) == 0) {
			convert(p);
		}
	}
	disk_sectors = take(&in, 1);
	be.sectors = disk_sectors;
	be.read = be_read;
	be.write = be_write;
	be.flush = NULL;
	vblk_init(&d, &be, &mem);
	vblk_set_behaviour(&d, (enum vblk_behaviour)(take(&in, 1) % 7));
	for (ops = 0; in.left > 0 && ops < 256; ops++) {
		step(&d, &in);
		check_private();
	}
	return 0;
}
