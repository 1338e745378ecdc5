/* SPDX-License-Identifier: MIT */
/*
 * A device's DMA into guest memory, as the hypervisor may do it: into
 * pages the RMP says are shared (hypervisor-owned) only, as KVM's devices
 * reach only the shared side of a guest_memfd guest. Pure, over the RMP
 * model and a map from a GPA to the host's bytes, so the hosted unit test
 * (test/unit/emu_hv_dma_test.c) runs it on its own RMP.
 */
#ifndef MACHINE_HV_DMA_H
#define MACHINE_HV_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snpmodel.h"

/**
 * Copy @len bytes between @mine and guest memory at @gpa (to the guest
 * if @to_guest), @map giving the host's bytes of a GPA range within one
 * bank (NULL outside guest memory), all or nothing: every page of the range
 * must be in guest memory and shared in @rmp, and @gpa must not carry @c_mask
 * (a C-bit address is a private one: no device reaches it), else false and no
 * byte moves. The caller holds the RMP lock for the whole call.
 */
bool hv_dma_copy(const struct rmp *rmp,
		 uint8_t *(*map)(uint64_t gpa, uint64_t len), uint64_t c_mask,
		 uint64_t gpa, uint8_t *mine, size_t len, bool to_guest);

#endif /* MACHINE_HV_DMA_H */
