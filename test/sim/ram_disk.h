/* SPDX-License-Identifier: MIT */
/*
 * A test double of the SVSM's block device (svsm/blockdev.h's contract,
 * as struct vtpm_disk): sectors in host memory that outlive a simulated
 * machine, so a second sim_create() is the next boot on the same disk.
 * The test plays the host: it reads and edits the bytes, shrinks the
 * device, fails or tears writes. Never in the firmware.
 */
#ifndef TEST_SIM_RAM_DISK_H
#define TEST_SIM_RAM_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/vtpm_store.h"

struct ram_disk {
	uint8_t *data;	  /* sectors * 512 bytes */
	uint64_t sectors; /* what the device says and serves */
	bool present;
	uint64_t reads, writes, flushes, sectors_written;
	unsigned fail_writes; /* the next N writes fail (an error status) */
	bool fail_reads;      /* every read fails (an error status) */
	/* The next write stores only its first N sectors and then the
	 * "power" goes (later writes are dropped too) while reporting
	 * success: a torn write. 0: off. */
	uint64_t tear_after;
	bool torn;
};

extern struct ram_disk ram_disk;
extern const struct vtpm_disk ram_disk_dev;

/** A zeroed disk of @sectors sectors, present, counters at zero. */
void ram_disk_reset(uint64_t sectors);

#endif /* TEST_SIM_RAM_DISK_H */
