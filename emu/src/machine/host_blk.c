/* SPDX-License-Identifier: MIT */
/*
 * QEMU's virtio-blk-pci in legacy mode (virtio 0.9.5, "Virtio Over PCI
 * Bus"; emu-run.sh: disable-modern=on, vectors=0, num-queues=1), driven
 * by polling its I/O BAR. Why this device (docs/emu.md, "The SVSM's block
 * device"): it is the one QEMU device that keeps a host file, writes it
 * in place and syncs it on request, and its legacy interface is port I/O
 * and one page-aligned ring, which the machine drives in 250 lines; a
 * pflash would be the guest's firmware slot on q35 and is written by CFI
 * commands a word at a time.
 *
 * Threats: the device masters the bus, so it could write any of the
 * host's memory, the machine's and the guest's; every address it is
 * given is the machine's own (the ring and one bounce buffer from
 * mm_alloc_pages, below the guest's base), and bus mastering is on for
 * this function alone, after the reset that drops SeaBIOS's ring
 * (SeaBIOS drives virtio-blk too, and host_pci_masters_off ran first).
 */
#include "host_blk.h"

#include "svsm/std.h"

#include "arch.h"
#include "host_pci.h"
#include "host_vring.h"
#include "lapic.h"
#include "layout.h"
#include "machine.h"

#define VIRTIO_VENDOR 0x1AF4u
#define VIRTIO_BLK_LEGACY 0x1001u /* transitional ID of a block device */
#define PCI_COMMAND 0x04u
#define PCI_BAR0 0x10u
#define CMD_IO (1u << 0)
#define CMD_BUS_MASTER (1u << 2)
#define CMD_INTX_OFF (1u << 10)

/* Legacy virtio-pci registers, offsets in BAR0 (virtio 0.9.5, 2.1). */
#define REG_HOST_FEATURES 0x00u
#define REG_GUEST_FEATURES 0x04u
#define REG_QUEUE_PFN 0x08u
#define REG_QUEUE_NUM 0x0Cu
#define REG_QUEUE_SEL 0x0Eu
#define REG_QUEUE_NOTIFY 0x10u
#define REG_STATUS 0x12u
#define REG_ISR 0x13u
#define REG_CONFIG 0x14u /* device config, without MSI-X */
#define STATUS_ACK 1u
#define STATUS_DRIVER 2u
#define STATUS_DRIVER_OK 4u
#define STATUS_FAILED 0x80u
#define BLK_F_FLUSH (1u << 9) /* legacy name VIRTIO_BLK_F_WCE too */

/* virtio-blk requests (virtio 0.9.5, appendix D). */
#define BLK_T_IN 0u
#define BLK_T_OUT 1u
#define BLK_T_FLUSH 4u
#define BLK_S_OK 0u

#define BOUNCE_SECTORS 128u /* 64 KiB a request */
#define ANSWER_SECONDS 30u

struct blk_req_hdr {
	uint32_t type;
	uint32_t ioprio;
	uint64_t sector;
};
_Static_assert(sizeof(struct blk_req_hdr) == 16, "virtio-blk outhdr");

static uint16_t io; /* BAR0's I/O base; 0: no device */
static uint64_t capacity;
static bool has_flush;
static struct host_vring ring;
static struct blk_req_hdr *hdr; /* with the status byte after it */
static uint8_t *bounce;
static uint64_t requests;
static uint64_t wait_cycles; /* TSC cycles from notify to answer */

static uint32_t find_device(void)
{
	uint32_t dev;

	/* Bus 0 only: emu-run.sh plugs it into q35's root complex. */
	for (dev = 0; dev < 32u; dev++) {
		uint32_t id = host_pci_read32(dev << 3, 0);

		if ((id & 0xFFFFu) == VIRTIO_VENDOR &&
		    id >> 16 == VIRTIO_BLK_LEGACY) {
			return dev << 3;
		}
	}
	return UINT32_MAX;
}

/* Wait for the device to return the chain just posted. QEMU completes a
 * request in its main loop, which runs while TCG lets go of its lock:
 * a device that stays silent for ANSWER_SECONDS is a broken platform. */
static uint32_t wait_answer(void)
{
	uint64_t limit = lapic_tsc_khz() * 1000u * ANSWER_SECONDS;
	uint64_t start = rdtsc();
	uint32_t len = 0;

	for (;;) {
		switch (host_vring_poll(&ring, &len)) {
		case HOST_VRING_DONE:
			(void)inb((uint16_t)(io + REG_ISR)); /* ack the line */
			return len;
		case HOST_VRING_BROKEN:
			machine_panic("host block device: its used ring is "
				      "broken (request %llu)",
				      (unsigned long long)requests);
		case HOST_VRING_PENDING:
		default:
			break;
		}
		if (rdtsc() - start > limit) {
			machine_panic("host block device: no answer in %u s",
				      ANSWER_SECONDS);
		}
		cpu_relax();
	}
}

/* One request: header, @len bytes of the bounce buffer (none for a
 * flush), status. True if the device says OK. */
static bool request(uint32_t type, uint64_t lba, uint32_t len)
{
	uint8_t *status = (uint8_t *)(hdr + 1);
	struct host_vring_buf b[3];
	unsigned n = 0;
	uint64_t start;

	hdr->type = type;
	hdr->ioprio = 0;
	hdr->sector = lba;
	*status = 0xFF; /* no answer yet */
	b[n++] = (struct host_vring_buf){(uint64_t)hdr, sizeof(*hdr), false};
	if (len != 0) {
		b[n++] = (struct host_vring_buf){(uint64_t)bounce, len,
						 type == BLK_T_IN};
	}
	b[n++] = (struct host_vring_buf){(uint64_t)status, 1, true};
	MCHECK(host_vring_post(&ring, b, n));
	requests++;
	start = rdtsc();
	outw((uint16_t)(io + REG_QUEUE_NOTIFY), 0);
	(void)wait_answer();
	wait_cycles += rdtsc() - start;
	return __atomic_load_n(status, __ATOMIC_SEQ_CST) == BLK_S_OK;
}

