/* SPDX-License-Identifier: MIT */
#include "host_vring.h"

#include "svsm/std.h"

#define AVAIL_IDX 1u /* u16 index of avail->idx (after flags) */
#define AVAIL_RING 2u
#define USED_IDX 1u
#define NUM_MAX 32768u

static bool num_ok(uint32_t num)
{
	return num != 0 && num <= NUM_MAX && (num & (num - 1)) == 0;
}

size_t host_vring_bytes(uint32_t num)
{
	size_t avail_end, used;

	if (!num_ok(num)) {
		return 0;
	}
	/* No overflow: num <= 32768 bounds every term well below 2^32. */
	avail_end = 16u * (size_t)num + 2u * (3u + (size_t)num);
	used = ALIGN_UP(avail_end, HOST_VRING_ALIGN);
	return used + ALIGN_UP((size_t)6 + 8u * (size_t)num, HOST_VRING_ALIGN);
}

bool host_vring_init(struct host_vring *r, void *mem, uint16_t num)
{
	uint8_t *base = mem;
	size_t avail_end = 16u * (size_t)num + 2u * (3u + (size_t)num);

	if (!num_ok(num) || ((uintptr_t)mem % HOST_VRING_ALIGN) != 0) {
		return false;
	}
	r->num = num;
	r->desc = (struct vring_desc *)(void *)base;
	r->avail = (volatile uint16_t *)(void *)(base + 16u * (size_t)num);
	r->used = (volatile uint16_t *)(void *)(base +
						ALIGN_UP(avail_end,
							 HOST_VRING_ALIGN));
	r->avail_idx = 0;
	r->used_idx = 0;
	return true;
}

bool host_vring_post(struct host_vring *r, const struct host_vring_buf *bufs,
		     unsigned count)
{
	unsigned i;

	if (count == 0 || count > HOST_VRING_MAX_CHAIN || count > r->num ||
	    r->used_idx != r->avail_idx) {
		return false;
	}
	for (i = 0; i < count; i++) {
		r->desc[i].addr = bufs[i].addr;
		r->desc[i].len = bufs[i].len;
		r->desc[i].flags =
			(uint16_t)((bufs[i].device_writes ? VRING_DESC_F_WRITE
							  : 0u) |
				   (i + 1 < count ? VRING_DESC_F_NEXT : 0u));
		r->desc[i].next = (uint16_t)(i + 1 < count ? i + 1 : 0);
	}
	r->avail[AVAIL_RING + r->avail_idx % r->num] = 0; /* the head */
	/* The descriptors and the ring entry before the index (virtio
	 * 2.4.1.3: a write barrier before updating avail idx). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	r->avail_idx++;
	r->avail[AVAIL_IDX] = r->avail_idx;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return true;
}

enum host_vring_state host_vring_poll(struct host_vring *r, uint32_t *len)
{
	const volatile uint32_t *elem;
	uint32_t id;
	uint16_t idx = r->used[USED_IDX];
	uint16_t slot;

	if (idx == r->used_idx) {
		return HOST_VRING_PENDING;
	}
	/* One chain in flight: the device returns exactly it, once. */
	if ((uint16_t)(idx - r->used_idx) != 1 || r->used_idx == r->avail_idx) {
		return HOST_VRING_BROKEN;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* the element after idx */
	slot = (uint16_t)(r->used_idx % r->num);
	elem = (const volatile uint32_t *)(const volatile void *)(r->used + 2) +
	       2u * (size_t)slot;
	id = elem[0];
	if (id != 0) {
		return HOST_VRING_BROKEN;
	}
	r->used_idx = idx;
	*len = elem[1];
	return HOST_VRING_DONE;
}
