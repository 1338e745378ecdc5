/* SPDX-License-Identifier: MIT */
/*
 * The device model's request queue: a split virtqueue (virtio 1.2 2.7)
 * carrying virtio-blk requests (5.2.6), processed synchronously when the
 * driver notifies. Threat: the driver wrote the rings and descriptors.
 * Each ring entry and descriptor is read from guest memory once, into the
 * model's copy; a chain is at most queue-size descriptors long (so a loop
 * in `next` ends); lengths are summed in 64 bits (at most VBLK_QUEUE_MAX
 * times 2^32) and every GPA offset is checked for wrap-around; the
 * sectors a request names are checked against the capacity before the
 * backend sees them. A malformed chain breaks the device (vblk_broken);
 * a well-formed request the device cannot serve completes with IOERR or
 * UNSUPP, as QEMU's virtio-blk does.
 */
#include "svsm/std.h"

#include "abi/virtio_mmio.h"

#include "vblk_internal.h"

/* The parsed request: descriptors copied once, data segments apart. */
struct chain {
	uint16_t head;
	unsigned count;
	struct virtq_desc desc[VBLK_QUEUE_MAX];
	unsigned first_in;  /* index of the first device-writable one */
	uint64_t out_bytes; /* device-readable bytes after the header */
	uint64_t in_bytes;  /* device-writable bytes before the status */
};

static bool gpa_at(uint64_t base, uint64_t off, uint64_t len, uint64_t *gpa)
{
	if (base > UINT64_MAX - off || base + off > UINT64_MAX - len) {
		return false;
	}
	*gpa = base + off;
	return true;
}

static bool mem_read(struct vblk *d, uint64_t base, uint64_t off, void *dst,
		     size_t len)
{
	uint64_t gpa;

	return gpa_at(base, off, len, &gpa) &&
	       d->mem.read(d->mem.ctx, gpa, dst, len);
}

static bool mem_write(struct vblk *d, uint64_t base, uint64_t off,
		      const void *src, size_t len)
{
	uint64_t gpa;

	return gpa_at(base, off, len, &gpa) &&
	       d->mem.write(d->mem.ctx, gpa, src, len);
}

static bool read_u16(struct vblk *d, uint64_t base, uint64_t off, uint16_t *v)
{
	uint8_t b[2];

	if (!mem_read(d, base, off, b, sizeof(b))) {
		return false;
	}
	*v = (uint16_t)(b[0] | b[1] << 8);
	return true;
}

/* Copy the chain at @head once; readable descriptors before writable
 * ones (2.7.4.2), no indirect ones (not offered). */
static bool chain_read(struct vblk *d, uint16_t head, struct chain *c)
{
	uint16_t i = head;
	bool seen_in = false;
	unsigned n;

	c->head = head;
	c->count = 0;
	c->first_in = 0;
	c->out_bytes = 0;
	c->in_bytes = 0;
	for (n = 0; n < d->queue_num; n++) {
		struct virtq_desc *e = &c->desc[n];
		uint8_t raw[sizeof(struct virtq_desc)];
		unsigned j;

		if (i >= d->queue_num ||
		    !mem_read(d, d->desc, (uint64_t)i * sizeof(raw), raw,
			      sizeof(raw))) {
			return false;
		}
		e->addr = 0;
		for (j = 0; j < 8; j++) {
			e->addr |= (uint64_t)raw[j] << (8 * j);
		}
		e->len = (uint32_t)raw[8] | (uint32_t)raw[9] << 8 |
			 (uint32_t)raw[10] << 16 | (uint32_t)raw[11] << 24;
		e->flags = (uint16_t)(raw[12] | raw[13] << 8);
		e->next = (uint16_t)(raw[14] | raw[15] << 8);
		if ((e->flags & VIRTQ_DESC_F_INDIRECT) != 0) {
			return false;
		}
		if ((e->flags & VIRTQ_DESC_F_WRITE) != 0) {
			if (!seen_in) {
				seen_in = true;
				c->first_in = n;
			}
			c->in_bytes += e->len;
		} else if (seen_in) {
			return false; /* readable after writable */
		} else {
			c->out_bytes += e->len;
		}
		c->count = n + 1;
		if ((e->flags & VIRTQ_DESC_F_NEXT) == 0) {
			break;
		}
		i = e->next;
	}
	if (n == d->queue_num) {
		return false; /* longer than the queue: a loop */
	}
	/* The header alone in the first descriptor, the status byte the
	 * last byte of the last (5.2.6). */
	if (!seen_in || c->first_in == 0 ||
	    c->desc[0].len != sizeof(struct virtio_blk_req_hdr) ||
	    c->desc[c->count - 1].len == 0) {
		return false;
	}
	c->out_bytes -= sizeof(struct virtio_blk_req_hdr);
	c->in_bytes -= 1;
	return true;
}

