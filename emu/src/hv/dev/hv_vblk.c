/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor's virtio-mmio slots for the SVSM (include/abi/
 * virtio_mmio.h: four windows from 0xFEF00000, as QEMU's q35 makes them
 * for an SVSM): slot 0 is the virtio-blk device model (model/dev) over
 * the host's file (host_blk.c) when the host gives one; the other slots,
 * and slot 0 without a file, are empty transports (magic, version 2,
 * device ID 0: virtio 1.2 4.2.3.1.1, "the driver MUST ignore a device
 * with DeviceID 0x0"). Only VMPL0's accesses reach them, as a KVM that
 * gives the device to the SVSM's plane alone: at VMPL1 the windows are
 * unassigned addresses (all ones, hv_mmio.c). A real host may let the
 * guest reach the device too; what it holds is sealed either way.
 *
 * The device's DMA is the hypervisor's view of guest memory: shared pages
 * of guest memory only, checked under the RMP lock for the whole copy (a
 * page the guest converts meanwhile waits for it), the address without
 * the C-bit; a private page, an address with the C-bit or outside guest
 * memory is refused (the model then fails the request or needs a
 * reset), as QEMU's DMA to a private GPA of a guest_memfd guest reaches
 * nothing of the guest's.
 *
 * Lock order: vblk_lock, then rmp_lock (mem_read/mem_write under the
 * model). The model is not thread-safe; vblk_lock serialises every vCPU.
 */
#include "hv_vblk.h"

#include "svsm/std.h"

#include "abi/virtio_mmio.h"

#include "model/virtio_blk.h"

#include "hv/hv_dma.h"
#include "hw/rmp.h"
#include "machine/fwcfg.h"
#include "machine/host_blk.h"
#include "machine/layout.h"
#include "machine/machine.h"

#define EMPTY_VENDOR 0x554D4551u /* "QEMU", as the model's */
#define OPS_LOGGED 64u		 /* backend calls the log shows one by one */

static struct spinlock vblk_lock;
static struct vblk dev;
static bool has_dev;
static uint64_t ops_logged;

/* ---- the device's DMA: shared guest pages only ---- */

static uint8_t *host_bytes(uint64_t gpa, uint64_t len)
{
	return guest_ptr(gpa, len);
}

/* The whole copy under rmp_lock: a page the guest converts meanwhile
 * waits for it (hv_dma.h). */
static bool mem_copy(uint64_t gpa, uint8_t *mine, size_t len, bool to_guest)
{
	bool ok;

	rmp_lock();
	ok = hv_dma_copy(&machine_rmp, host_bytes, MACHINE_C_MASK, gpa, mine,
			 len, to_guest);
	rmp_unlock();
	return ok;
}

static bool mem_read(void *ctx, uint64_t gpa, void *dst, size_t len)
{
	(void)ctx;
	return mem_copy(gpa, dst, len, false);
}

static bool mem_write(void *ctx, uint64_t gpa, const void *src, size_t len)
{
	(void)ctx;
	/* SAFE: mem_copy only reads @src when copying to the guest. */
	return mem_copy(gpa, (uint8_t *)(uintptr_t)src, len, true);
}

/* ---- the store: the host's file ---- */

static void log_op(const char *what, uint64_t lba, uint32_t n, bool ok)
{
	uint64_t i = __atomic_fetch_add(&ops_logged, 1, __ATOMIC_RELAXED);

	if (i < OPS_LOGGED) {
		mlog("hypervisor: SVSM block device: %s %u sectors at %llu%s",
		     what, n, (unsigned long long)lba,
		     ok ? "" : ": the host's file failed");
	} else if (i == OPS_LOGGED) {
		mlog("hypervisor: SVSM block device: further requests "
		     "counted only (at the end)");
	}
}

static bool be_read(void *ctx, uint64_t lba, void *buf, uint32_t n)
{
	bool ok = host_blk_read(lba, buf, n);

	(void)ctx;
	log_op("read", lba, n, ok);
	return ok;
}

static bool be_write(void *ctx, uint64_t lba, const void *buf, uint32_t n)
{
	bool ok = host_blk_write(lba, buf, n);

	(void)ctx;
	log_op("write", lba, n, ok);
	return ok;
}

static bool be_flush(void *ctx)
{
	bool ok = host_blk_flush();

	(void)ctx;
	log_op("flush", 0, 0, ok);
	return ok;
}

/* The device's lies (the model's enum vblk_behaviour), by the name
 * emu-run.sh --blk-lie gives: a hostile host's answers to the SVSM's
 * driver, as sim's tests tell them. */
static const char *const lie_names[] = {
	[VBLK_HONEST] = "honest",
	[VBLK_LIE_USED_IDX] = "used-idx",
	[VBLK_LIE_USED_ID] = "used-id",
	[VBLK_LIE_USED_LEN] = "used-len",
	[VBLK_LIE_STATUS] = "status",
	[VBLK_NEVER_COMPLETE] = "never-complete",
	[VBLK_IOERR] = "ioerr",
};

/* fw_cfg opt/csvsm/blk-lie: the lie's name; none: honest. */
static enum vblk_behaviour lie_from_fwcfg(void)
{
	char name[24];
	uint32_t size = 0;
	uint16_t sel = 0;
	unsigned i;

	if (!fwcfg_file("opt/csvsm/blk-lie", &size, &sel)) {
		return VBLK_HONEST;
	}
	memset(name, 0, sizeof(name));
	if (size == 0 || size >= sizeof(name) ||
	    !fwcfg_read_file(sel, name, size)) {
		machine_panic("opt/csvsm/blk-lie: unreadable");
	}
	for (i = 0; i < ARRAY_SIZE(lie_names); i++) {
		if (lie_names[i] != NULL && str_eq(name, lie_names[i])) {
			return (enum vblk_behaviour)i;
		}
	}
	machine_panic("opt/csvsm/blk-lie: unknown lie '%s'", name);
}

void hv_vblk_init(void)
{
	enum vblk_behaviour lie = VBLK_HONEST;
	const struct vblk_mem mem = {
		.read = mem_read, .write = mem_write, .ctx = NULL};
	struct vblk_backend be = {
		.sectors = 0,
		.read = be_read,
		.write = be_write,
		.flush = be_flush,
		.ctx = NULL,
		.read_only = false,
	};

	has_dev = host_blk_init();
	if (!has_dev) {
		return;
	}
	be.sectors = host_blk_sectors();
	vblk_init(&dev, &be, &mem);
	mlog("hypervisor: SVSM block device at 0x%llx (virtio-mmio slot 0, "
	     "VMPL0 only): %llu sectors",
	     (unsigned long long)VIRTIO_MMIO_SVSM_BASE,
	     (unsigned long long)be.sectors);
	lie = lie_from_fwcfg();
	if (lie != VBLK_HONEST) {
		vblk_set_behaviour(&dev, lie);
		mlog("hypervisor lies (blk-lie %s) to the SVSM: its block "
		     "device answers every request so",
		     lie_names[lie]);
	}
}

/* ---- the slots ---- */

static uint32_t empty_slot(uint64_t off, unsigned size)
{
	if (size != 4) {
		return 0;
	}
	switch (off) {
	case VIRTIO_MMIO_MAGIC:
		return VIRTIO_MMIO_MAGIC_VALUE;
	case VIRTIO_MMIO_VERSION:
		return VIRTIO_MMIO_VERSION_MODERN;
	case VIRTIO_MMIO_VENDOR_ID:
		return EMPTY_VENDOR;
	default:
		return 0; /* device ID 0: no device */
	}
}

/* One access of 1, 2 or 4 bytes at @off of @slot, under vblk_lock. */
static uint32_t slot_access(unsigned slot, uint64_t off, unsigned size,
			    bool write, uint32_t val)
{
	bool blk = slot == 0 && has_dev;

	if (write) {
		if (blk) {
			vblk_mmio_write(&dev, off, size, val);
		}
		return 0;
	}
	return blk ? vblk_mmio_read(&dev, off, size) : empty_slot(off, size);
}

bool hv_vblk_mmio(unsigned vmpl, uint64_t gpa, unsigned len, bool write,
		  uint8_t data[8])
{
	const uint64_t span =
		(uint64_t)VIRTIO_MMIO_SVSM_SLOTS * VIRTIO_MMIO_WINDOW;
	uint64_t off;
	unsigned slot, i, piece;

	if (vmpl != 0 || gpa < VIRTIO_MMIO_SVSM_BASE ||
	    gpa - VIRTIO_MMIO_SVSM_BASE >= span) {
		return false;
	}
	slot = (unsigned)((gpa - VIRTIO_MMIO_SVSM_BASE) / VIRTIO_MMIO_WINDOW);
	off = (gpa - VIRTIO_MMIO_SVSM_BASE) % VIRTIO_MMIO_WINDOW;
	/* An access of 8 bytes is two of 4 (a 64-bit register is two
	 * halves, virtio 1.2 4.2.2.2); other sizes, or one that leaves its
	 * window, are nobody's: reads zeros, writes dropped. */
	piece = len == 8 ? 4u : len;
	if ((piece != 1 && piece != 2 && piece != 4) ||
	    len > VIRTIO_MMIO_WINDOW - off) {
		if (!write) {
			memset(data, 0, len);
		}
		return true;
	}
	spin_lock(&vblk_lock);
	for (i = 0; i < len; i += piece) {
		uint32_t v = 0;

		if (write) {
			memcpy(&v, data + i, piece);
			(void)slot_access(slot, off + i, piece, true, v);
		} else {
			v = slot_access(slot, off + i, piece, false, 0);
			memcpy(data + i, &v, piece);
		}
	}
	spin_unlock(&vblk_lock);
	return true;
}

void hv_vblk_report(void)
{
	struct vblk_stats s;
	uint64_t n, us = 0;

	if (!has_dev) {
		return;
	}
	/* Without vblk_lock: the VM is ending, perhaps on a CPU that holds
	 * it (a panic under the model); the counts are for the log. */
	s = dev.stats;
	mlog("hypervisor: SVSM block device served %llu requests (%llu "
	     "notifies): %llu reads, %llu writes, %llu flushes, %llu "
	     "errors, %llu times broken",
	     (unsigned long long)s.requests, (unsigned long long)s.notifies,
	     (unsigned long long)s.reads, (unsigned long long)s.writes,
	     (unsigned long long)s.flushes, (unsigned long long)s.errors,
	     (unsigned long long)s.broken);
	n = host_blk_requests(&us);
	mlog("hypervisor: the host's file: %llu requests to QEMU's device, "
	     "%llu us waiting for them",
	     (unsigned long long)n, (unsigned long long)us);
}
