/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's block device, as the hypervisor provides it (issue 28,
 * docs/emu.md "The SVSM's block device"): the host's file
 * (host_blk.h) behind the virtio-blk device model (model/virtio_blk.h)
 * at the virtio-mmio slot the ABI names, for VMPL0 only.
 */
#ifndef MACHINE_HV_VBLK_H
#define MACHINE_HV_VBLK_H

#include <stdbool.h>
#include <stdint.h>

/** Find the host's file (its QEMU device); once, at start. */
void hv_vblk_init(void);

#endif /* MACHINE_HV_VBLK_H */
