/* SPDX-License-Identifier: MIT */
/*
 * The simulated host's devices: the virtio-blk model (model/dev/) in the
 * first of the SVSM's virtio-mmio slots, over a disk in host memory, and
 * the MMIO that reaches it from either linked platform. The device's DMA
 * reaches only shared pages of guest RAM, as on SNP hardware, where the
 * host cannot read or write a private page's plaintext.
 */
#include <stdlib.h>
#include <string.h>

#include "abi/snp.h"
#include "abi/virtio_mmio.h"

#include "sim_machine.h"

/* [gpa, gpa + len) in RAM and every page of it shared (not assigned). */
static bool dma_ok(struct sim_machine *m, uint64_t gpa, size_t len)
{
	uint64_t p;

	if (len == 0 || gpa >= m->cfg.guest_mem_size ||
	    len > m->cfg.guest_mem_size - gpa) {
		return len == 0;
	}
	for (p = gpa & ~(uint64_t)(SNP_PAGE_SIZE - 1); p < gpa + len;
	     p += SNP_PAGE_SIZE) {
		const struct rmp_entry *e = rmp_lookup(&m->rmp, p);

		if (e != NULL && (e->flags & RMP_F_ASSIGNED) != 0) {
			return false;
		}
	}
	return true;
}

static bool dma_read(void *ctx, uint64_t gpa, void *dst, size_t len)
{
	struct sim_machine *m = ctx;

	if (!dma_ok(m, gpa, len)) {
		return false;
	}
	memcpy(dst, m->mem + gpa, len);
	return true;
}

static bool dma_write(void *ctx, uint64_t gpa, const void *src, size_t len)
{
	struct sim_machine *m = ctx;

	if (!dma_ok(m, gpa, len)) {
		return false;
	}
	memcpy(m->mem + gpa, src, len);
	return true;
}

/* The model keeps lba + n within the capacity. */
static bool disk_read(void *ctx, uint64_t lba, void *buf, uint32_t n)
{
	struct sim_machine *m = ctx;

	memcpy(buf, m->vblk_disk + lba * VIRTIO_BLK_SECTOR,
	       (size_t)n * VIRTIO_BLK_SECTOR);
	return true;
}

static bool disk_write(void *ctx, uint64_t lba, const void *buf, uint32_t n)
{
	struct sim_machine *m = ctx;

	memcpy(m->vblk_disk + lba * VIRTIO_BLK_SECTOR, buf,
	       (size_t)n * VIRTIO_BLK_SECTOR);
	return true;
}

bool sim_vblk_init(struct sim_machine *m)
{
	uint64_t sectors = m->cfg.vblk_sectors;
	struct vblk_backend be = {.sectors = sectors,
				  .read = disk_read,
				  .write = disk_write,
				  .ctx = m};
	struct vblk_mem mem = {.read = dma_read, .write = dma_write, .ctx = m};

	if (sectors == 0) {
		return true;
	}
	if (sectors > SIZE_MAX / VIRTIO_BLK_SECTOR) {
		return false;
	}
	m->vblk_disk = m->cfg.vblk_disk;
	if (m->vblk_disk == NULL) {
		m->vblk_disk = calloc(sectors, VIRTIO_BLK_SECTOR);
		m->vblk_disk_owned = true;
	}
	m->vblk = malloc(sizeof(*m->vblk));
	if (m->vblk_disk == NULL || m->vblk == NULL) {
		return false;
	}
	vblk_init(m->vblk, &be, &mem);
	return true;
}

void sim_vblk_free(struct sim_machine *m)
{
	if (m->vblk_disk_owned) {
		free(m->vblk_disk);
	}
	m->vblk_disk = NULL;
	m->vblk_disk_owned = false;
	free(m->vblk);
	m->vblk = NULL;
}

void sim_hv_mmio(struct sim_machine *m, uint64_t gpa, unsigned len, bool write,
		 uint8_t data[8])
{
	uint64_t off = gpa - VIRTIO_MMIO_SVSM_BASE;
	uint32_t v = 0;

	if (m->vblk == NULL || gpa < VIRTIO_MMIO_SVSM_BASE ||
	    off >= VIRTIO_MMIO_WINDOW || len > 4) {
		if (!write) {
			memset(data, 0xFF, len);
		}
		return;
	}
	if (write) {
		memcpy(&v, data, len);
		vblk_mmio_write(m->vblk, off, len, v);
		return;
	}
	v = vblk_mmio_read(m->vblk, off, len);
	memcpy(data, &v, len);
}

void sim_hv_share(struct sim_machine *m, uint64_t gpa, unsigned pages)
{
	unsigned i;

	for (i = 0; i < pages; i++) {
		(void)rmp_hv_page_state(&m->rmp,
					gpa + (uint64_t)i * SNP_PAGE_SIZE,
					false, false);
	}
}

bool sim_vblk_set_behaviour(struct sim_machine *m, int behaviour)
{
	if (m->vblk == NULL) {
		return false;
	}
	vblk_set_behaviour(m->vblk, (enum vblk_behaviour)behaviour);
	return true;
}

bool sim_vblk_script(struct sim_machine *m, const uint8_t *script, size_t len)
{
	if (m->vblk == NULL) {
		return false;
	}
	vblk_set_script(m->vblk, script, len);
	return true;
}

uint8_t *sim_vblk_disk(struct sim_machine *m)
{
	return m->vblk_disk;
}

uint64_t sim_vblk_requests(const struct sim_machine *m)
{
	return m->vblk != NULL ? m->vblk->stats.requests : 0;
}