/*
 * Copy @len bytes at offset @pos of the chain's data (readable data for
 * @to_guest false, writable data for true) between @buf and guest
 * memory. The data excludes the header and the status byte.
 */
static bool chain_copy(struct vblk *d, const struct chain *c, bool to_guest,
		       uint64_t pos, uint8_t *buf, uint64_t len)
{
	unsigned i = to_guest ? c->first_in : 1;
	unsigned end = to_guest ? c->count : c->first_in;
	uint64_t seg_start = 0;

	for (; i < end && len != 0; i++) {
		uint64_t seg_len = c->desc[i].len;
		uint64_t off, n;

		if (to_guest && i == c->count - 1) {
			seg_len -= 1; /* the status byte */
		}
		if (pos >= seg_start + seg_len) {
			seg_start += seg_len;
			continue;
		}
		off = pos - seg_start;
		n = seg_len - off < len ? seg_len - off : len;
		if (to_guest ? !mem_write(d, c->desc[i].addr, off, buf, n)
			     : !mem_read(d, c->desc[i].addr, off, buf, n)) {
			return false;
		}
		buf += n;
		pos += n;
		len -= n;
		seg_start += seg_len;
	}
	return len == 0;
}

/* IN and OUT: whole sectors inside the capacity, else IOERR. */
static uint8_t do_io(struct vblk *d, const struct chain *c, uint64_t sector,
		     bool write, bool *ok)
{
	uint64_t bytes = write ? c->out_bytes : c->in_bytes;
	uint64_t count = bytes / VIRTIO_BLK_SECTOR, pos;

	*ok = true;
	if (bytes % VIRTIO_BLK_SECTOR != 0 || sector > d->be.sectors ||
	    count > d->be.sectors - sector || (write && d->be.read_only)) {
		return VIRTIO_BLK_S_IOERR;
	}
	for (pos = 0; pos < bytes; pos += VBLK_CHUNK) {
		uint64_t n =
			bytes - pos < VBLK_CHUNK ? bytes - pos : VBLK_CHUNK;
		uint64_t lba = sector + pos / VIRTIO_BLK_SECTOR;
		uint32_t secs = (uint32_t)(n / VIRTIO_BLK_SECTOR);

		if (write) {
			if (!chain_copy(d, c, false, pos, d->chunk, n)) {
				*ok = false;
				return VIRTIO_BLK_S_IOERR;
			}
			if (!d->be.write(d->be.ctx, lba, d->chunk, secs)) {
				return VIRTIO_BLK_S_IOERR;
			}
			d->stats.writes++;
		} else {
			if (!d->be.read(d->be.ctx, lba, d->chunk, secs)) {
				return VIRTIO_BLK_S_IOERR;
			}
			d->stats.reads++;
			if (!chain_copy(d, c, true, pos, d->chunk, n)) {
				*ok = false;
				return VIRTIO_BLK_S_IOERR;
			}
		}
	}
	/* Without VIRTIO_BLK_F_FLUSH the device is write-through (5.2.6.2):
	 * a write is durable when it completes. */
	if (write && !vblk_has(d->features, VIRTIO_BLK_F_FLUSH) &&
	    d->be.flush != NULL && !d->be.flush(d->be.ctx)) {
		return VIRTIO_BLK_S_IOERR;
	}
	return VIRTIO_BLK_S_OK;
}

static uint8_t do_request(struct vblk *d, const struct chain *c, bool *ok)
{
	uint8_t raw[sizeof(struct virtio_blk_req_hdr)];
	uint32_t type;
	uint64_t sector = 0;
	unsigned i;

	if (!mem_read(d, c->desc[0].addr, 0, raw, sizeof(raw))) {
		*ok = false;
		return VIRTIO_BLK_S_IOERR;
	}
	*ok = true;
	type = (uint32_t)raw[0] | (uint32_t)raw[1] << 8 |
	       (uint32_t)raw[2] << 16 | (uint32_t)raw[3] << 24;
	for (i = 0; i < 8; i++) {
		sector |= (uint64_t)raw[8 + i] << (8 * i);
	}
	if (d->behaviour == VBLK_IOERR) {
		return VIRTIO_BLK_S_IOERR;
	}
	switch (type) {
	case VIRTIO_BLK_T_IN:
		return do_io(d, c, sector, false, ok);
	case VIRTIO_BLK_T_OUT:
		return do_io(d, c, sector, true, ok);
	case VIRTIO_BLK_T_FLUSH:
		if (d->be.flush != NULL && !d->be.flush(d->be.ctx)) {
			return VIRTIO_BLK_S_IOERR;
		}
		d->stats.flushes++;
		return VIRTIO_BLK_S_OK;
	default:
		return VIRTIO_BLK_S_UNSUPP;
	}
}

