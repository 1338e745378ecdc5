/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's storage device on the wire: virtio-blk (OASIS virtio 1.2,
 * section 5.2) over the virtio-mmio transport (section 4.2, the "version
 * 2" register layout) with one split virtqueue (section 2.7), polled.
 * Shared by the SVSM's driver (src/dev/), the device model
 * (model/dev/virtio_blk.c) and the machines that host it (sim, emu).
 *
 * Where the device is: the slots QEMU's q35 machine gives an SVSM with
 * `-machine q35,x-svsm-virtio-mmio=on` (COCONUT-SVSM's transport for its
 * persistent state): four virtio-mmio windows of one page each from
 * 0xFEF00000, no interrupt wired (docs/vtpm.md, "Storage transport").
 * All registers are little-endian and 32 bits wide; the device
 * configuration space (from 0x100) may also be read in narrower pieces.
 */
#ifndef ABI_VIRTIO_MMIO_H
#define ABI_VIRTIO_MMIO_H

#include <stdint.h>

/* The slots (QEMU hw/i386/pc_q35.c with x-svsm-virtio-mmio=on). */
#define VIRTIO_MMIO_SVSM_BASE 0xFEF00000ull
#define VIRTIO_MMIO_SVSM_SLOTS 4u
#define VIRTIO_MMIO_WINDOW 0x1000ull /* one slot: a 4 KiB page */

/* Registers (virtio 1.2 section 4.2.2, table "MMIO Device Register
 * Layout"); _LOW/_HIGH halves of a 64-bit GPA. */
#define VIRTIO_MMIO_MAGIC 0x000u	       /* R: VIRTIO_MMIO_MAGIC_VALUE */
#define VIRTIO_MMIO_VERSION 0x004u	       /* R: 2 (1 is legacy) */
#define VIRTIO_MMIO_DEVICE_ID 0x008u	       /* R: 0 means an empty slot */
#define VIRTIO_MMIO_VENDOR_ID 0x00Cu	       /* R */
#define VIRTIO_MMIO_DEVICE_FEATURES 0x010u     /* R: 32 bits by _SEL */
#define VIRTIO_MMIO_DEVICE_FEATURES_SEL 0x014u /* W */
#define VIRTIO_MMIO_DRIVER_FEATURES 0x020u     /* W: 32 bits by _SEL */
#define VIRTIO_MMIO_DRIVER_FEATURES_SEL 0x024u /* W */
#define VIRTIO_MMIO_QUEUE_SEL 0x030u	       /* W */
#define VIRTIO_MMIO_QUEUE_NUM_MAX 0x034u       /* R: 0 if no such queue */
#define VIRTIO_MMIO_QUEUE_NUM 0x038u	       /* W */
#define VIRTIO_MMIO_QUEUE_READY 0x044u	       /* RW */
#define VIRTIO_MMIO_QUEUE_NOTIFY 0x050u	       /* W: the queue's index */
#define VIRTIO_MMIO_INTERRUPT_STATUS 0x060u    /* R */
#define VIRTIO_MMIO_INTERRUPT_ACK 0x064u       /* W */
#define VIRTIO_MMIO_STATUS 0x070u	       /* RW: 0 resets the device */
#define VIRTIO_MMIO_QUEUE_DESC_LOW 0x080u      /* W: descriptor table */
#define VIRTIO_MMIO_QUEUE_DESC_HIGH 0x084u
#define VIRTIO_MMIO_QUEUE_DRIVER_LOW 0x090u /* W: available ring */
#define VIRTIO_MMIO_QUEUE_DRIVER_HIGH 0x094u
#define VIRTIO_MMIO_QUEUE_DEVICE_LOW 0x0A0u /* W: used ring */
#define VIRTIO_MMIO_QUEUE_DEVICE_HIGH 0x0A4u
#define VIRTIO_MMIO_CONFIG_GENERATION 0x0FCu /* R */
#define VIRTIO_MMIO_CONFIG 0x100u	     /* device configuration */

#define VIRTIO_MMIO_MAGIC_VALUE 0x74726976u /* "virt" */
#define VIRTIO_MMIO_VERSION_MODERN 2u
#define VIRTIO_ID_BLOCK 2u

/* Device status (virtio 1.2 section 2.1). */
#define VIRTIO_STATUS_ACKNOWLEDGE 0x01u
#define VIRTIO_STATUS_DRIVER 0x02u
#define VIRTIO_STATUS_DRIVER_OK 0x04u
#define VIRTIO_STATUS_FEATURES_OK 0x08u
#define VIRTIO_STATUS_NEEDS_RESET 0x40u
#define VIRTIO_STATUS_FAILED 0x80u

/* Feature bits (section 6 and 5.2.3), numbered over 64 bits. */
#define VIRTIO_F_VERSION_1 32u
#define VIRTIO_BLK_F_RO 5u
#define VIRTIO_BLK_F_FLUSH 9u

/* Split virtqueue (section 2.7): descriptor, available and used rings. */
struct virtq_desc {
	uint64_t addr; /* GPA */
	uint32_t len;
	uint16_t flags; /* VIRTQ_DESC_F_* */
	uint16_t next;
};
_Static_assert(sizeof(struct virtq_desc) == 16,
	       "virtio 1.2 2.7.5: a descriptor is 16 bytes");

#define VIRTQ_DESC_F_NEXT 1u
#define VIRTQ_DESC_F_WRITE 2u /* device-writable (else device-readable) */
#define VIRTQ_DESC_F_INDIRECT 4u
#define VIRTQ_AVAIL_F_NO_INTERRUPT 1u

/* The rings' fixed parts: flags, idx, then ring[queue size]. */
#define VIRTQ_AVAIL_RING 4u /* offset of ring[] in the available ring */
#define VIRTQ_USED_RING 4u  /* offset of ring[] in the used ring */
#define VIRTQ_RING_FLAGS 0u
#define VIRTQ_RING_IDX 2u

struct virtq_used_elem {
	uint32_t id;  /* head of the descriptor chain */
	uint32_t len; /* bytes the device wrote into the chain */
};
_Static_assert(sizeof(struct virtq_used_elem) == 8,
	       "virtio 1.2 2.7.8: a used element is 8 bytes");

/* Alignment of the three parts (section 2.7, table "Virtqueue Part
 * Alignment"). */
#define VIRTQ_DESC_ALIGN 16u
#define VIRTQ_AVAIL_ALIGN 2u
#define VIRTQ_USED_ALIGN 4u

/* virtio-blk (section 5.2): configuration space and requests. */
#define VIRTIO_BLK_CFG_CAPACITY 0x00u /* le64: 512-byte sectors */
#define VIRTIO_BLK_SECTOR 512u

struct virtio_blk_req_hdr {
	uint32_t type; /* VIRTIO_BLK_T_* */
	uint32_t reserved;
	uint64_t sector;
};
_Static_assert(sizeof(struct virtio_blk_req_hdr) == 16,
	       "virtio 1.2 5.2.6: the request header is 16 bytes");

#define VIRTIO_BLK_T_IN 0u
#define VIRTIO_BLK_T_OUT 1u
#define VIRTIO_BLK_T_FLUSH 4u
#define VIRTIO_BLK_T_GET_ID 8u

#define VIRTIO_BLK_S_OK 0u
#define VIRTIO_BLK_S_IOERR 1u
#define VIRTIO_BLK_S_UNSUPP 2u

#endif /* ABI_VIRTIO_MMIO_H */
