/* SPDX-License-Identifier: MIT */
/*
 * A model of the host's virtio-blk device on the virtio-mmio transport
 * (virtio 1.2 sections 4.2 and 5.2; the wire format is
 * include/abi/virtio_mmio.h): one request queue (a split virtqueue),
 * polled, no interrupt. A pure model with no platform code, as QEMU's
 * virtio-blk-device would serve the SVSM's slot: the embedder (sim's
 * hypervisor, emu's machine) routes the MMIO accesses of one window to
 * vblk_mmio_read()/vblk_mmio_write() and gives the model its storage
 * (struct vblk_backend) and its DMA view of guest memory (struct
 * vblk_mem). Freestanding C.
 *
 * The driver is not trusted: it is a guest (the SVSM at VMPL0, or anything
 * that reaches the window). Every register value, ring index, descriptor
 * and length it gives is checked before use, each is read from guest
 * memory once, no arithmetic on them wraps, a chain is bounded by the
 * queue size, and the model touches guest memory only through vblk_mem
 * (which decides what a device may reach: on SNP, shared pages only). A
 * request the model cannot parse makes the device "need reset" (virtio
 * 1.2 2.1.2), as QEMU's virtio_error() does; nothing the driver does can
 * make it read or write outside the queue's buffers or the backend's
 * sectors.
 *
 * Not thread-safe: the embedder serialises calls on one struct vblk.
 */
#ifndef MODEL_VIRTIO_BLK_H
#define MODEL_VIRTIO_BLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The host's storage behind the device, in 512-byte sectors. */
struct vblk_backend {
	uint64_t sectors; /* capacity */
	/* @n sectors at @lba (the model keeps lba + n <= sectors); false:
	 * an I/O error the device reports as VIRTIO_BLK_S_IOERR. */
	bool (*read)(void *ctx, uint64_t lba, void *buf, uint32_t n);
	bool (*write)(void *ctx, uint64_t lba, const void *buf, uint32_t n);
	bool (*flush)(void *ctx); /* NULL: nothing to flush */
	void *ctx;
	bool read_only; /* offer VIRTIO_BLK_F_RO and refuse writes */
};

/**
 * The device's DMA view of guest-physical memory: false when the device
 * may not reach [gpa, gpa + len) (not RAM; on SNP, not a shared page).
 */
struct vblk_mem {
	bool (*read)(void *ctx, uint64_t gpa, void *dst, size_t len);
	bool (*write)(void *ctx, uint64_t gpa, const void *src, size_t len);
	void *ctx;
};

/**
 * How the device answers requests: honestly, or with one lie a hostile
 * host tells the driver (the SVSM's tests of its checks, test/sim/).
 */
enum vblk_behaviour {
	VBLK_HONEST = 0,
	VBLK_LIE_USED_IDX,   /* the used index moves by two */
	VBLK_LIE_USED_ID,    /* the used element names another chain */
	VBLK_LIE_USED_LEN,   /* the used length is beyond the buffers */
	VBLK_LIE_STATUS,     /* a status byte no device writes (0x7F) */
	VBLK_NEVER_COMPLETE, /* requests are consumed, never used */
	VBLK_IOERR,	     /* every request fails with IOERR */
};

/* Largest queue the model offers (QueueNumMax). */
#define VBLK_QUEUE_MAX 16u
/* The model's bounce buffer between guest memory and the backend. */
#define VBLK_CHUNK 4096u

/** Counters, for tests and the embedder's log. */
struct vblk_stats {
	uint64_t notifies;		 /* QueueNotify writes */
	uint64_t requests;		 /* chains completed (used) */
	uint64_t reads, writes, flushes; /* backend calls that succeeded */
	uint64_t errors; /* requests completed with IOERR or UNSUPP */
	uint64_t broken; /* times the device entered "needs reset" */
};

/* Defined here so embedders can hold one by value; its fields are the
 * model's own (vblk_* functions only). */
struct vblk {
	struct vblk_backend be;
	struct vblk_mem mem;
	enum vblk_behaviour behaviour;
	struct vblk_stats stats;
	uint32_t status;	    /* device status register */
	uint32_t dev_feat_sel;	    /* DeviceFeaturesSel */
	uint32_t drv_feat_sel;	    /* DriverFeaturesSel */
	uint64_t drv_features;	    /* what the driver wrote */
	uint64_t features;	    /* accepted at FEATURES_OK */
	uint32_t queue_sel;	    /* QueueSel */
	uint32_t queue_num;	    /* QueueNum of queue 0 */
	bool queue_ready;	    /* QueueReady of queue 0 */
	uint64_t desc, avail, used; /* the queue's GPAs */
	uint16_t last_avail;	    /* next available entry to take */
	uint16_t used_idx;	    /* the device's used index */
	uint32_t config_generation;
	uint32_t interrupt_status;
	const uint8_t *script; /* vblk_set_script(): lies still to tell */
	size_t script_len;
	uint8_t chunk[VBLK_CHUNK];
};

/** A device in reset state over @be and @mem (both copied). */
void vblk_init(struct vblk *d, const struct vblk_backend *be,
	       const struct vblk_mem *mem);

/** Tell lies from now on (VBLK_HONEST to stop). */
void vblk_set_behaviour(struct vblk *d, enum vblk_behaviour b);

/**
 * Fuzzing a driver (test/fuzz/): from now on the device's answers are
 * perturbed by the bytes of @script (kept by pointer, until used up or
 * replaced; NULL to stop). Each register or configuration read takes a
 * byte: with bit 7 set the next four replace the value read. Each
 * completed request takes a byte of flags: bit 0 moves the used index
 * by the next byte's signed value more, bit 1 replaces the used id and
 * bit 2 the used length with the next four bytes, bit 3 the status
 * byte with the next byte, bit 4 leaves the request uncompleted.
 */
void vblk_set_script(struct vblk *d, const uint8_t *script, size_t len);

/**
 * A driver's read of @size bytes (1, 2 or 4) at offset @off of the window
 * (0..VIRTIO_MMIO_WINDOW). Registers answer only aligned 4-byte reads
 * (anything else reads 0); the configuration space any aligned size.
 */
uint32_t vblk_mmio_read(struct vblk *d, uint64_t off, unsigned size);

/**
 * A driver's write. A QueueNotify of queue 0 processes every available
 * request synchronously before returning; a write of 0 to Status resets
 * the device. Writes the model does not know are ignored.
 */
void vblk_mmio_write(struct vblk *d, uint64_t off, unsigned size, uint32_t val);

#endif /* MODEL_VIRTIO_BLK_H */
