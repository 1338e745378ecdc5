/* SPDX-License-Identifier: MIT */
/*
 * The host's storage behind the SVSM's block device (issue 28): a file on
 * the host that outlives the VM, reached through one QEMU device that the
 * machine drives itself, a virtio-blk-pci in legacy mode
 * (`scripts/emu-run.sh --blk FILE`; docs/emu.md, "The SVSM's block
 * device"). A polled driver over the device's I/O BAR: one request at a
 * time, one virtqueue in the machine's memory, a bounce buffer the device
 * reads and writes (its DMA never reaches guest memory), bus mastering on
 * for this function alone and its interrupt line off.
 *
 * The guest never reaches the device: its port I/O goes to hv_io.c's
 * table (the BAR is not in it), its MMIO outside RAM to hv_mmio.c, its
 * PCI configuration to hv_pci.c. The host's file is host-controlled
 * (lost, truncated, corrupted, replayed or swapped at will): the bytes
 * are passed on unchecked; QEMU, the device, is the machine's platform
 * and trusted as such (a device that stops answering is a panic).
 *
 * Concurrency: callers serialise (hv_vblk.c's lock).
 */
#ifndef MACHINE_HOST_BLK_H
#define MACHINE_HOST_BLK_H

#include <stdbool.h>
#include <stdint.h>

#define HOST_BLK_SECTOR 512u

/** Find QEMU's legacy virtio-blk-pci and set it up; false if there is
 * none (the host gave no file). Once, at start, before any vCPU runs. */
bool host_blk_init(void);

/** The file's size in sectors, as QEMU reports it (0 if no device). */
uint64_t host_blk_sectors(void);

/** Requests made of QEMU's device so far (a read or write of up to
 * 64 KiB, or a flush), and in *@usecs the time spent waiting for them. */
uint64_t host_blk_requests(uint64_t *usecs);

/** Read @n sectors from @lba into the machine's @buf; false on the
 * device's I/O error or a range beyond the capacity. */
bool host_blk_read(uint64_t lba, void *buf, uint32_t n);

/** Write @n sectors from @buf at @lba; false as for host_blk_read. */
bool host_blk_write(uint64_t lba, const void *buf, uint32_t n);

/** Make earlier writes durable in the host's file (fdatasync). */
bool host_blk_flush(void);

#endif /* MACHINE_HOST_BLK_H */
