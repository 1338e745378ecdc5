/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the walk of the guest's fw_cfg DMA accesses (emu/src/hv/dev/hv_fwcfg.c
 * over the pure hv_fwcfg_dma_decode, hv_fwcfg_dma_plan and
 * hv_fwcfg_dma_pages of hv_fwcfg_view.c, built hosted). The input is a
 * small guest: which of its pages are shared, four items' lengths, then a
 * run of operations as a guest issues them (OVMF chains a SELECT, SKIPs
 * and READs): select a key by port, read a data byte, or write a 16-byte
 * access anywhere in its memory and start it at any address (C-bit,
 * wrap-around and beyond RAM included). The harness does what the device
 * does with the answers, in a heap block exactly the guest's size, so a
 * fill outside the checked buffer is an ASan error.
 * Checks: a decoded access is the bytes' big-endian fields; a fill never
 * exceeds the access's length or the item; the offset only moves as
 * QEMU's does (READ over WRITE over SKIP; a refused READ leaves it); the
 * pages of a buffer cover it exactly, and a buffer is accepted only if
 * every page is shared guest RAM without the C-bit.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../emu/src/hv/dev/hv_fwcfg_view.c"
#include "fuzz_input.h"

#define SIM_PAGES 16u
#define SIM_SIZE (SIM_PAGES * HV_FWCFG_PAGE)
#define SIM_ITEMS 4u
#define C_MASK (1ull << 51)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct sim {
	uint8_t *mem;
	uint16_t shared; /* one bit per page */
	uint32_t item_len[SIM_ITEMS];
	bool valid;
	uint16_t key;
	uint32_t off;
};

/* Item @key's byte at @off: a pattern the fill is checked against. */
static uint8_t item_byte(uint16_t key, uint32_t off)
{
	return (uint8_t)(key * 31u + off * 7u + 1u);
}

static void select_key(struct sim *s, uint16_t key)
{
	s->key = key;
	s->off = 0;
	s->valid = key < SIM_ITEMS;
}

/* The device's shared_range: the host bytes of [gpa, +len), or NULL. */
static uint8_t *sim_range(const struct sim *s, uint64_t gpa, uint64_t len)
{
	uint64_t first = 0, count = 0, i;
	bool ok = hv_fwcfg_dma_pages(gpa, len, C_MASK, &first, &count);
	uint64_t last = 0;
	bool wraps = len == 0 || __builtin_add_overflow(gpa, len - 1, &last);

	if (!ok) {
		/* Refused: empty, wrapping, or C-bit. */
		if (!wraps && (gpa & C_MASK) == 0 && (last & C_MASK) == 0) {
			abort();
		}
		return NULL;
	}
	if (wraps || count == 0 || first > gpa || first % HV_FWCFG_PAGE != 0 ||
	    last - first >= count * HV_FWCFG_PAGE ||
	    last - first < (count - 1) * HV_FWCFG_PAGE) {
		abort(); /* the pages do not cover the buffer exactly */
	}
	for (i = 0; i < count; i++) {
		uint64_t page = first / HV_FWCFG_PAGE + i;

		if (page >= SIM_PAGES || (s->shared & (1u << page)) == 0) {
			return NULL;
		}
	}
	return s->mem + gpa;
}

static void check_decode(const uint8_t raw[HV_FWCFG_DMA_SIZE],
			 const struct hv_fwcfg_dma *a)
{
	uint64_t addr = 0;
	uint32_t control = 0, length = 0;
	unsigned i;

	for (i = 0; i < 4; i++) {
		control |= (uint32_t)raw[i] << (24 - 8 * i);
		length |= (uint32_t)raw[4 + i] << (24 - 8 * i);
	}
	for (i = 0; i < 8; i++) {
		addr |= (uint64_t)raw[8 + i] << (56 - 8 * i);
	}
	if (a->control != control || a->length != length ||
	    a->address != addr) {
		abort();
	}
}

