/* SPDX-License-Identifier: MIT */
/*
 * One polled split virtqueue (virtio 1.2 section 2.7) in pages shared
 * with the host, one request at a time: the chain is always descriptors
 * 0 (header), 1 (data, if any) and 2 (status), head 0.
 *
 * Threat (T18): the host writes the used ring and the status byte, and
 * may rewrite them at any moment. Each is read once into SVSM memory and
 * checked there: the used index must move by exactly the one request
 * submitted, the element must name chain 0 and a length within what the
 * chain lets the device write, the status must be OK, IOERR or UNSUPP.
 * Anything else, or a request never completed within the poll bound,
 * terminates: the queue's state would no longer be the SVSM's to know.
 */
#include "svsm/check.h"
#include "svsm/le.h"
#include "svsm/plat.h"
#include "svsm/std.h"

#include "abi/snp.h"
#include "abi/virtio_mmio.h"

#include "virtio_dev.h"

/* Polls of the used index: 1000 at 1 us, then at 1 ms; about 10 s in
 * all, by count whatever the host does to the clock. */
#define POLL_FAST 1000u
#define POLL_MAX (POLL_FAST + 10000u)

_Static_assert(VIRTQ_OFF_DESC % VIRTQ_DESC_ALIGN == 0 &&
		       VIRTQ_OFF_AVAIL % VIRTQ_AVAIL_ALIGN == 0 &&
		       VIRTQ_OFF_USED % VIRTQ_USED_ALIGN == 0,
	       "virtio 1.2 2.7: ring alignment");
_Static_assert(
	VIRTQ_OFF_AVAIL >= VIRTQ_OFF_DESC +
				   VIRTQ_SIZE * sizeof(struct virtq_desc) &&
		VIRTQ_OFF_USED >= VIRTQ_OFF_AVAIL + VIRTQ_AVAIL_RING +
					  2 * VIRTQ_SIZE + 2 &&
		VIRTQ_OFF_HDR >=
			VIRTQ_OFF_USED + VIRTQ_USED_RING +
				VIRTQ_SIZE * sizeof(struct virtq_used_elem) +
				2 &&
		VIRTQ_OFF_STATUS >=
			VIRTQ_OFF_HDR + sizeof(struct virtio_blk_req_hdr),
	"the ring page's parts do not overlap");

/* One read of a shared 16-bit field the device may be writing. */
static uint16_t shared_get16(const uint8_t *p)
{
	return *(const volatile uint16_t *)(const volatile void *)p;
}

static void shared_put16(uint8_t *p, uint16_t v)
{
	*(volatile uint16_t *)(volatile void *)p = v;
}

void virtq_init(struct virtq *q, uint8_t *shared, gpa_t gpa, unsigned order)
{
	CHECK(order >= 1);
	q->ring = shared;
	q->ring_gpa = gpa;
	q->data = shared + SNP_PAGE_SIZE;
	q->data_gpa = gpa_add(gpa, SNP_PAGE_SIZE);
	q->data_size = ((size_t)SNP_PAGE_SIZE << order) - SNP_PAGE_SIZE;
	q->avail_idx = 0;
	q->used_idx = 0;
	/* Polled: the device need not interrupt (2.7.7). */
	shared_put16(q->ring + VIRTQ_OFF_AVAIL + VIRTQ_RING_FLAGS,
		     VIRTQ_AVAIL_F_NO_INTERRUPT);
}

static void put_desc(struct virtq *q, unsigned i, gpa_t addr, uint32_t len,
		     uint16_t flags, uint16_t next)
{
	uint8_t *p = q->ring + VIRTQ_OFF_DESC + i * sizeof(struct virtq_desc);

	le_put64(p, gpa_val(addr));
	le_put32(p + 8, len);
	le_put16(p + 12, flags);
	le_put16(p + 14, next);
}

/* Wait until the device moved the used index; its new value, once. */
static uint16_t poll_used(const struct virtq *q)
{
	unsigned n;

	for (n = 0; n < POLL_MAX; n++) {
		uint16_t used =
			shared_get16(q->ring + VIRTQ_OFF_USED + VIRTQ_RING_IDX);

		if (used != q->used_idx) {
			/* The element and status after the index (2.7.8). */
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			return used;
		}
		plat_delay_ns(n < POLL_FAST ? 1000u : 1000000u);
	}
	DEVICE_BROKEN("request %u not completed after %u polls", q->avail_idx,
		      POLL_MAX);
}

uint8_t virtq_request(struct virtq *q, const struct vmmio *d, uint32_t type,
		      uint64_t sector, size_t data_len, bool device_writes)
{
	uint8_t *hdr = q->ring + VIRTQ_OFF_HDR;
	uint8_t elem[sizeof(struct virtq_used_elem)];
	uint32_t id, len, writable = 1;
	uint16_t used;
	uint8_t status;
	unsigned status_desc = data_len != 0 ? 2 : 1;

	CHECK(data_len <= q->data_size && data_len <= UINT32_MAX - 1);
	le_put32(hdr, type);
	le_put32(hdr + 4, 0);
	le_put64(hdr + 8, sector);
	q->ring[VIRTQ_OFF_STATUS] = 0xFF; /* no status a device writes */
	put_desc(q, 0, gpa_add(q->ring_gpa, VIRTQ_OFF_HDR),
		 sizeof(struct virtio_blk_req_hdr), VIRTQ_DESC_F_NEXT, 1);
	if (data_len != 0) {
		put_desc(q, 1, q->data_gpa, (uint32_t)data_len,
			 VIRTQ_DESC_F_NEXT |
				 (device_writes ? VIRTQ_DESC_F_WRITE : 0),
			 2);
		if (device_writes) {
			writable += (uint32_t)data_len;
		}
	}
	put_desc(q, status_desc, gpa_add(q->ring_gpa, VIRTQ_OFF_STATUS), 1,
		 VIRTQ_DESC_F_WRITE, 0);
	shared_put16(q->ring + VIRTQ_OFF_AVAIL + VIRTQ_AVAIL_RING +
			     (size_t)2 * (q->avail_idx % VIRTQ_SIZE),
		     0);
	/* The chain and ring entry before the index (2.7.13). */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	q->avail_idx++;
	shared_put16(q->ring + VIRTQ_OFF_AVAIL + VIRTQ_RING_IDX, q->avail_idx);
	vmmio_notify(d);

	used = poll_used(q);
	if (used != (uint16_t)(q->used_idx + 1)) {
		DEVICE_BROKEN("used index moved from %u to %u, one request"
			      " outstanding",
			      q->used_idx, used);
	}
	memcpy(elem,
	       q->ring + VIRTQ_OFF_USED + VIRTQ_USED_RING +
		       (q->used_idx % VIRTQ_SIZE) *
			       sizeof(struct virtq_used_elem),
	       sizeof(elem));
	status = *(volatile uint8_t *)(q->ring + VIRTQ_OFF_STATUS);
	q->used_idx = used;
	id = le_get32(elem);
	len = le_get32(elem + 4);
	if (id != 0) {
		DEVICE_BROKEN("used element names chain %u, chain 0 was"
			      " submitted",
			      id);
	}
	if (len > writable) {
		DEVICE_BROKEN("used length %u, the chain lets it write %u", len,
			      writable);
	}
	if (status != VIRTIO_BLK_S_OK && status != VIRTIO_BLK_S_IOERR &&
	    status != VIRTIO_BLK_S_UNSUPP) {
		DEVICE_BROKEN("status byte 0x%x", status);
	}
	return status;
}
