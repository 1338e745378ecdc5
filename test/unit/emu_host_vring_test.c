/* SPDX-License-Identifier: MIT */
/*
 * The machine's own virtqueue driver (emu/src/machine/host_vring.c, under its
 * block device's driver host_blk.c), with this test playing the device as
 * QEMU's legacy virtio does: the ring's layout, the chain it posts, and
 * the answers it takes or calls broken. emu's files are not part of the
 * hosted build; this one depends on nothing of the machine's.
 */
#include <stdlib.h>

#include "../../emu/src/machine/host_vring.c"
#include "../framework/test.h"

#define NUM 256u

struct dev {
	uint8_t *mem;
	uint16_t seen; /* avail->idx the device has taken */
};

static uint16_t *avail_of(struct dev *d)
{
	return (uint16_t *)(void *)(d->mem + 16u * NUM);
}

static uint16_t *used_of(struct dev *d)
{
	return (uint16_t *)(void *)(d->mem + 8192u); /* aligned after avail */
}

/* Return head @id with @len bytes written, and move used->idx by @step. */
static void dev_answer(struct dev *d, uint32_t id, uint32_t len, uint16_t step)
{
	uint16_t *used = used_of(d);
	uint32_t *elem = (uint32_t *)(void *)(used + 2) + 2u * (used[1] % NUM);

	elem[0] = id;
	elem[1] = len;
	used[1] = (uint16_t)(used[1] + step);
}

static struct dev dev_new(struct host_vring *r)
{
	struct dev d;
	size_t bytes = host_vring_bytes(NUM);

	d.mem = aligned_alloc(HOST_VRING_ALIGN, bytes);
	memset(d.mem, 0, bytes);
	d.seen = 0;
	if (!host_vring_init(r, d.mem, NUM)) {
		abort();
	}
	return d;
}

static const struct host_vring_buf req[3] = {
	{0x1000, 16, false},
	{0x2000, 4096, true},
	{0x3000, 1, true},
};

TEST(emu_host_vring, layout_sizes)
{
	EXPECT_EQ(host_vring_bytes(256), (size_t)12288); /* 4096+518 | 2054 */
	EXPECT_EQ(host_vring_bytes(128), (size_t)8192);
	EXPECT_EQ(host_vring_bytes(1), (size_t)8192);
	EXPECT_EQ(host_vring_bytes(32768), (size_t)(593920 + 266240));
	EXPECT_EQ(host_vring_bytes(0), (size_t)0);
	EXPECT_EQ(host_vring_bytes(3), (size_t)0);
	EXPECT_EQ(host_vring_bytes(65536), (size_t)0);
}

TEST(emu_host_vring, init_refuses_bad_ring)
{
	struct host_vring r;
	uint8_t *mem = aligned_alloc(HOST_VRING_ALIGN, 3 * HOST_VRING_ALIGN);

	EXPECT_FALSE(host_vring_init(&r, mem + 8, 256));
	EXPECT_FALSE(host_vring_init(&r, mem, 100));
	free(mem);
}

TEST(emu_host_vring, chain_as_the_device_reads_it)
{
	struct host_vring r;
	struct dev d = dev_new(&r);
	uint16_t *avail = avail_of(&d);
	uint32_t len = 0;
	unsigned i;

	ASSERT_TRUE(host_vring_post(&r, req, 3));
	EXPECT_EQ(avail[1], 1u);
	EXPECT_EQ(avail[2], 0u); /* head 0 */
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(r.desc[i].addr, req[i].addr);
		EXPECT_EQ(r.desc[i].len, req[i].len);
	}
	EXPECT_EQ(r.desc[0].flags, VRING_DESC_F_NEXT);
	EXPECT_EQ(r.desc[0].next, 1u);
	EXPECT_EQ(r.desc[1].flags, VRING_DESC_F_NEXT | VRING_DESC_F_WRITE);
	EXPECT_EQ(r.desc[1].next, 2u);
	EXPECT_EQ(r.desc[2].flags, VRING_DESC_F_WRITE);
	EXPECT_EQ(host_vring_poll(&r, &len), HOST_VRING_PENDING);
	/* A second chain while one is in flight is refused. */
	EXPECT_FALSE(host_vring_post(&r, req, 2));
	dev_answer(&d, 0, 4097, 1);
	EXPECT_EQ(host_vring_poll(&r, &len), HOST_VRING_DONE);
	EXPECT_EQ(len, 4097u);
	EXPECT_EQ(host_vring_poll(&r, &len), HOST_VRING_PENDING);
	free(d.mem);
}

TEST(emu_host_vring, indices_wrap)
{
	struct host_vring r;
	struct dev d = dev_new(&r);
	uint32_t len = 0;
	unsigned i;

	for (i = 0; i < 70000u; i++) {
		ASSERT_TRUE(host_vring_post(&r, req, 2));
		ASSERT_EQ(avail_of(&d)[2 + (i % NUM)], 0u);
		dev_answer(&d, 0, 1, 1);
		ASSERT_EQ(host_vring_poll(&r, &len), HOST_VRING_DONE);
	}
	EXPECT_EQ(avail_of(&d)[1], (uint16_t)70000u);
	free(d.mem);
}

TEST(emu_host_vring, broken_answers)
{
	struct host_vring r;
	struct dev d = dev_new(&r);
	uint32_t len = 0;

	/* An answer with nothing in flight. */
	dev_answer(&d, 0, 1, 1);
	EXPECT_EQ(host_vring_poll(&r, &len), HOST_VRING_BROKEN);
	free(d.mem);

	d = dev_new(&r);
	ASSERT_TRUE(host_vring_post(&r, req, 3));
	dev_answer(&d, 0, 1, 2); /* two chains back for one */
	EXPECT_EQ(host_vring_poll(&r, &len), HOST_VRING_BROKEN);
	free(d.mem);

	d = dev_new(&r);
	ASSERT_TRUE(host_vring_post(&r, req, 3));
	dev_answer(&d, 1, 1, 1); /* a head never posted */
	EXPECT_EQ(host_vring_poll(&r, &len), HOST_VRING_BROKEN);
	/* Still broken, and nothing taken as done. */
	EXPECT_EQ(host_vring_poll(&r, &len), HOST_VRING_BROKEN);
	EXPECT_EQ(len, 0u);
	free(d.mem);
}
