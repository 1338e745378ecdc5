/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's own storage: a block device the host gives it (issue 28;
 * docs/vtpm.md). The SVSM drives it itself (virtio-blk over virtio-mmio,
 * src/dev/), through pages it shares with the host, so the host sees every
 * byte written and can answer reads with anything: callers store only
 * sealed data (svsm/vtpm_state.h) and treat what they read as hostile.
 *
 * Error classes (docs/error-handling.md):
 *  - no device, or a request the device completed with an error status:
 *    SVSM_E_STATE; the caller names the outcome (the state is missing);
 *  - a device that breaks the virtio protocol (a used ring or length
 *    that no honest device gives): the SVSM terminates with a named
 *    reason, as for any other lying host;
 *  - a caller's bad arguments (out of range, unaligned): panic.
 *
 * Calls are serialised by the caller (the vTPM lock); the device is used
 * by one vCPU at a time.
 */
#ifndef SVSM_BLOCKDEV_H
#define SVSM_BLOCKDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/err.h"

#define BLOCKDEV_SECTOR 512u

/**
 * Forget any device found before (svsm_init(), once per boot): the next
 * call probes afresh. The shared pages of an earlier probe stay shared.
 */
void blockdev_init(void);

/** Probe for the device; true if the host offers one. Idempotent. */
bool blockdev_present(void);

/** The device's size in sectors, as the host says (0 if absent). */
uint64_t blockdev_sectors(void);

/** Read @n sectors from @lba into SVSM memory @buf. */
enum svsm_err blockdev_read(uint64_t lba, void *buf, size_t n);

/** Write @n sectors from SVSM memory @buf to @lba. */
enum svsm_err blockdev_write(uint64_t lba, const void *buf, size_t n);

/** Ask the device to make earlier writes durable (VIRTIO_BLK_T_FLUSH). */
enum svsm_err blockdev_flush(void);

#endif /* SVSM_BLOCKDEV_H */