/* Write the status byte and the used element; the lies go here. */
static bool complete(struct vblk *d, const struct chain *c, uint8_t status)
{
	const struct virtq_desc *last = &c->desc[c->count - 1];
	uint32_t written = 1, id = c->head;
	uint64_t slot =
		VIRTQ_USED_RING + (uint64_t)(d->used_idx % d->queue_num) *
					  sizeof(struct virtq_used_elem);
	uint8_t elem[sizeof(struct virtq_used_elem)], idx[2];
	uint8_t lie = 0, step = 0;
	unsigned i;

	if (status == VIRTIO_BLK_S_OK && c->in_bytes != 0) {
		written += (uint32_t)c->in_bytes; /* IN: data, then status */
	}
	if (vblk_script_byte(d, &lie)) {
		if ((lie & 1u) != 0 && vblk_script_byte(d, &step)) {
			d->used_idx = (uint16_t)(d->used_idx + (int8_t)step);
		}
		if ((lie & 2u) != 0) {
			id = vblk_script_u32(d, id);
		}
		if ((lie & 4u) != 0) {
			written = vblk_script_u32(d, written);
		}
		if ((lie & 8u) != 0) {
			(void)vblk_script_byte(d, &status);
		}
		if ((lie & 16u) != 0) {
			return true;
		}
	}
	switch (d->behaviour) {
	case VBLK_LIE_STATUS:
		status = 0x7F;
		break;
	case VBLK_LIE_USED_ID:
		id = (uint32_t)(c->head + 1) % d->queue_num;
		break;
	case VBLK_LIE_USED_LEN:
		written = 0xFFFFFFF0u;
		break;
	default:
		break;
	}
	if (!mem_write(d, last->addr, (uint64_t)last->len - 1, &status, 1)) {
		return false;
	}
	for (i = 0; i < 4; i++) {
		elem[i] = (uint8_t)(id >> (8 * i));
		elem[4 + i] = (uint8_t)(written >> (8 * i));
	}
	d->used_idx++;
	if (d->behaviour == VBLK_LIE_USED_IDX) {
		d->used_idx++;
	}
	idx[0] = (uint8_t)d->used_idx;
	idx[1] = (uint8_t)(d->used_idx >> 8);
	d->stats.requests++;
	if (status != VIRTIO_BLK_S_OK) {
		d->stats.errors++;
	}
	/* The element before the index (2.7.8.2): a driver that sees the
	 * index sees the element. */
	return mem_write(d, d->used, slot, elem, sizeof(elem)) &&
	       mem_write(d, d->used, VIRTQ_RING_IDX, idx, sizeof(idx));
}

static bool take_one(struct vblk *d)
{
	uint16_t head;
	struct chain c;
	uint8_t status;
	bool ok = false;

	if (!read_u16(d, d->avail,
		      VIRTQ_AVAIL_RING +
			      (uint64_t)(d->last_avail % d->queue_num) * 2,
		      &head) ||
	    !chain_read(d, head, &c)) {
		return false;
	}
	d->last_avail++;
	status = do_request(d, &c, &ok);
	if (!ok) {
		return false; /* a data buffer the device cannot reach */
	}
	if (d->behaviour == VBLK_NEVER_COMPLETE) {
		return true;
	}
	return complete(d, &c, status);
}

void vblk_queue_notify(struct vblk *d)
{
	uint16_t avail_idx, pending;

	if ((d->status & VIRTIO_STATUS_DRIVER_OK) == 0 ||
	    (d->status & VIRTIO_STATUS_NEEDS_RESET) != 0 || !d->queue_ready) {
		return;
	}
	if (!read_u16(d, d->avail, VIRTQ_RING_IDX, &avail_idx)) {
		vblk_broken(d);
		return;
	}
	/* More than a queue's worth: an index no driver can have (QEMU:
	 * "Guest moved index"). */
	pending = (uint16_t)(avail_idx - d->last_avail);
	if (pending > d->queue_num) {
		vblk_broken(d);
		return;
	}
	while (pending-- != 0) {
		if (!take_one(d)) {
			vblk_broken(d);
			return;
		}
	}
}
