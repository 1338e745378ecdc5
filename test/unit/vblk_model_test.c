/* SPDX-License-Identifier: MIT */
/*
 * The host's virtio-blk model (model/dev/) driven by hand, register by
 * register and ring by ring, as a driver would: negotiation, a write and
 * a read back, flush, and the requests it must refuse without touching
 * anything outside the buffers (a chain that loops, a header in the wrong
 * place, sectors past the end, memory it cannot reach).
 */
#include <string.h>

#include "abi/virtio_mmio.h"

#include "model/virtio_blk.h"

#include "../framework/test.h"

#define MEM_SIZE 0x10000u
#define DESC 0x0000u
#define AVAIL 0x0100u
#define USED 0x0200u
#define HDR 0x0300u
#define STATUS 0x0310u
#define DATA 0x1000u
#define SECTORS 64u

static uint8_t mem[MEM_SIZE];
static uint8_t disk[SECTORS * VIRTIO_BLK_SECTOR];
static unsigned flushes;

static bool m_read(void *ctx, uint64_t gpa, void *dst, size_t len)
{
	(void)ctx;
	if (gpa > MEM_SIZE || len > MEM_SIZE - gpa) {
		return false;
	}
	memcpy(dst, mem + gpa, len);
	return true;
}

static bool m_write(void *ctx, uint64_t gpa, const void *src, size_t len)
{
	(void)ctx;
	if (gpa > MEM_SIZE || len > MEM_SIZE - gpa) {
		return false;
	}
	memcpy(mem + gpa, src, len);
	return true;
}

static bool b_read(void *ctx, uint64_t lba, void *buf, uint32_t n)
{
	(void)ctx;
	memcpy(buf, disk + lba * VIRTIO_BLK_SECTOR, n * VIRTIO_BLK_SECTOR);
	return true;
}

static bool b_write(void *ctx, uint64_t lba, const void *buf, uint32_t n)
{
	(void)ctx;
	memcpy(disk + lba * VIRTIO_BLK_SECTOR, buf, n * VIRTIO_BLK_SECTOR);
	return true;
}

static bool b_flush(void *ctx)
{
	(void)ctx;
	flushes++;
	return true;
}

static void put16(uint64_t at, uint16_t v)
{
	mem[at] = (uint8_t)v;
	mem[at + 1] = (uint8_t)(v >> 8);
}

static uint16_t get16(uint64_t at)
{
	return (uint16_t)(mem[at] | mem[at + 1] << 8);
}

static void put_desc(unsigned i, uint64_t addr, uint32_t len, uint16_t flags,
		     uint16_t next)
{
	struct virtq_desc d = {addr, len, flags, next};

	memcpy(mem + DESC + i * sizeof(d), &d, sizeof(d));
}

/* A device through negotiation with VERSION_1 (+ @extra), queue of 4. */
static void setup(struct vblk *d, uint32_t extra_hi)
{
	static const struct vblk_backend be = {SECTORS, b_read, b_write,
					       b_flush, NULL,	false};
	static const struct vblk_mem vm = {m_read, m_write, NULL};

	memset(mem, 0, sizeof(mem));
	flushes = 0;
	vblk_init(d, &be, &vm);
	vblk_mmio_write(d, VIRTIO_MMIO_STATUS, 4, VIRTIO_STATUS_ACKNOWLEDGE);
	vblk_mmio_write(d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 4, 1);
	vblk_mmio_write(d, VIRTIO_MMIO_DRIVER_FEATURES, 4, 1u | extra_hi);
	vblk_mmio_write(d, VIRTIO_MMIO_STATUS, 4,
			VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER |
				VIRTIO_STATUS_FEATURES_OK);
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_SEL, 4, 0);
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_NUM, 4, 4);
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_DESC_LOW, 4, DESC);
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_DRIVER_LOW, 4, AVAIL);
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_DEVICE_LOW, 4, USED);
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_READY, 4, 1);
	vblk_mmio_write(d, VIRTIO_MMIO_STATUS, 4,
			VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER |
				VIRTIO_STATUS_FEATURES_OK |
				VIRTIO_STATUS_DRIVER_OK);
}

/* Submit the chain at descriptor 0 as request @type for @sector. */
static void submit(struct vblk *d, uint32_t type, uint64_t sector)
{
	struct virtio_blk_req_hdr h = {type, 0, sector};
	uint16_t idx = get16(AVAIL + VIRTQ_RING_IDX);

	memcpy(mem + HDR, &h, sizeof(h));
	mem[STATUS] = 0xFF;
	put16(AVAIL + VIRTQ_AVAIL_RING + (idx % 4) * 2, 0);
	put16(AVAIL + VIRTQ_RING_IDX, (uint16_t)(idx + 1));
	vblk_mmio_write(d, VIRTIO_MMIO_QUEUE_NOTIFY, 4, 0);
}

static void data_chain(uint32_t len, bool device_writes)
{
	put_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, 1);
	put_desc(1, DATA, len,
		 VIRTQ_DESC_F_NEXT | (device_writes ? VIRTQ_DESC_F_WRITE : 0),
		 2);
	put_desc(2, STATUS, 1, VIRTQ_DESC_F_WRITE, 0);
}