static bool in_range(uint64_t lba, uint32_t n)
{
	return n != 0 && lba <= capacity && n <= capacity - lba;
}

bool host_blk_read(uint64_t lba, void *buf, uint32_t n)
{
	uint8_t *dst = buf;

	if (io == 0 || !in_range(lba, n)) {
		return false;
	}
	while (n > 0) {
		uint32_t k = n < BOUNCE_SECTORS ? n : BOUNCE_SECTORS;

		if (!request(BLK_T_IN, lba, k * HOST_BLK_SECTOR)) {
			return false;
		}
		memcpy(dst, bounce, (size_t)k * HOST_BLK_SECTOR);
		dst += (size_t)k * HOST_BLK_SECTOR;
		lba += k;
		n -= k;
	}
	return true;
}

bool host_blk_write(uint64_t lba, const void *buf, uint32_t n)
{
	const uint8_t *src = buf;

	if (io == 0 || !in_range(lba, n)) {
		return false;
	}
	while (n > 0) {
		uint32_t k = n < BOUNCE_SECTORS ? n : BOUNCE_SECTORS;

		memcpy(bounce, src, (size_t)k * HOST_BLK_SECTOR);
		if (!request(BLK_T_OUT, lba, k * HOST_BLK_SECTOR)) {
			return false;
		}
		src += (size_t)k * HOST_BLK_SECTOR;
		lba += k;
		n -= k;
	}
	return true;
}

bool host_blk_flush(void)
{
	if (io == 0) {
		return false;
	}
	/* Without the flush feature QEMU writes through (no cache to
	 * flush): each write was durable when it completed. */
	return !has_flush || request(BLK_T_FLUSH, 0, 0);
}

uint64_t host_blk_sectors(void)
{
	return capacity;
}

uint64_t host_blk_requests(uint64_t *usecs)
{
	uint64_t khz = lapic_tsc_khz();

	*usecs = khz == 0 ? 0 : wait_cycles * 1000u / khz;
	return requests;
}

bool host_blk_init(void)
{
	uint32_t bdf = find_device(), cmd, bar, features;
	uint16_t num, port;
	size_t bytes;
	void *mem;

	if (bdf == UINT32_MAX) {
		mlog("hypervisor: no host block device (emu-run.sh --blk "
		     "FILE): the SVSM's device is absent");
		return false;
	}
	bar = host_pci_read32(bdf, PCI_BAR0);
	cmd = host_pci_read32(bdf, PCI_COMMAND) & 0xFFFFu;
	if ((bar & 1u) == 0 || (bar & 0xFFFCu) == 0 || (cmd & CMD_IO) == 0) {
		machine_panic("host block device at 00:%02x.0: no I/O BAR "
			      "(BAR0 0x%x, command 0x%x)",
			      bdf >> 3, bar, cmd);
	}
	port = (uint16_t)(bar & 0xFFFCu);
	outb((uint16_t)(port + REG_STATUS), 0); /* reset: SeaBIOS's ring goes */
	outb((uint16_t)(port + REG_STATUS), STATUS_ACK | STATUS_DRIVER);
	features = inl((uint16_t)(port + REG_HOST_FEATURES)) & BLK_F_FLUSH;
	outl((uint16_t)(port + REG_GUEST_FEATURES), features);
	outw((uint16_t)(port + REG_QUEUE_SEL), 0);
	num = inw((uint16_t)(port + REG_QUEUE_NUM));
	bytes = host_vring_bytes(num);
	if (bytes == 0 || (uint64_t)bytes > MACHINE_GUEST_BASE) {
		outb((uint16_t)(port + REG_STATUS), STATUS_FAILED);
		machine_panic("host block device: queue of %u entries", num);
	}
	mem = mm_alloc_pages(bytes / PAGE);
	MCHECK(host_vring_init(&ring, mem, num));
	hdr = mm_alloc_pages(1);
	bounce = mm_alloc_pages((uint64_t)BOUNCE_SECTORS * HOST_BLK_SECTOR /
				PAGE);
	/* The machine's memory is identity-mapped below the guest's base:
	 * the device's addresses are these pointers. */
	MCHECK((uint64_t)bounce < MACHINE_GUEST_BASE);
	outl((uint16_t)(port + REG_QUEUE_PFN),
	     (uint32_t)((uint64_t)mem / PAGE));
	capacity = (uint64_t)inl((uint16_t)(port + REG_CONFIG)) |
		   (uint64_t)inl((uint16_t)(port + REG_CONFIG + 4)) << 32;
	has_flush = features != 0;
	/* Its DMA on, for this function alone; its interrupt line off
	 * (polled). Bits 31:16 (status) written as zeros stay. */
	host_pci_write32(bdf, PCI_COMMAND,
			 (cmd | CMD_BUS_MASTER | CMD_INTX_OFF) & 0xFFFFu);
	io = port;
	outb((uint16_t)(port + REG_STATUS),
	     STATUS_ACK | STATUS_DRIVER | STATUS_DRIVER_OK);
	mlog("hypervisor: host block device: QEMU's virtio-blk at 00:%02x.0 "
	     "(legacy, I/O 0x%x, %u entries%s), %llu sectors (%llu KiB); bus "
	     "mastering on for it alone",
	     bdf >> 3, port, num, has_flush ? ", flush" : "",
	     (unsigned long long)capacity, (unsigned long long)capacity / 2u);
	return true;
}
