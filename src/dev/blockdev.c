/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's storage (svsm/blockdev.h): the host's virtio-blk device in
 * one of the SVSM's virtio-mmio slots, driven through a polled queue in
 * pages shared with the host. Data moves through the shared bounce buffer
 * by one copy each way: what is written is the caller's (sealed) data,
 * what is read is the host's, copied once into the caller's SVSM memory.
 *
 * The capacity is read once, when the device is found: the bounds of
 * every later request are checked against that one value, which the host
 * cannot change underneath a caller that checked it.
 *
 * Callers are serialised (the vTPM lock): no lock here.
 */
#include "svsm/blockdev.h"

#include "svsm/check.h"
#include "svsm/log.h"
#include "svsm/plat.h"
#include "svsm/std.h"

#include "abi/virtio_mmio.h"

#include "virtio_dev.h"

/* 16 shared pages: the ring page and a 60 KiB bounce buffer. */
#define SHARED_ORDER 4u

_Static_assert(BLOCKDEV_SECTOR == VIRTIO_BLK_SECTOR, "one sector size");

enum bd_state {
	BD_UNPROBED = 0,
	BD_ABSENT,
	BD_READY,
};

static struct {
	enum bd_state state;
	struct vmmio dev;
	struct virtq q;
	uint64_t sectors;
	/* The shared pages, taken once a device is found. */
	uint8_t *shared;
	gpa_t shared_gpa;
} bd;

void blockdev_init(void)
{
	memset(&bd, 0, sizeof(bd));
}

static bool probe(void)
{
	if (!vmmio_find(&bd.dev, VIRTIO_ID_BLOCK)) {
		LOG_INFO("blockdev: no virtio-blk device in the SVSM's slots");
		return false;
	}
	if (bd.shared == NULL) {
		bd.shared = plat_shared_alloc(SHARED_ORDER, &bd.shared_gpa);
		if (bd.shared == NULL) {
			LOG_NOTICE("blockdev: no memory for the device's"
				   " shared pages");
			return false;
		}
	}
	virtq_init(&bd.q, bd.shared, bd.shared_gpa, SHARED_ORDER);
	if (!vmmio_setup(&bd.dev, 1ull << VIRTIO_BLK_F_FLUSH, &bd.q)) {
		return false;
	}
	bd.sectors = vmmio_config64(&bd.dev, VIRTIO_BLK_CFG_CAPACITY);
	LOG_INFO("blockdev: virtio-blk at 0x%llx, %llu sectors%s",
		 (unsigned long long)gpa_val(bd.dev.base),
		 (unsigned long long)bd.sectors,
		 (bd.dev.features >> VIRTIO_BLK_F_FLUSH & 1u) != 0
			 ? ", flush"
			 : ", write-through");
	return true;
}

bool blockdev_present(void)
{
	if (bd.state == BD_UNPROBED) {
		bd.state = probe() ? BD_READY : BD_ABSENT;
	}
	return bd.state == BD_READY;
}

uint64_t blockdev_sectors(void)
{
	return blockdev_present() ? bd.sectors : 0;
}

/* A caller's range: inside the device, no wrap (class c). */
static void check_range(uint64_t lba, const void *buf, size_t n)
{
	CHECK(buf != NULL || n == 0);
	CHECK(lba <= bd.sectors && n <= bd.sectors - lba);
}

static enum svsm_err status_err(uint8_t status)
{
	/* IOERR or UNSUPP: the host's storage failed or refused; the
	 * caller names the outcome. */
	return status == VIRTIO_BLK_S_OK ? SVSM_OK : SVSM_E_STATE;
}

/*
 * Move @n sectors at @lba, a bounce buffer's worth per request: from
 * SVSM memory @src to the device (a write), or from the device into SVSM
 * memory @dst (a read: the one copy of the host's data into SVSM
 * memory). Exactly one of @src and @dst is used.
 */
static enum svsm_err transfer(uint64_t lba, uint8_t *dst, const uint8_t *src,
			      size_t n)
{
	bool out = src != NULL;
	size_t per;

	if (!blockdev_present()) {
		return SVSM_E_STATE;
	}
	check_range(lba, out ? (const void *)src : dst, n);
	per = bd.q.data_size / BLOCKDEV_SECTOR;
	CHECK(per != 0);
	while (n != 0) {
		size_t k = n < per ? n : per;
		size_t bytes = k * BLOCKDEV_SECTOR;
		uint8_t st;

		if (out) {
			memcpy(bd.q.data, src, bytes);
			src += bytes;
		}
		st = virtq_request(&bd.q, &bd.dev,
				   out ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_IN,
				   lba, bytes, !out);
		if (st != VIRTIO_BLK_S_OK) {
			return status_err(st);
		}
		if (!out) {
			memcpy(dst, bd.q.data, bytes);
			dst += bytes;
		}
		lba += k;
		n -= k;
	}
	return SVSM_OK;
}

enum svsm_err blockdev_read(uint64_t lba, void *buf, size_t n)
{
	return transfer(lba, buf, NULL, n);
}

enum svsm_err blockdev_write(uint64_t lba, const void *buf, size_t n)
{
	return transfer(lba, NULL, buf, n);
}

enum svsm_err blockdev_flush(void)
{
	if (!blockdev_present()) {
		return SVSM_E_STATE;
	}
	/* Without VIRTIO_BLK_F_FLUSH the device is write-through (virtio
	 * 1.2 5.2.6.2): every completed write is already durable. */
	if ((bd.dev.features >> VIRTIO_BLK_F_FLUSH & 1u) == 0) {
		return SVSM_OK;
	}
	return status_err(
		virtq_request(&bd.q, &bd.dev, VIRTIO_BLK_T_FLUSH, 0, 0, false));
}