TEST(vblk_model, identity_and_capacity)
{
	static struct vblk d;

	setup(&d, 0);
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_MAGIC, 4),
		  VIRTIO_MMIO_MAGIC_VALUE);
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_VERSION, 4), 2u);
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_DEVICE_ID, 4),
		  VIRTIO_ID_BLOCK);
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_CONFIG, 4), SECTORS);
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_CONFIG + 4, 4), 0u);
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_CONFIG, 1), SECTORS);
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_STATUS, 4) &
			  VIRTIO_STATUS_FEATURES_OK,
		  VIRTIO_STATUS_FEATURES_OK);
	/* Unaligned or odd-sized register reads read nothing. */
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_MAGIC + 1, 1), 0u);
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_MAGIC, 2), 0u);
}

TEST(vblk_model, refuses_legacy_and_unoffered_features)
{
	static struct vblk d;

	setup(&d, 1u << (40 - 32)); /* a feature it never offered */
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_STATUS, 4) &
			  VIRTIO_STATUS_FEATURES_OK,
		  0u);
}

TEST(vblk_model, write_read_flush)
{
	static struct vblk d;
	unsigned i;

	setup(&d, 0);
	for (i = 0; i < 1024; i++) {
		mem[DATA + i] = (uint8_t)(i * 7 + 1);
	}
	data_chain(1024, false);
	submit(&d, VIRTIO_BLK_T_OUT, 3);
	ASSERT_EQ(mem[STATUS], VIRTIO_BLK_S_OK);
	EXPECT_EQ(get16(USED + VIRTQ_RING_IDX), 1u);
	EXPECT_EQ(memcmp(disk + 3 * 512, mem + DATA, 1024), 0);
	EXPECT_EQ(flushes, 1u); /* no FLUSH negotiated: write-through */

	memset(mem + DATA, 0, 1024);
	data_chain(1024, true);
	submit(&d, VIRTIO_BLK_T_IN, 3);
	ASSERT_EQ(mem[STATUS], VIRTIO_BLK_S_OK);
	EXPECT_EQ(get16(USED + VIRTQ_RING_IDX), 2u);
	EXPECT_EQ(memcmp(disk + 3 * 512, mem + DATA, 1024), 0);
	/* The used element: chain 0, data and status written. */
	EXPECT_EQ(mem[USED + VIRTQ_USED_RING + 8], 0u);
	EXPECT_EQ(get16(USED + VIRTQ_USED_RING + 12), 1025u);

	put_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, 1);
	put_desc(1, STATUS, 1, VIRTQ_DESC_F_WRITE, 0);
	submit(&d, VIRTIO_BLK_T_FLUSH, 0);
	EXPECT_EQ(mem[STATUS], VIRTIO_BLK_S_OK);
	EXPECT_EQ(d.stats.flushes, 1u);
	submit(&d, 99, 0);
	EXPECT_EQ(mem[STATUS], VIRTIO_BLK_S_UNSUPP);
}

TEST(vblk_model, sectors_past_the_end_are_an_io_error)
{
	static struct vblk d;

	setup(&d, 0);
	data_chain(1024, true);
	submit(&d, VIRTIO_BLK_T_IN, SECTORS - 1);
	EXPECT_EQ(mem[STATUS], VIRTIO_BLK_S_IOERR);
	submit(&d, VIRTIO_BLK_T_IN, UINT64_MAX);
	EXPECT_EQ(mem[STATUS], VIRTIO_BLK_S_IOERR);
	data_chain(100, true); /* not whole sectors */
	submit(&d, VIRTIO_BLK_T_IN, 0);
	EXPECT_EQ(mem[STATUS], VIRTIO_BLK_S_IOERR);
	EXPECT_EQ(d.stats.broken, 0u);
}

TEST(vblk_model, malformed_chains_break_the_device)
{
	static struct vblk d;

	setup(&d, 0);
	put_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, 1);
	put_desc(1, DATA, 512, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE, 0);
	submit(&d, VIRTIO_BLK_T_IN, 0); /* a loop */
	EXPECT_EQ(d.stats.broken, 1u);
	EXPECT_EQ(mem[STATUS], 0xFFu);
	EXPECT_EQ(vblk_mmio_read(&d, VIRTIO_MMIO_STATUS, 4) &
			  VIRTIO_STATUS_NEEDS_RESET,
		  VIRTIO_STATUS_NEEDS_RESET);

	setup(&d, 0);
	data_chain(512, true);
	put_desc(1, MEM_SIZE - 256, 512, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE,
		 2);
	submit(&d, VIRTIO_BLK_T_IN, 0); /* data it cannot reach */
	EXPECT_EQ(d.stats.broken, 1u);

	setup(&d, 0);
	data_chain(512, false);
	put_desc(0, HDR, 8, VIRTQ_DESC_F_NEXT, 1); /* a short header */
	submit(&d, VIRTIO_BLK_T_OUT, 0);
	EXPECT_EQ(d.stats.broken, 1u);

	setup(&d, 0);
	put16(AVAIL + VIRTQ_RING_IDX, 7); /* more than a queue's worth */
	vblk_mmio_write(&d, VIRTIO_MMIO_QUEUE_NOTIFY, 4, 0);
	EXPECT_EQ(d.stats.broken, 1u);
	EXPECT_EQ(d.stats.requests, 0u);
}