/* dma_transfer: the new control. */
static uint32_t transfer(struct sim *s, const struct hv_fwcfg_dma *a)
{
	struct hv_fwcfg_dma_plan p;
	uint32_t len, off, moved, i;
	uint8_t *dst;

	if ((a->control & HV_FWCFG_DMA_SELECT) != 0) {
		select_key(s, (uint16_t)(a->control >> 16));
	}
	len = s->valid ? s->item_len[s->key] : 0;
	off = s->off;
	p = hv_fwcfg_dma_plan(a, s->valid, len, off);
	/* The offset moves by what the item has, at most the length; only
	 * a fill has bytes to copy. */
	moved = p.next_off - off;
	if (p.next_off < off || moved > a->length ||
	    (!s->valid && moved != 0) ||
	    (moved != 0 && (off >= len || moved > len - off)) ||
	    (p.op == HV_FWCFG_DMA_OP_FILL ? p.avail != moved : p.avail != 0)) {
		abort();
	}
	if (p.op == HV_FWCFG_DMA_OP_FILL &&
	    (a->control & HV_FWCFG_DMA_READ) == 0) {
		abort(); /* only a READ writes guest memory */
	}
	if (p.op != HV_FWCFG_DMA_OP_FILL) {
		if ((a->control & HV_FWCFG_DMA_SKIP) != 0 &&
		    (a->control & (HV_FWCFG_DMA_READ | HV_FWCFG_DMA_WRITE)) ==
			    0 &&
		    a->length != 0 && s->valid && off < len &&
		    p.next_off == off) {
			abort(); /* a SKIP inside the item moves */
		}
		s->off = p.next_off;
		return p.op == HV_FWCFG_DMA_OP_FAIL ? HV_FWCFG_DMA_ERROR : 0;
	}
	dst = sim_range(s, a->address, a->length);
	if (dst == NULL) {
		return HV_FWCFG_DMA_ERROR;
	}
	for (i = 0; i < p.avail; i++) {
		dst[i] = item_byte(s->key, off + i);
	}
	memset(dst + p.avail, 0, a->length - p.avail);
	s->off = p.next_off;
	return 0;
}

static void dma(struct sim *s, struct input *in)
{
	uint8_t raw[HV_FWCFG_DMA_SIZE];
	uint64_t where = take(in, 2) % (SIM_SIZE - HV_FWCFG_DMA_SIZE + 1);
	uint64_t start = take(in, 1) == 0 ? take(in, 8) : where;
	struct hv_fwcfg_dma a;
	uint8_t *p;
	uint32_t control;
	unsigned i;

	for (i = 0; i < HV_FWCFG_DMA_SIZE; i++) {
		raw[i] = (uint8_t)take(in, 1);
	}
	memcpy(s->mem + where, raw, sizeof(raw)); /* the guest writes it */
	p = sim_range(s, start, HV_FWCFG_DMA_SIZE);
	if (p == NULL) {
		return; /* no answer: nowhere to write it */
	}
	memcpy(raw, p, sizeof(raw)); /* the one read of it */
	a = hv_fwcfg_dma_decode(raw);
	check_decode(raw, &a);
	control = __builtin_bswap32(transfer(s, &a));
	memcpy(p, &control, sizeof(control));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = {data, size};
	struct sim s = {0};
	unsigned i, ops = 0;

	s.mem = calloc(1, SIM_SIZE);
	if (s.mem == NULL) {
		return 0;
	}
	s.shared = (uint16_t)take(&in, 2);
	for (i = 0; i < SIM_ITEMS; i++) {
		/* Small, or up to 4 GiB: offsets near the top of u32. */
		uint32_t v = (uint32_t)take(&in, 4);

		s.item_len[i] = (v & 0x80000000u) != 0 ? v : v % 0x3000u;
	}
	select_key(&s, 0);
	while (in.left > 0 && ops++ < 64) {
		uint32_t avail = 0;

		switch (take(&in, 1) % 3) {
		case 0:
			select_key(&s, (uint16_t)take(&in, 2));
			break;
		case 1:
			if (s.valid) {
				s.off = hv_fwcfg_advance(s.item_len[s.key],
							 s.off, 1, &avail);
			}
			break;
		default:
			dma(&s, &in);
			break;
		}
	}
	free(s.mem);
	return 0;
}
