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

/** An MMIO access of @len (1..8) bytes at @gpa from @vmpl: true if it
 * was the slots' (a read fills @data), false if not theirs. */
bool hv_vblk_mmio(unsigned vmpl, uint64_t gpa, unsigned len, bool write,
		  uint8_t data[8]);

/** The requests the device served, for the log at the VM's end. */
void hv_vblk_report(void);

#endif /* MACHINE_HV_VBLK_H */
